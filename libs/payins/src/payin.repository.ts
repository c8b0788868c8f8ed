import { Caller, Currency, MerchantId, OrderBy, Page, PageRequest, PaymentIntentId, SortBy, TransactionStatus } from '@pcs/kernel';
import type { EntityManager } from 'typeorm';
import { Payin } from './domain/payin';

export interface PayinFilters {
  status?: TransactionStatus;
  currency?: Currency;
  /** Major units, as on the wire. */
  minAmount?: number;
  maxAmount?: number;
  /** Inclusive bounds. */
  dateFrom?: Date;
  dateUntil?: Date;
  merchantId?: MerchantId;
  /** One payment's rows: its collection attempts and its refunds (the dashboard's payment page). */
  paymentIntentId?: PaymentIntentId;
  order?: OrderBy;
  sort?: SortBy;
}

/** The ledger's figures over a span (the dashboard's overview): whole UTC days, in minor units. */
export interface PayinSummaryRows {
  /** Per UTC day and currency: collected (approved collections), approved and rejected attempts. */
  readonly days: readonly { day: string; currency: Currency; collected: number; approved: number; rejected: number }[];
  /** Per payment method and currency, the same figures. */
  readonly paymentMethods: readonly {
    paymentMethodName: string;
    currency: Currency;
    collected: number;
    approved: number;
    rejected: number;
  }[];
  /** Per currency: refunds approved or under way. */
  readonly refunds: readonly { currency: Currency; refunded: number }[];
}

/** Where payins are kept (port; the TypeORM adapter is in persistence/). The unit of work comes first. */
export abstract class PayinRepository {
  /** A new record: a plain INSERT. */
  abstract insert(manager: EntityManager, payin: Payin): Promise<void>;
  abstract save(manager: EntityManager, payin: Payin): Promise<void>;
  abstract get(manager: EntityManager, transactionId: string, lock?: boolean): Promise<Payin | null>;
  abstract findByExternalId(manager: EntityManager, gateway: string, externalId: string): Promise<Payin | null>;
  /** The intent's collection attempts still open (PENDING or SCHEDULED), locked. */
  abstract openAttempts(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin[]>;
  /** The intent's off-session charge still waiting on its gateway's answer, if any. */
  abstract openOffSessionCharge(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin | null>;
  /** The intent's checkout still open at a gateway page (a PENDING attempt whose session has not ended), if any. */
  abstract openCheckout(manager: EntityManager, paymentIntentId: PaymentIntentId, now: Date): Promise<Payin | null>;
  /** The intent's latest approved collection: what a refund goes back through. */
  abstract latestApprovedCharge(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin | null>;
  /** The intent's latest collection attempt, whatever its state. */
  abstract latestCharge(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin | null>;
  /** The intent's manual refunds awaiting confirmation, oldest first, locked. */
  abstract pendingManualRefunds(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin[]>;
  /** The intent's confirmed manual refunds still waiting for their gateway's answer (ids only). */
  abstract manualRefundsAtGateway(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<string[]>;
  /** Whether a request (by its operation id) already created or confirmed a record of this intent. */
  abstract recordedByOperation(manager: EntityManager, paymentIntentId: PaymentIntentId, operationId: string): Promise<boolean>;
  /** Payins waiting on a gateway whose time to ask it has come (crash recovery, lost callbacks). */
  abstract dueForReconciliation(manager: EntityManager, now: Date, limit: number): Promise<Payin[]>;
  /** Attempts whose payer's session at a gateway page ended before `now`. */
  abstract expiredSessions(manager: EntityManager, now: Date, limit: number): Promise<Payin[]>;
  /** Operation 36. */
  abstract list(manager: EntityManager, caller: Caller, filters: PayinFilters, page: PageRequest): Promise<Page<Payin>>;
  /** Figures of the caller's ledger (optionally one merchant's) created in [from, until). */
  abstract summary(
    manager: EntityManager,
    caller: Caller,
    merchantId: MerchantId | undefined,
    from: Date,
    until: Date,
  ): Promise<PayinSummaryRows>;
}
