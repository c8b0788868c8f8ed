import { ChangeAlongside, Page, PageRequest, PaymentIntentId, TenantScope, Transaction } from '@pcs/kernel';
import { B2bStatusCondition } from '../domain/b2b-status';
import { B2bCheckout } from '../domain/b2b-checkout';
import { PaymentIntent } from '../domain/payment-intent';

/** B5's filters (contract §13) within a scope; the status arrives as the intent states that give its B2B code. */
export interface B2bPaymentIntentFilters {
  readonly status?: B2bStatusCondition;
  readonly externalReference?: string;
  readonly dateFrom?: Date;
  readonly dateUntil?: Date;
}

export interface B2bPaymentIntentRecord {
  readonly intent: PaymentIntent;
  readonly checkout: B2bCheckout;
}

/** Where B2B checkouts are kept, with their intents (port; the TypeORM adapter is in persistence/). */
export abstract class B2bCheckoutRepository {
  /** The INSERT of a checkout, for its intent's own statement to run (recordWith). */
  abstract recordedAlongside(checkout: B2bCheckout): ChangeAlongside;
  abstract findByPaymentIntent(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<B2bCheckout | null>;
  abstract findByReference(tx: Transaction, reference: string): Promise<B2bCheckout | null>;
  /** B5: the B2B intents within the scope, newest first. */
  abstract list(
    tx: Transaction,
    scope: TenantScope,
    filters: B2bPaymentIntentFilters,
    page: PageRequest,
  ): Promise<Page<B2bPaymentIntentRecord>>;
  /** Open B2B intents whose checkout expired by `now` (the sweep). */
  abstract pastDue(tx: Transaction, now: Date, limit: number): Promise<PaymentIntentId[]>;
}
