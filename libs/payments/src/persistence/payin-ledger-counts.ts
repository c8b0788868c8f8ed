import { scopeCondition } from '@pcs/database';
import { Currency, currencyExponent, TenantScope } from '@pcs/kernel';
import { EntityManager } from 'typeorm';
import type { LedgerFilters, PayinSummaryRows } from '../ledger/payin-ledger.queries';
import { applyLedgerFilters, boundInMinorUnits, DAY_MS, untilExclusive } from './payin-ledger-filters';
import { PayinOrmEntity } from './payin.orm-entity';

/**
 * The ledger's counts and summaries: the exact total that rides along with a
 * page of operation 36 (from the day and amount-bucket counters where they
 * answer, row by row where a bound cuts one), and the overview's figures.
 */

/**
 * The bucket of payin_amount_count an amount (minor units) is counted in:
 * its first two significant digits (amounts under 100 each their own), as
 * SQL's pcs_amount_bucket computes it.
 */
export function amountBucket(amount: bigint): bigint {
  if (amount < 100n) return amount;
  const width = 10n ** BigInt(amount.toString().length - 2);
  return amount - (amount % width);
}

/** The first amount after the bucket that starts at `bucket`. */
export function nextBucket(bucket: bigint): bigint {
  return bucket < 100n ? bucket + 1n : bucket + 10n ** BigInt(bucket.toString().length - 2);
}

/**
 * An amount range [from, through] (minor units; either end open) as the
 * buckets wholly inside it, [fullFrom, fullBefore), and the amounts at its
 * edges that share a bucket with amounts outside it, to be counted as rows.
 */
export function splitByAmountBuckets(
  from: bigint | undefined,
  through: bigint | undefined,
): { full: { from?: bigint; before?: bigint } | null; edges: { from?: bigint; before?: bigint; through?: bigint }[] } {
  const fullFrom = from === undefined ? undefined : amountBucket(from) === from ? from : nextBucket(amountBucket(from));
  const fullBefore = through === undefined ? undefined : amountBucket(through + 1n);
  if (fullFrom !== undefined && fullBefore !== undefined && fullFrom >= fullBefore) return { full: null, edges: [{ from, through }] };
  const edges: { from?: bigint; before?: bigint; through?: bigint }[] = [];
  if (from !== undefined && fullFrom !== undefined && from < fullFrom) edges.push({ from, before: fullFrom });
  if (through !== undefined && fullBefore !== undefined && fullBefore <= through) edges.push({ from: fullBefore, through });
  return { full: { from: fullFrom, before: fullBefore }, edges };
}

interface Slice {
  from?: Date;
  before?: Date;
  until?: Date;
}

/**
 * A created_at range as whole UTC days [from, until) (either end open) plus
 * the slices of partly covered days at its edges, to be counted row by row.
 * A range within one day is one slice.
 */
function splitByUtcDays(
  from: Date | undefined,
  untilExclusiveBound: Date | null,
  untilInclusive: Date | undefined,
): { fullDays: { from?: string; until?: string } | null; slices: Slice[] } {
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  const firstFull = from === undefined ? undefined : Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  const endFull =
    untilExclusiveBound !== null
      ? untilExclusiveBound.getTime()
      : untilInclusive === undefined
        ? undefined
        : Math.floor(untilInclusive.getTime() / DAY_MS) * DAY_MS;
  if (firstFull !== undefined && endFull !== undefined && firstFull >= endFull) {
    // No whole day inside: the range itself, row by row.
    return { fullDays: null, slices: [{ from, ...(untilExclusiveBound ? { before: untilExclusiveBound } : { until: untilInclusive }) }] };
  }
  const slices: Slice[] = [];
  if (from !== undefined && firstFull !== from.getTime()) slices.push({ from, before: new Date(firstFull!) });
  if (untilExclusiveBound === null && untilInclusive !== undefined) slices.push({ from: new Date(endFull!), until: untilInclusive });
  return {
    fullDays: { from: firstFull === undefined ? undefined : day(firstFull), until: endFull === undefined ? undefined : day(endFull) },
    slices,
  };
}

/** The ledger's exact count as one SQL expression (see PayinLedgerQueries.count) with named parameters (prefixed `total_`, or the filters' own for a row count). */
export function ledgerTotal(
  manager: EntityManager,
  scope: TenantScope,
  f: LedgerFilters,
): { sql: string; parameters: Record<string, unknown> } {
  const amountBounded = f.minAmount !== undefined || f.maxAmount !== undefined;
  if (amountBounded && f.currency && !f.paymentIntentId && !f.dateFrom && !f.dateUntil) return amountTotal(scope, f, f.currency);
  if (amountBounded || f.paymentIntentId) {
    // The same alias as the page's: inside the subquery, p is the subquery's own row.
    const rows = manager.createQueryBuilder(PayinOrmEntity, 'p').select('count(*)');
    applyLedgerFilters(rows, scope, f);
    return { sql: rows.getQuery(), parameters: rows.getParameters() };
  }
  const parameters: Record<string, unknown> = { total_business: scope.businessId };
  const param = (value: unknown, cast?: string) => {
    const name = `total_${Object.keys(parameters).length}`;
    parameters[name] = value;
    return cast ? `CAST(:${name} AS ${cast})` : `:${name}`;
  };
  const tenant = ['business_id = :total_business'];
  if (scope.merchantId) tenant.push(`merchant_id = ${param(scope.merchantId)}`);
  if (f.status) tenant.push(`status = ${param(f.status)}`);
  if (f.currency) tenant.push(`currency = ${param(f.currency)}`);
  const { fullDays, slices } = splitByUtcDays(f.dateFrom, untilExclusive(f.dateUntil), f.dateUntil);
  const parts: string[] = [];
  if (fullDays) {
    const days = [...tenant];
    if (fullDays.from) days.push(`day >= ${param(fullDays.from, 'date')}`);
    if (fullDays.until) days.push(`day < ${param(fullDays.until, 'date')}`);
    parts.push(`(SELECT COALESCE(sum(n), 0) FROM payin_daily_count WHERE ${days.join(' AND ')})`);
  }
  for (const slice of slices) {
    const rows = [...tenant];
    if (slice.from) rows.push(`created_at >= ${param(slice.from)}`);
    if (slice.before) rows.push(`created_at < ${param(slice.before)}`);
    if (slice.until) rows.push(`created_at <= ${param(slice.until)}`);
    parts.push(`(SELECT count(*) FROM payin WHERE ${rows.join(' AND ')})`);
  }
  return { sql: `(${parts.join(' + ')})::bigint`, parameters };
}

