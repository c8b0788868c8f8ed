import { MerchantId, PaymentIntentId, Transaction } from '@pcs/kernel';
import { Payin, PayinState } from '../domain/payin';

/** What a refund of a payment intent decides on, read with the intent (one round trip). */
export interface RefundRecords {
  /** The intent's latest approved collection: what a refund goes back through, and whom it pays back. */
  readonly charge: Payin | null;
  /** The intent's refunds not final yet (at their gateway, or manual ones pending), oldest first. */
  readonly open: readonly Payin[];
  /** The record an operation id names (created under it, or confirmed by it), on whatever intent it is. */
  readonly byOperation: Payin | null;
}

/**
 * Where payin records are kept and found one payment at a time (port; the
 * TypeORM adapter is in persistence/). The unit of work comes first. The
 * ledger's pages, counts and figures are PayinLedgerQueries'.
 */
export abstract class PayinRepository {
  /** A new record: a plain INSERT. */
  abstract insert(tx: Transaction, payin: Payin): Promise<void>;
  abstract save(tx: Transaction, payin: Payin): Promise<void>;
  /**
   * Saves the record, with its events, in one statement, only if it is still
   * in the state it was read in (`as`) and, with `undisputed`, only while its
   * payment intent has no dispute (a dispute being opened is waited for, and
   * seen); false (nothing written) otherwise. Needs no transaction of its own.
   */
  abstract saveIfStill(tx: Transaction, payin: Payin, as: PayinState, options?: { readonly undisputed?: boolean }): Promise<boolean>;
  abstract get(tx: Transaction, transactionId: string, lock?: boolean): Promise<Payin | null>;
  abstract findByExternalId(tx: Transaction, gateway: string, externalId: string): Promise<Payin | null>;
  /** The intent's collection attempts still open (PENDING or SCHEDULED), locked. */
  abstract openAttempts(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin[]>;
  /** Every collection attempt of the intent, oldest first (contract §26: the intent lists its tries). */
  abstract attemptsOf(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin[]>;
  /** The latest of the payins with these ids, if any (one read). */
  abstract anyOf(tx: Transaction, transactionIds: readonly string[]): Promise<Payin | null>;
  /** The intent's off-session charge still waiting on its gateway's answer, if any. */
  abstract openOffSessionCharge(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin | null>;
  /** The intent's checkout still open at a gateway page (a PENDING attempt whose session has not ended), if any. */
  abstract openCheckoutSession(tx: Transaction, paymentIntentId: PaymentIntentId, now: Date): Promise<Payin | null>;
  /** The intent's latest approved collection: what a refund goes back through. */
  abstract latestApprovedCharge(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin | null>;
  /** Every refund record of the intent, whatever its state or origin, oldest first. */
  abstract refundsOf(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin[]>;
  /** The intent's latest collection attempt, whatever its state. */
  abstract latestCharge(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin | null>;
  /**
   * The merchant's approved collections at `gateway` approved since `since` and not looked
   * up at the processor on `day` (a local date) yet, the longest unchecked first, at most `limit`.
   */
  abstract dueForLookup(
    tx: Transaction,
    merchantId: MerchantId,
    gateway: string,
    since: Date,
    day: string,
    limit: number,
  ): Promise<Payin[]>;
  /** These collections were looked up at their processor on `day` (a local date). */
  abstract markLookedUp(tx: Transaction, transactionIds: readonly string[], day: string): Promise<void>;
  /** Payins waiting on a gateway whose time to ask it has come (crash recovery, lost callbacks). */
  abstract dueForReconciliation(tx: Transaction, now: Date, limit: number): Promise<Payin[]>;
  /** Attempts whose payer's session at a gateway page ended before `now`. */
  abstract expiredSessions(tx: Transaction, now: Date, limit: number): Promise<Payin[]>;
  /**
   * What a processor's report is reconciled with: the merchant's approved
   * collections at that gateway released in [from, to) or named by the
   * report's references (our transaction ids), and the approved refunds of
   * intents collected there: those of these collections, and those approved
   * in the window.
   */
  abstract reconciliationRecords(
    tx: Transaction,
    merchantId: MerchantId,
    gateway: string,
    references: readonly string[],
    from: Date,
    to: Date,
  ): Promise<Payin[]>;
}
