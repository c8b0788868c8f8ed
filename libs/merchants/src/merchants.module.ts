import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BusinessesModule } from '@pcs/businesses';
import { CatalogModule } from '@pcs/catalog';
import { MerchantAccess } from './merchant-access';
import { MerchantCountriesService } from './merchant-countries.service';
import { MerchantConfigurationService } from './merchant-configuration.service';
import { MerchantCountryProcessorService } from './merchant-country-processor.service';
import { MerchantService } from './merchant.service';
import { MerchantConfigurationRepository, MerchantCountryProcessorRepository, MerchantRepository } from './merchant.repository';
import { TypeOrmMerchantConfigurationRepository } from './persistence/typeorm-merchant-configuration.repository';
import { TypeOrmMerchantCountryProcessorRepository } from './persistence/typeorm-merchant-country-processor.repository';
import { TypeOrmMerchantRepository } from './persistence/typeorm-merchant.repository';
import { MerchantConfigurationOrmEntity, MerchantCountryConfigurationOrmEntity } from './persistence/merchant-configuration.orm-entity';
import { MerchantCountryProcessorOrmEntity } from './persistence/merchant-country-processor.orm-entity';
import { MerchantOrmEntity } from './persistence/merchant.orm-entity';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      MerchantOrmEntity,
      MerchantConfigurationOrmEntity,
      MerchantCountryConfigurationOrmEntity,
      MerchantCountryProcessorOrmEntity,
    ]),
    CatalogModule,
    BusinessesModule,
  ],
  providers: [
    { provide: MerchantRepository, useClass: TypeOrmMerchantRepository },
    { provide: MerchantConfigurationRepository, useClass: TypeOrmMerchantConfigurationRepository },
    { provide: MerchantCountryProcessorRepository, useClass: TypeOrmMerchantCountryProcessorRepository },
    MerchantAccess,
    MerchantService,
    MerchantConfigurationService,
    MerchantCountryProcessorService,
    MerchantCountriesService,
  ],
  exports: [MerchantAccess, MerchantService, MerchantConfigurationService, MerchantCountryProcessorService, MerchantCountriesService],
})
export class MerchantsModule {}