/**
 * The total over an amount range in one currency without date bounds: the
 * buckets of payin_amount_count wholly inside the range, plus the rows of
 * the (at most two) buckets its ends cut, counted on the currency-amount
 * index. Exact, as the counters change in the transactions of the rows.
 */
function amountTotal(scope: TenantScope, f: LedgerFilters, currency: Currency): { sql: string; parameters: Record<string, unknown> } {
  const exponent = currencyExponent(currency);
  const from = f.minAmount === undefined ? undefined : BigInt(boundInMinorUnits(f.minAmount, exponent, 'up'));
  const through = f.maxAmount === undefined ? undefined : BigInt(boundInMinorUnits(f.maxAmount, exponent, 'down'));
  const parameters: Record<string, unknown> = { total_business: scope.businessId };
  const param = (value: unknown, cast?: string) => {
    const name = `total_${Object.keys(parameters).length}`;
    parameters[name] = typeof value === 'bigint' ? value.toString() : value;
    return cast ? `CAST(:${name} AS ${cast})` : `:${name}`;
  };
  const tenant = ['business_id = :total_business', `currency = ${param(currency)}`];
  if (scope.merchantId) tenant.push(`merchant_id = ${param(scope.merchantId)}`);
  if (f.status) tenant.push(`status = ${param(f.status)}`);
  const { full, edges } = splitByAmountBuckets(from, through);
  const parts: string[] = [];
  if (full) {
    const buckets = [...tenant];
    if (full.from !== undefined) buckets.push(`bucket >= ${param(full.from, 'bigint')}`);
    if (full.before !== undefined) buckets.push(`bucket < ${param(full.before, 'bigint')}`);
    parts.push(`(SELECT COALESCE(sum(n), 0) FROM payin_amount_count WHERE ${buckets.join(' AND ')})`);
  }
  for (const edge of edges) {
    const rows = [...tenant];
    if (edge.from !== undefined) rows.push(`amount >= ${param(edge.from, 'bigint')}`);
    if (edge.before !== undefined) rows.push(`amount < ${param(edge.before, 'bigint')}`);
    if (edge.through !== undefined) rows.push(`amount <= ${param(edge.through, 'bigint')}`);
    parts.push(`(SELECT count(*) FROM payin WHERE ${rows.join(' AND ')})`);
  }
  return { sql: `(${parts.join(' + ')})::bigint`, parameters };
}

/**
 * The overview's figures, computed by PostgreSQL in one statement per
 * grouping (served by the business/merchant date indexes): bigint sums of
 * minor units, never floats.
 */
export async function ledgerSummary(manager: EntityManager, scope: TenantScope, from: Date, until: Date): Promise<PayinSummaryRows> {
  const values: unknown[] = [from, until];
  const where = `p.created_at >= $1 AND p.created_at < $2 AND ${scopeCondition(scope, 'p', values)}`;
  const figures = `coalesce(sum(p.amount) FILTER (WHERE p.status = 'APPROVED'), 0)::bigint AS collected,
                     count(*) FILTER (WHERE p.status = 'APPROVED')::int AS approved,
                     count(*) FILTER (WHERE p.status = 'REJECTED')::int AS rejected`;
  type Figures = { currency: Currency; collected: string; approved: number; rejected: number };
  const [days, methods, refunds] = await Promise.all([
    manager.query<(Figures & { day: string })[]>(
      `SELECT to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, p.currency, ${figures}
           FROM payin p WHERE ${where} AND p.transaction_type = 'PAYIN' GROUP BY 1, 2 ORDER BY 1, 2`,
      values,
    ),
    manager.query<(Figures & { name: string | null })[]>(
      `SELECT m.name, p.currency, ${figures}
           FROM payin p LEFT JOIN country_processor cp ON cp.country_processor_id = p.country_processor_id
           LEFT JOIN payment_method m ON m.payment_method_id = cp.payment_method_id
          WHERE ${where} AND p.transaction_type = 'PAYIN' GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2`,
      values,
    ),
    manager.query<{ currency: Currency; refunded: string }[]>(
      `SELECT p.currency, coalesce(sum(p.amount), 0)::bigint AS refunded FROM payin p
          WHERE ${where} AND p.transaction_type = 'REFUND' AND p.status IN ('APPROVED', 'PENDING', 'SCHEDULED') GROUP BY 1 ORDER BY 1`,
      values,
    ),
  ]);
  const numbers = (row: Figures) => ({
    currency: row.currency,
    collected: Number(row.collected),
    approved: row.approved,
    rejected: row.rejected,
  });
  return {
    days: days.map((row) => ({ day: row.day, ...numbers(row) })),
    paymentMethods: methods.map((row) => ({ paymentMethodName: row.name ?? 'OTHER', ...numbers(row) })),
    refunds: refunds.map((row) => ({ currency: row.currency, refunded: Number(row.refunded) })),
  };
}
