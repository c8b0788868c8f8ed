import { DynamicModule, Module } from '@nestjs/common';
import { BusinessesModule } from '@pcs/businesses';
import { CatalogModule } from '@pcs/catalog';
import { RuntimeSettings, RuntimeSettingsModule } from '@pcs/config';
import { DatabaseModule } from '@pcs/database';
import { HttpFoundationModule } from '@pcs/http';
import { MerchantsModule } from '@pcs/merchants';
import { MerchantCountriesController } from './merchant/merchant-countries.controller';

/** The B2B API: merchant countries and payment intents with a hosted-checkout redirect. */
@Module({})
export class B2bApiModule {
  static forRoot(settings: RuntimeSettings, logLevel = 'info'): DynamicModule {
    return {
      module: B2bApiModule,
      imports: [
        RuntimeSettingsModule.forRoot(settings),
        DatabaseModule.forRoot({ url: settings.databaseUrl, poolSize: settings.poolSize }),
        HttpFoundationModule.forRoot({ area: 'B2B', logLevel }),
        CatalogModule,
        BusinessesModule,
        MerchantsModule,
      ],
      controllers: [MerchantCountriesController],
    };
  }
}
