import { wireAmount } from '@pcs/kernel';
import { Balance, BalanceTransaction, balanceTransactionStatus } from '@pcs/settlement';
import type { BalanceTransactionResponse, CurrencyBalanceResponse } from './settlement.responses';

export function presentBalanceTransaction(t: BalanceTransaction, now = new Date()): BalanceTransactionResponse {
  const wire = (minor: number) => wireAmount(minor, t.currency);
  return {
    balanceTransactionId: t.balanceTransactionId,
    merchantId: t.merchantId,
    currency: t.currency,
    type: t.type,
    amount: wire(t.amount),
    fee: wire(t.fee),
    financingFee: wire(t.financingFee),
    net: wire(t.net),
    // Available once its time came — or at once when it was written available (its figure's rule).
    status: t.availableOn <= t.createdAt ? 'AVAILABLE' : balanceTransactionStatus(t, now),
    availableOn: t.availableOn.toISOString(),
    sourceId: t.sourceId,
    payoutId: t.payoutId,
    description: t.description,
    createdAt: t.createdAt.toISOString(),
  };
}

/** The CSV columns of a balance transaction list: its JSON fields. */
export const BALANCE_TRANSACTION_COLUMNS = [
  'balanceTransactionId',
  'merchantId',
  'currency',
  'type',
  'amount',
  'fee',
  'financingFee',
  'net',
  'status',
  'availableOn',
  'sourceId',
  'payoutId',
  'description',
  'createdAt',
] as const satisfies readonly (keyof BalanceTransactionResponse)[];

export function balanceTransactionCsvRow(t: BalanceTransaction): unknown[] {
  const presented = presentBalanceTransaction(t);
  return BALANCE_TRANSACTION_COLUMNS.map((column) => presented[column]);
}

export function presentBalance(balance: Balance): CurrencyBalanceResponse {
  const wire = (minor: number) => wireAmount(minor, balance.currency);
  return {
    currency: balance.currency,
    pending: wire(balance.pending),
    available: wire(balance.available),
    inTransit: wire(balance.inTransit),
    upcoming: balance.upcoming.map((u) => ({ availableOn: u.availableOn.toISOString(), amount: wire(u.amount) })),
  };
}
