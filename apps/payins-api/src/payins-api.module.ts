import { DynamicModule, Module } from '@nestjs/common';
import { BusinessesModule } from '@pcs/businesses';
import { CatalogModule } from '@pcs/catalog';
import { RuntimeSettings, RuntimeSettingsModule } from '@pcs/config';
import { DatabaseModule } from '@pcs/database';
import { HttpFoundationModule } from '@pcs/http';
import { MerchantsModule } from '@pcs/merchants';
import { BusinessCountryProcessorController } from './business-country-processor/business-country-processor.controller';
import { PaymentMethodImageController } from './catalog/payment-method-image.controller';
import { MerchantController } from './merchant/merchant.controller';
import { MerchantCountryProcessorController } from './merchant-country-processor/merchant-country-processor.controller';
import { PaymentMethodController } from './payment-method/payment-method.controller';

/** The payins API: merchants, payers, instruments, payment intents, links, payins. */
@Module({})
export class PayinsApiModule {
  static forRoot(settings: RuntimeSettings, logLevel = 'info'): DynamicModule {
    return {
      module: PayinsApiModule,
      imports: [
        RuntimeSettingsModule.forRoot(settings),
        DatabaseModule.forRoot({ url: settings.databaseUrl, poolSize: settings.poolSize }),
        HttpFoundationModule.forRoot({ area: 'Payins', logLevel }),
        CatalogModule,
        BusinessesModule,
        MerchantsModule,
      ],
      controllers: [
        MerchantController,
        MerchantCountryProcessorController,
        BusinessCountryProcessorController,
        PaymentMethodController,
        PaymentMethodImageController,
      ],
    };
  }
}
