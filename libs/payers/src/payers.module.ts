import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pcs/catalog';
import { MerchantsModule } from '@pcs/merchants';
import { PayerService } from './payer.service';
import { PayerOrmEntity } from './persistence/payer.orm-entity';
import { TypeOrmPayerRepository } from './persistence/typeorm-payer.repository';
import { PayerRepository } from './payer.repository';

/**
 * Payers. Needs a PayerPaymentActivity provider in scope: the app imports
 * PaymentIntentActivityModule (global) from the payments context.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PayerOrmEntity]), CatalogModule, MerchantsModule],
  providers: [{ provide: PayerRepository, useClass: TypeOrmPayerRepository }, PayerService],
  exports: [PayerService],
})
export class PayersModule {}
