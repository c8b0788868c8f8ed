import { Global, Injectable, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '@pcs/events';
import { PayerPaymentActivity } from '@pcs/payers';
import { PaymentLedgerModule } from './ledger/payment-ledger.module';
import { PaymentIntentRepository } from './payment-intent.repository';
import { PaymentIntentOrmEntity } from './persistence/payment-intent.orm-entity';
import { TypeOrmPaymentIntentRepository } from './persistence/typeorm-payment-intent.repository';
import { PayerId, Transaction } from '@pcs/kernel';

/** The payers context's port, answered from payment intents. */
@Injectable()
export class PaymentIntentActivity extends PayerPaymentActivity {
  constructor(private readonly intents: PaymentIntentRepository) {
    super();
  }

  async hasOpenPaymentIntents(payerId: PayerId, tx: Transaction): Promise<boolean> {
    return this.intents.hasOpenForPayer(tx, payerId);
  }
}

/** Global so that every module that uses payers finds the port's implementation. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([PaymentIntentOrmEntity]), EventsModule, PaymentLedgerModule],
  providers: [
    { provide: PaymentIntentRepository, useClass: TypeOrmPaymentIntentRepository },
    { provide: PayerPaymentActivity, useClass: PaymentIntentActivity },
  ],
  exports: [PayerPaymentActivity],
})
export class PaymentIntentActivityModule {}
