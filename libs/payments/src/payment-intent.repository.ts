import { DomainError, PayerId, PaymentIntentId, TenantScope, Transaction } from '@pcs/kernel';
import { Guard, Requirement } from '@pcs/database';
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
   * read in one round trip, and the intent's version, for `saveRefunds`.
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
   * A new intent and its events in one statement, written only if
   * `requirement` (another context's, e.g. that the payer is still there)
   * holds when the statement runs; false (nothing written) otherwise. Needs
   * no transaction of its own.
   */
  abstract insertRequiring(tx: Transaction, intent: PaymentIntent, requirement: Requirement): Promise<boolean>;
  /**
   * Inserts the intent in one statement with the changes it goes with
   * (`guards`, run first, e.g. a link's use) and their events; false
   * (nothing written) when a required guard wrote nothing. Needs no
   * transaction of its own.
   */
  abstract insertWith(
    tx: Transaction,
    intent: PaymentIntent,
    also: { guards: readonly Guard[]; events: readonly NewEvent[] },
  ): Promise<boolean>;
  /**
   * A confirmed intent and its first attempt, with their events, in one
   * statement, written only if `requires` holds when it runs (the payer still
   * there, the instrument still active). The id of the transaction that wrote
   * them (both rows' `xmin` until anything writes them again), for
   * `saveCharged`; null when the requirement did not hold (nothing written).
   * Needs no transaction of its own.
   */
  abstract insertCharged(tx: Transaction, intent: PaymentIntent, attempt: Payin, requires: Requirement): Promise<string | null>;
  /**
   * The intent and its attempt as a charge's answer left them, in one
   * statement with `also` (written after them) and every event, only if
   * neither was written since `insertCharged` wrote them (`writtenIn`). False
   * (nothing written) when one was, or when the intent has no event to
   * record. Needs no transaction of its own.
   */
  abstract saveCharged(tx: Transaction, intent: PaymentIntent, attempt: Payin, writtenIn: string, also: readonly Guard[]): Promise<boolean>;
  abstract save(tx: Transaction, intent: PaymentIntent): Promise<void>;
  /**
   * The aggregate's refund, saved in one statement: the intent (its refunded
   * amount reserved) only if it is still the version read (`findForRefund`),
   * with its new refund records and every event, the records' first. False
   * (nothing written) when the intent changed meanwhile. Needs no
   * transaction of its own.
   */
  abstract saveRefunds(tx: Transaction, intent: PaymentIntent, version: string, refunds: readonly Payin[]): Promise<boolean>;
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
