import { ChangeAlongside, PayerId, PaymentInstrumentId, Precondition, TenantScope, Transaction } from '@pcs/kernel';
import { PaymentInstrument } from './domain/payment-instrument';

/** Where payment instruments are kept (port; the TypeORM adapter is in persistence/). The unit of work comes first. */
export abstract class PaymentInstrumentRepository {
  /** An instrument within the scope; its payer's liveness is the service's to check. */
  abstract findVisible(tx: Transaction, scope: TenantScope, paymentInstrumentId: PaymentInstrumentId): Promise<PaymentInstrument | null>;
  abstract findById(tx: Transaction, paymentInstrumentId: PaymentInstrumentId, lock?: boolean): Promise<PaymentInstrument | null>;
  /** The payer's newest ACTIVE instrument for a method in a country (of one instrument type, when given). */
  abstract findActive(
    tx: Transaction,
    criteria: { payerId: PayerId; paymentMethodId: string; countryId: string; paymentInstrumentTypeId: string | null },
  ): Promise<PaymentInstrument | null>;
  /** A payer's instruments, newest first. */
  abstract ofPayer(tx: Transaction, payerId: PayerId): Promise<PaymentInstrument[]>;
  /** The newest `limit` instruments within the scope. */
  abstract newest(tx: Transaction, scope: TenantScope, limit: number): Promise<PaymentInstrument[]>;
  abstract save(tx: Transaction, instrument: PaymentInstrument): Promise<void>;
  /** That the instrument is the payer's and active when another context's statement runs (taken for key share there). */
  abstract whileActive(paymentInstrumentId: PaymentInstrumentId, payerId: PayerId): Precondition;
  /**
   * What a gateway taught the instrument (its token, brand, last four digits,
   * validation), as a write that runs in another context's statement: those
   * columns alone, so a change of anything else meanwhile (a deactivation)
   * is kept, and validation is never undone.
   */
  abstract lessonAlongside(instrument: PaymentInstrument): ChangeAlongside;
}
