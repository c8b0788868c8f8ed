import {
  Currency,
  MerchantId,
  OrderBy,
  Page,
  PageRequest,
  PaymentIntentId,
  SortBy,
  TenantScope,
  Transaction,
  TransactionStatus,
} from '@pcs/kernel';
import { Payin } from '../domain/payin';

/** Operation 36's filters, as a caller gives them. */
export interface PayinFilters {
  status?: TransactionStatus;
  currency?: Currency;
  /** Major units, as on the wire. */
  minAmount?: number;
  maxAmount?: number;
  /** Inclusive bounds. */
  dateFrom?: Date;
  dateUntil?: Date;
  /** Narrows the caller's scope to one merchant. */
  merchantId?: MerchantId;
  /** One payment's rows: its collection attempts and its refunds (the dashboard's payment page). */
  paymentIntentId?: PaymentIntentId;
  order?: OrderBy;
  sort?: SortBy;
}

/** The filters within a tenant scope, which carries the merchant. */
export type LedgerFilters = Omit<PayinFilters, 'merchantId'>;

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

/**
 * The ledger's reads (port; the TypeORM adapter is in persistence/): a page
 * of operation 36 with its exact total, the total alone, and the overview's
 * figures, each within a tenant scope. The records' writes are
 * PayinRepository's.
 */
export abstract class PayinLedgerQueries {
  abstract page(tx: Transaction, scope: TenantScope, filters: LedgerFilters, page: PageRequest): Promise<Page<Payin>>;
  abstract count(tx: Transaction, scope: TenantScope, filters: LedgerFilters): Promise<number>;
  /** Figures of the payins within the scope created in [from, until). */
  abstract summary(tx: Transaction, scope: TenantScope, from: Date, until: Date): Promise<PayinSummaryRows>;
}
