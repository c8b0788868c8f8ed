import { PayerId, Transaction } from '@pcs/kernel';

/**
 * What the payers context needs to know of payment intents, asked through
 * this port so that payers never read another context's tables. The
 * payments context provides it (PaymentIntentActivityModule).
 */
export abstract class PayerPaymentActivity {
  /** True when the payer has a payment intent in a state where money may still move towards collection. */
  abstract hasOpenPaymentIntents(payerId: PayerId, tx: Transaction): Promise<boolean>;
}
