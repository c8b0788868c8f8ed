import { BusinessId, Currency, MerchantId } from '@pcs/kernel';

export const BALANCE_TRANSACTION_TYPES = [
  'PAYIN',
  'REFUND',
  'FEE',
  'CHARGEBACK',
  'CHARGEBACK_REVERSAL',
  'DISPUTE_FEE',
  'PAYOUT',
  'PAYOUT_FAILURE',
  'ADJUSTMENT',
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/**
 * One movement of a merchant's money in a currency (contract §19), in minor
 * units: `net = amount − fee`. It is PENDING until `availableOn`, then
 * AVAILABLE. Written once; only a payout's sweep marks it (`payoutId`).
 */
export interface BalanceTransaction {
  readonly balanceTransactionId: string;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  readonly currency: Currency;
  readonly type: BalanceTransactionType;
  readonly amount: number;
  readonly fee: number;
  /** Of `fee`, the processor's financing fee of an interest-free installment plan (contract §25); 0 for none. */
  readonly financingFee: number;
  readonly net: number;
  readonly availableOn: Date;
  /**
   * The payin's or refund's transactionId (a FEE's: its payin's, contract
   * §23), the payout's id, a dispute's, or an adjustment's own (or, for the
   * reversals of the move to funds flows, the reversed transaction's id).
   */
  readonly sourceId: string;
  readonly payoutId: string | null;
  readonly description: string | null;
  readonly createdAt: Date;
}

export function balanceTransactionStatus(transaction: Pick<BalanceTransaction, 'availableOn'>, now: Date): 'PENDING' | 'AVAILABLE' {
  return transaction.availableOn.getTime() <= now.getTime() ? 'AVAILABLE' : 'PENDING';
}

/** A merchant's balance in one currency, minor units. */
export interface Balance {
  readonly currency: Currency;
  /** The net of transactions not available yet. */
  readonly pending: number;
  /** The net of available transactions, payouts' debits included (negative after refunds or chargebacks: the next payout nets it). */
  readonly available: number;
  /** Payouts PENDING or IN_TRANSIT. */
  readonly inTransit: number;
  /** What becomes available when, in the coming days (pending, by date). */
  readonly upcoming: readonly { readonly availableOn: Date; readonly amount: number }[];
}
