import { Global, Injectable, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PayerPaymentActivity } from '@pcs/payers';
import { EntityManager, In } from 'typeorm';
import { OPEN_STATUSES } from './domain/payment-intent';
import { PaymentIntentOrmEntity } from './persistence/payment-intent.orm-entity';

/** The payers context's port, answered from payment intents (index payment_intent_payer_open_idx). */
@Injectable()
export class PaymentIntentActivity extends PayerPaymentActivity {
  async hasOpenPaymentIntents(payerId: string, manager: EntityManager): Promise<boolean> {
    return manager.exists(PaymentIntentOrmEntity, { where: { payerId, status: In([...OPEN_STATUSES]) } });
  }
}

/** Global so that every module that uses payers finds the port's implementation. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([PaymentIntentOrmEntity])],
  providers: [{ provide: PayerPaymentActivity, useClass: PaymentIntentActivity }],
  exports: [PayerPaymentActivity],
})
export class PaymentIntentActivityModule {}
