import { scopeNamedCondition } from '@pcs/database';
import { CURRENCIES, currencyExponent, decimalToScaledInteger, TenantScope } from '@pcs/kernel';
import { SelectQueryBuilder } from 'typeorm';
import type { LedgerFilters } from '../ledger/payin-ledger.queries';
import { PayinOrmEntity } from './payin.orm-entity';

// Amount in major units, exact: minor units over the power of ten of the currency's exponent (the kernel's, not a list of our own).
export const MAJOR_AMOUNT = `(p.amount::numeric / CASE p.currency ${CURRENCIES.map((c) => `WHEN '${c}' THEN ${10 ** currencyExponent(c)}`).join(' ')} END)`;

/**
 * A wire bound (major units) in minor units, rounded towards the inside of
 * the range when it has more decimals than the currency: 10.5 CLP as a lower
 * bound is 11, as an upper bound 10. Integer arithmetic only.
 */
export function boundInMinorUnits(value: number, exponent: number, round: 'up' | 'down'): number {
  const exact = decimalToScaledInteger(value, exponent);
  if (exact !== null) return exact;
  const extra = 9;
  const fine = decimalToScaledInteger(value, exponent + extra);
  if (fine === null) return round === 'up' ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  const unit = 10 ** extra;
  const floor = Math.floor(fine / unit);
  return round === 'up' ? floor + 1 : floor;
}

export const DAY_MS = 86_400_000;

/**
 * An inclusive upper bound that is the last millisecond of a UTC day (what a
 * date-only dateUntil means) as the next midnight, exclusive: the whole day,
 * microseconds included, exactly as the day's counter counts it. Null for any
 * other bound.
 */
export function untilExclusive(until: Date | undefined): Date | null {
  if (!until || (until.getTime() + 1) % DAY_MS !== 0) return null;
  return new Date(until.getTime() + 1);
}

/** The ledger's filters within a scope on a query over payin `p` (the page's, and the counts' row by row). */
export function applyLedgerFilters(query: SelectQueryBuilder<PayinOrmEntity>, scope: TenantScope, f: LedgerFilters): void {
  const inScope = scopeNamedCondition(scope, 'p');
  query.where(inScope.sql, inScope.parameters);
  if (f.status) query.andWhere('p.status = :status', { status: f.status });
  if (f.currency) query.andWhere('p.currency = :currency', { currency: f.currency });
  if (f.paymentIntentId) query.andWhere('p.payment_intent_id = :paymentIntentId', { paymentIntentId: f.paymentIntentId });
  if (f.dateFrom) query.andWhere('p.created_at >= :dateFrom', { dateFrom: f.dateFrom });
  const until = untilExclusive(f.dateUntil);
  if (until) query.andWhere('p.created_at < :dateUntil', { dateUntil: until });
  else if (f.dateUntil) query.andWhere('p.created_at <= :dateUntil', { dateUntil: f.dateUntil });
  for (const [bound, value, operator] of [
    ['minAmount', f.minAmount, '>='],
    ['maxAmount', f.maxAmount, '<='],
  ] as const) {
    if (value === undefined) continue;
    if (f.currency) {
      // Exact: the bound in the currency's minor units, compared on the indexed column.
      query.andWhere(`p.amount ${operator} :${bound}`, {
        [bound]: boundInMinorUnits(value, currencyExponent(f.currency), operator === '>=' ? 'up' : 'down'),
      });
    } else {
      query.andWhere(`${MAJOR_AMOUNT} ${operator} :${bound}::numeric`, { [bound]: String(value) });
    }
  }
}
