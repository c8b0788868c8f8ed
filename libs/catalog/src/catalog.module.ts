import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogService } from './catalog.service';
import { CountryOrmEntity } from './persistence/country.orm-entity';
import { CountryProcessorOrmEntity } from './persistence/country-processor.orm-entity';
import { PaymentInstrumentTypeOrmEntity } from './persistence/payment-instrument-type.orm-entity';
import { PaymentMethodOrmEntity } from './persistence/payment-method.orm-entity';

@Module({
  imports: [
    TypeOrmModule.forFeature([CountryOrmEntity, PaymentInstrumentTypeOrmEntity, PaymentMethodOrmEntity, CountryProcessorOrmEntity]),
  ],
  providers: [CatalogService],
  exports: [CatalogService],
})
export class CatalogModule {}
