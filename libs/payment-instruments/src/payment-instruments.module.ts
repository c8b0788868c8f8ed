import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pcs/catalog';
import { MerchantsModule } from '@pcs/merchants';
import { PayersModule } from '@pcs/payers';
import { PaymentInstrumentService } from './payment-instrument.service';
import { PaymentInstrumentOrmEntity } from './persistence/payment-instrument.orm-entity';

@Module({
  imports: [TypeOrmModule.forFeature([PaymentInstrumentOrmEntity]), CatalogModule, MerchantsModule, PayersModule],
  providers: [PaymentInstrumentService],
  exports: [PaymentInstrumentService],
})
export class PaymentInstrumentsModule {}
