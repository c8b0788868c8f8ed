import { ChangeAlongside, DomainError, PayerId, PaymentIntentId, Precondition, TenantScope, Transaction } from '@pcs/kernel';
import type { NewEvent } from '@pcs/events';
import { PaymentIntent } from './domain/payment-intent';
import type { Payin } from './domain/payin';
import type { RefundRecords } from './ledger/payin.repository';

/**
 * Where payment intents are kept (port; the TypeORM adapter is in
 * persistence/). The unit of work comes first. Tenancy is part of every read
 * made for a caller: its scope, applied by the adapter.
 */
export abstract class PaymentIntentRepository {
  abstract findVisible(
    tx: Transaction,
    scope: TenantScope,
    paymentIntentId: PaymentIntentId,
    lock?: boolean,
  ): Promise<PaymentIntent | null>;
  /**
   * The intent with what a refund of it decides on — its latest approved
   * charge, its refunds not final yet, the record an operation id names —
   * read in one round trip, and the intent's version, for `recordRefunds`.
   * With `lock`, taken for update in the transaction.
   */
  abstract findForRefund(
    tx: Transaction,
    scope: TenantScope,
    paymentIntentId: PaymentIntentId,
    operationId: string | null,
    lock?: boolean,
  ): Promise<{ intent: PaymentIntent; version: string; records: RefundRecords } | null>;
  /** For the service's own flows (gateway events, sweeps), which act for no caller; with `skipLocked`, null when another holds it. */
  abstract lockById(tx: Transaction, paymentIntentId: PaymentIntentId, skipLocked?: boolean): Promise<PaymentIntent | null>;
  abstract findById(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<PaymentIntent | null>;
  /** A new intent: a plain INSERT. */
  abstract insert(tx: Transaction, intent: PaymentIntent): Promise<void>;
  /**
   * Records a new intent and its events while `precondition` (another
   * context's: the payer is still there) holds when it is written; false,
   * nothing written, when it did not. An intent recorded already under its id
   * is AlreadyRecordedError. Needs no transaction of its own.
   */
  abstract recordWhile(tx: Transaction, intent: PaymentIntent, precondition: Precondition): Promise<boolean>;
  /**
   * Records a new intent with the changes it goes with (`alongside`, written
   * first: a link's use, a B2B checkout) and their events, all or nothing;
   * false, nothing written, when a change alongside could not be made (the
   * link was used meanwhile). Needs no transaction of its own.
   */
  abstract recordWith(
    tx: Transaction,
    intent: PaymentIntent,
    also: { alongside: readonly ChangeAlongside[]; events: readonly NewEvent[] },
  ): Promise<boolean>;
  /**
   * Records a confirmed intent and its first attempt, with their events,
   * while every precondition holds (the payer still there, the instrument
   * still active). The id of the transaction that wrote them (the version
   * `saveChargedWith` expects); null when a precondition did not hold
   * (nothing written). Needs no transaction of its own.
   */
  abstract recordCharged(
    tx: Transaction,
    intent: PaymentIntent,
    attempt: Payin,
    preconditions: readonly Precondition[],
  ): Promise<string | null>;
  /**
   * The intent and its attempt as a charge's answer left them, with the
   * changes `alongside` (what the charge taught about the instrument) and
   * every event, only while neither changed since `recordCharged` wrote them
   * (`writtenIn`); false (nothing written) when one did, or when the intent
   * has no event to record. Needs no transaction of its own.
   */
  abstract saveChargedWith(
    tx: Transaction,
    intent: PaymentIntent,
    attempt: Payin,
    writtenIn: string,
    alongside: readonly ChangeAlongside[],
  ): Promise<boolean>;
  abstract save(tx: Transaction, intent: PaymentIntent): Promise<void>;
  /**
   * Records an intent's new refunds with the intent (its refunded amount
   * reserved) and every event, only while the intent is the version read
   * (`findForRefund`): true, recorded; false, a conflict (the intent changed
   * meanwhile), nothing written. A refund recorded already under its id is
   * AlreadyRecordedError. Needs no transaction of its own.
   */
  abstract recordRefunds(tx: Transaction, intent: PaymentIntent, expectedVersion: string, refunds: readonly Payin[]): Promise<boolean>;
  /** Whether the payer has an intent that is not final (the payers context asks, through its port). */
  abstract hasOpenForPayer(tx: Transaction, payerId: PayerId): Promise<boolean>;

  /** findVisible, or PAYMENT_INTENT_NOT_FOUND. */
  async getVisible(tx: Transaction, scope: TenantScope, paymentIntentId: PaymentIntentId, lock = false): Promise<PaymentIntent> {
    const intent = await this.findVisible(tx, scope, paymentIntentId, lock);
    if (!intent) throw new DomainError('PAYMENT_INTENT_NOT_FOUND');
    return intent;
  }
}

/** The gateway callbacks already applied: a replay is recognised and changes nothing. */
export abstract class GatewayEventLog {
  /** Records an event inside the caller's transaction; false when it was recorded before (a replay). */
  abstract record(tx: Transaction, gateway: string, eventId: string, reference: string): Promise<boolean>;
}
