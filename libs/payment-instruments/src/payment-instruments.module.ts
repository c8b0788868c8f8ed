import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pcs/catalog';
import { MerchantsModule } from '@pcs/merchants';
import { PayersModule } from '@pcs/payers';
import { PaymentInstrumentService } from './payment-instrument.service';
import { PaymentInstrumentRepository } from './payment-instrument.repository';
import { PaymentInstrumentOrmEntity } from './persistence/payment-instrument.orm-entity';
import { TypeOrmPaymentInstrumentRepository } from './persistence/typeorm-payment-instrument.repository';

@Module({
  imports: [TypeOrmModule.forFeature([PaymentInstrumentOrmEntity]), CatalogModule, MerchantsModule, PayersModule],
  providers: [{ provide: PaymentInstrumentRepository, useClass: TypeOrmPaymentInstrumentRepository }, PaymentInstrumentService],
  exports: [PaymentInstrumentService],
})
export class PaymentInstrumentsModule {}
