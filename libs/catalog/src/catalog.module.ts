import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogRepository } from './catalog.repository';
import { CatalogService } from './catalog.service';
import { TypeOrmCatalogRepository } from './persistence/typeorm-catalog.repository';
import { CountryOrmEntity } from './persistence/country.orm-entity';
import { CountryProcessorOrmEntity } from './persistence/country-processor.orm-entity';
import { PaymentInstrumentTypeOrmEntity } from './persistence/payment-instrument-type.orm-entity';
import { PaymentMethodOrmEntity } from './persistence/payment-method.orm-entity';

@Module({
  imports: [
    TypeOrmModule.forFeature([CountryOrmEntity, PaymentInstrumentTypeOrmEntity, PaymentMethodOrmEntity, CountryProcessorOrmEntity]),
  ],
  providers: [{ provide: CatalogRepository, useClass: TypeOrmCatalogRepository }, CatalogService],
  exports: [CatalogService],
})
export class CatalogModule {}
