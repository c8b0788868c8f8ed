import { Injectable } from '@nestjs/common';
import { EntityColumns, JoinedRead } from '@pcs/database';
import { EventRecorder, NewEvent, rowFound, runChange, Statement, writtenIfRequired } from '@pcs/events';
import {
  Caller,
  CURRENCIES,
  Currency,
  currencyExponent,
  decimalToScaledInteger,
  isMerchantCaller,
  MerchantId,
  OrderBy,
  Page,
  pageOffset,
  PageRequest,
  PaymentIntentId,
  SortBy,
} from '@pcs/kernel';
import { EntityManager, LessThan, MoreThan, SelectQueryBuilder } from 'typeorm';
import { Payin, PayinState } from '../domain/payin';
import { payinRepresentation } from '../payin.representation';
import { PayinFilters, PayinRepository, PayinSummaryRows, RefundRecords } from '../payin.repository';
import { payinFromRow, payinToRow } from './payin.mapper';
import { PayinOrmEntity } from './payin.orm-entity';

// Amount in major units, exact: minor units over the power of ten of the currency's exponent (the kernel's, not a list of our own).
const MAJOR_AMOUNT = `(p.amount::numeric / CASE p.currency ${CURRENCIES.map((c) => `WHEN '${c}' THEN ${10 ** currencyExponent(c)}`).join(' ')} END)`;

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

const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/**
 * An inclusive upper bound that is the last millisecond of a UTC day (what a
 * date-only dateUntil means) as the next midnight, exclusive: the whole day,
 * microseconds included, exactly as the day's counter counts it. Null for any
 * other bound.
 */
function untilExclusive(until: Date | undefined): Date | null {
  if (!until || (until.getTime() + 1) % DAY_MS !== 0) return null;
  return new Date(until.getTime() + 1);
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

@Injectable()
export class TypeOrmPayinRepository extends PayinRepository {
  constructor(private readonly events: EventRecorder) {
    super();
  }

  async insert(manager: EntityManager, payin: Payin): Promise<void> {
    const [sql, values] = this.insertQuery(manager, payin);
    await this.write(manager, payin, sql, values);
  }

  insertStatement(manager: EntityManager, payin: Payin): { statement: Statement; events: NewEvent[] } {
    const [sql, values] = this.insertQuery(manager, payin);
    return { statement: { sql: `${sql} RETURNING transaction_id`, values }, events: this.eventsOf(payin) };
  }

  /** The payin's row as it now is: a plain UPDATE (the payin was read in this transaction). */
  async save(manager: EntityManager, payin: Payin): Promise<void> {
    const [sql, values] = this.updateQuery(manager, payin);
    await this.write(manager, payin, sql, values, rowFound('payin'));
  }

  async saveIfStill(manager: EntityManager, payin: Payin, as: PayinState): Promise<boolean> {
    const [sql, values] = this.updateQuery(manager, payin, as);
    return writtenIfRequired(
      this.write(manager, payin, sql, values, { sql: 'EXISTS (SELECT 1 FROM change)', reason: 'the payin is as it was read' }),
    );
  }

  refundRecords(manager: EntityManager, paymentIntentId: PaymentIntentId, operationId: string | null): JoinedRead<RefundRecords> {
    const columns = new EntityColumns(manager, PayinOrmEntity, 'payin_');
    const list = columns.select('p');
    // Served by payin_intent_approved_charge_idx, payin_intent_open_refund_idx and the primary key.
    const sql = `(SELECT 'charge' AS payin_role, ${list} FROM payin p
                   WHERE p.payment_intent_id = $1 AND p.transaction_type = 'PAYIN' AND p.status = 'APPROVED'
                   ORDER BY p.created_at DESC LIMIT 1)
                 UNION ALL
                 SELECT 'open', ${list} FROM payin p
                  WHERE p.payment_intent_id = $1 AND p.transaction_type = 'REFUND' AND p.status IN ('PENDING', 'SCHEDULED')
                 UNION ALL
                 SELECT 'operation', ${list} FROM payin p
                  WHERE p.transaction_id = $2 OR (p.payment_intent_id = $1 AND p.confirmed_by_operation = $2)`;
    return {
      sql,
      values: [paymentIntentId, operationId],
      read: (rows) => {
        const of = (role: string) =>
          rows
            .filter((row) => row.payin_role === role)
            .flatMap((row) => {
              const entity = columns.from(row);
              return entity ? [payinFromRow(entity)] : [];
            });
        return {
          charge: of('charge')[0] ?? null,
          open: of('open').sort((a, b) => a.snapshot().createdAt.getTime() - b.snapshot().createdAt.getTime()),
          byOperation: of('operation')[0] ?? null,
        };
      },
    };
  }

  async reconciliationRecords(
    manager: EntityManager,
    merchantId: MerchantId,
    gateway: string,
    references: readonly string[],
    from: Date,
    to: Date,
  ): Promise<Payin[]> {
    const ids = references.filter((r) => UUID.test(r));
    // The approved collections at the gateway released in the window or named by the report…
    const charges = await manager
      .createQueryBuilder(PayinOrmEntity, 'p')
      .where(`p.merchant_id = :merchantId AND p.gateway = :gateway AND p.transaction_type = 'PAYIN' AND p.status = 'APPROVED'`, {
        merchantId,
        gateway,
      })
      .andWhere(`((p.liquidation_date >= :from AND p.liquidation_date < :to) OR p.transaction_id = ANY(:ids::uuid[]))`, { from, to, ids })
      .orderBy('p.created_at', 'ASC')
      .getMany();
    // …and the approved refunds that went back through that gateway (a refund row names no gateway: its intent's collection does),
    // those of these collections, and those approved in the window.
    const refunds = await manager
      .createQueryBuilder(PayinOrmEntity, 'r')
      .where(`r.merchant_id = :merchantId AND r.transaction_type = 'REFUND' AND r.status = 'APPROVED'`, { merchantId })
      .andWhere(
        `r.payment_intent_id IN (SELECT c.payment_intent_id FROM payin c
                                  WHERE c.merchant_id = :merchantId AND c.gateway = :gateway AND c.transaction_type = 'PAYIN' AND c.status = 'APPROVED')`,
        { gateway },
      )
      .andWhere(`((r.liquidation_date >= :from AND r.liquidation_date < :to) OR r.payment_intent_id = ANY(:intents::uuid[]))`, {
        from,
        to,
        intents: charges.map((c) => c.paymentIntentId),
      })
      .orderBy('r.created_at', 'ASC')
      .getMany();
    return [...charges, ...refunds].map(payinFromRow);
  }

  private insertQuery(manager: EntityManager, payin: Payin): [string, unknown[]] {
    return manager.createQueryBuilder().insert().into(PayinOrmEntity).values(payinToRow(payin)).getQueryAndParameters();
  }

  /** UPDATE … RETURNING of the whole row; with `as`, only while the row is still in that state. */
  private updateQuery(manager: EntityManager, payin: Payin, as?: PayinState): [string, unknown[]] {
    const { transactionId, ...row } = payinToRow(payin);
    const query = manager.createQueryBuilder().update(PayinOrmEntity).set(row).where('transaction_id = :transactionId', { transactionId });
    if (as)
      query.andWhere('status = :readStatus AND manual_refund_status IS NOT DISTINCT FROM :readManualStatus', {
        readStatus: as.status,
        readManualStatus: as.manualRefundStatus,
      });
    return query.returning('transaction_id').getQueryAndParameters();
  }

  /** The change and a refund's events (contract §14, numbered in its payment intent's sequence), in one statement. */
  private async write(
    manager: EntityManager,
    payin: Payin,
    sql: string,
    values: unknown[],
    requires?: { sql: string; reason: string },
  ): Promise<void> {
    const events = this.eventsOf(payin);
    if (events.length === 0) return runChange(manager, sql, values, requires);
    await this.events.recordAll(manager, events, { sql, values, requires });
  }

  /** A refund's events not yet recorded. */
  private eventsOf(payin: Payin): NewEvent[] {
    const types = payin.pullRefundEvents();
    if (types.length === 0) return [];
    const p = payin.snapshot();
    const object = payinRepresentation(p);
    return types.map((type) => ({
      type,
      businessId: p.businessId,
      merchantId: p.merchantId,
      subjectId: p.paymentIntentId,
      object,
      at: p.updatedAt,
    }));
  }

  async get(manager: EntityManager, transactionId: string, lock = false): Promise<Payin | null> {
    const row = await manager.findOne(PayinOrmEntity, {
      where: { transactionId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? payinFromRow(row) : null;
  }

  async findByExternalId(manager: EntityManager, gateway: string, externalId: string): Promise<Payin | null> {
    const row = await manager.findOne(PayinOrmEntity, { where: { gateway, externalId } });
    return row ? payinFromRow(row) : null;
  }

  async openAttempts(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin[]> {
    const rows = await manager
      .createQueryBuilder(PayinOrmEntity, 'p')
      .setLock('pessimistic_write')
      .where(`p.payment_intent_id = :paymentIntentId AND p.transaction_type = 'PAYIN' AND p.status IN ('PENDING', 'SCHEDULED')`, {
        paymentIntentId,
      })
      .getMany();
    return rows.map(payinFromRow);
  }

  async openOffSessionCharge(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    const row = await manager.findOne(PayinOrmEntity, {
      where: { paymentIntentId, transactionType: 'PAYIN', paymentIntentInitiator: 'MERCHANT', status: 'PENDING' },
      order: { createdAt: 'DESC' },
    });
    return row ? payinFromRow(row) : null;
  }

  async openCheckout(manager: EntityManager, paymentIntentId: PaymentIntentId, now: Date): Promise<Payin | null> {
    const row = await manager.findOne(PayinOrmEntity, {
      where: {
        paymentIntentId,
        transactionType: 'PAYIN',
        paymentIntentInitiator: 'PAYER',
        status: 'PENDING',
        sessionExpiresAt: MoreThan(now),
      },
      order: { createdAt: 'DESC' },
    });
    return row ? payinFromRow(row) : null;
  }

  async latestApprovedCharge(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    const row = await manager.findOne(PayinOrmEntity, {
      where: { paymentIntentId, transactionType: 'PAYIN', status: 'APPROVED' },
      order: { createdAt: 'DESC' },
    });
    return row ? payinFromRow(row) : null;
  }

  async latestCharge(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    // Served by payin_intent_idx (payment_intent_id, created_at).
    const row = await manager.findOne(PayinOrmEntity, {
      where: { paymentIntentId, transactionType: 'PAYIN' },
      order: { createdAt: 'DESC' },
    });
    return row ? payinFromRow(row) : null;
  }

  async dueForReconciliation(manager: EntityManager, now: Date, limit: number): Promise<Payin[]> {
    // Served by payin_reconcile_idx (partial: open payins with a reconciliation time).
    const rows = await manager
      .createQueryBuilder(PayinOrmEntity, 'p')
      .where(`p.status IN ('PENDING', 'SCHEDULED') AND p.reconcile_at IS NOT NULL AND p.reconcile_at <= :now`, { now })
      .orderBy('p.reconcile_at')
      .limit(limit)
      .getMany();
    return rows.map(payinFromRow);
  }

  async expiredSessions(manager: EntityManager, now: Date, limit: number): Promise<Payin[]> {
    // Served by payin_open_sessions_idx.
    const rows = await manager.find(PayinOrmEntity, {
      where: { status: 'PENDING', sessionExpiresAt: LessThan(now) },
      order: { sessionExpiresAt: 'ASC' },
      take: limit,
    });
    return rows.map(payinFromRow);
  }

  /**
   * The overview's figures, computed by PostgreSQL in one statement per
   * grouping (served by the business/merchant date indexes): bigint sums of
   * minor units, never floats.
   */
  async summary(
    manager: EntityManager,
    caller: Caller,
    merchantId: MerchantId | undefined,
    from: Date,
    until: Date,
  ): Promise<PayinSummaryRows> {
    const scope = isMerchantCaller(caller) ? caller.merchantId : merchantId;
    if (isMerchantCaller(caller) && merchantId && merchantId !== caller.merchantId) return { days: [], paymentMethods: [], refunds: [] };
    const where = `p.business_id = $1 AND p.created_at >= $2 AND p.created_at < $3 ${scope ? 'AND p.merchant_id = $4' : ''}`;
    const values = scope ? [caller.businessId, from, until, scope] : [caller.businessId, from, until];
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

  /** Operation 36. */
  async list(manager: EntityManager, caller: Caller, filters: PayinFilters, page: PageRequest): Promise<Page<Payin>> {
    const query = manager.createQueryBuilder(PayinOrmEntity, 'p');
    this.applyFilters(query, caller, filters);
    const direction = filters.order ?? OrderBy.DESC;
    if (filters.sort === SortBy.AMOUNT) {
      if (filters.currency) query.orderBy('p.amount', direction);
      else query.orderBy(MAJOR_AMOUNT, direction);
    } else if (filters.sort === SortBy.STATUS) {
      query.orderBy('p.status', direction);
    }
    query
      .addOrderBy('p.created_at', filters.sort === undefined || filters.sort === SortBy.DATE ? direction : 'DESC')
      .addOrderBy('p.transaction_id', 'ASC');
    // The total rides along with the page: one round trip (a page past the end counts on its own).
    const total = this.totalExpression(manager, caller, filters);
    query.addSelect(`(${total.sql})`, 'ledger_total').setParameters(total.parameters);
    const { entities, raw } = await query.offset(pageOffset(page)).limit(page.limit).getRawAndEntities<{ ledger_total: string }>();
    const counted = raw.length > 0 ? Number(raw[0].ledger_total) : await this.count(manager, caller, filters);
    return { items: entities.map(payinFromRow), page: page.page, limit: page.limit, total: counted };
  }

  /**
   * The exact number of payins the filters select. Without amount bounds,
   * whole UTC days come from payin_daily_count (kept by triggers with every
   * payin write) and only the part of a day a date-time bound cuts is counted
   * row by row; amount bounds in one currency without dates sum whole amount
   * buckets of payin_amount_count and count the two cut ones; other amount
   * bounds (no currency, or with dates) and one payment's rows count the
   * rows (served by the currency-amount and date indexes). One statement: one
   * snapshot.
   */
  async count(manager: EntityManager, caller: Caller, f: PayinFilters): Promise<number> {
    const { sql, parameters } = this.totalExpression(manager, caller, f);
    const [query, values] = manager.connection.driver.escapeQueryWithParameters(`SELECT (${sql}) AS total`, parameters, {});
    const [{ total }] = await manager.query<{ total: string }[]>(query, values);
    return Number(total);
  }

  /** The count as one SQL expression with named parameters (prefixed `total_`, or the filters' own for a row count). */
  private totalExpression(manager: EntityManager, caller: Caller, f: PayinFilters): { sql: string; parameters: Record<string, unknown> } {
    const amountBounded = f.minAmount !== undefined || f.maxAmount !== undefined;
    if (amountBounded && f.currency && !f.paymentIntentId && !f.dateFrom && !f.dateUntil) return this.amountTotal(caller, f, f.currency);
    if (amountBounded || f.paymentIntentId) {
      // The same alias as the page's: inside the subquery, p is the subquery's own row.
      const rows = manager.createQueryBuilder(PayinOrmEntity, 'p').select('count(*)');
      this.applyFilters(rows, caller, f);
      return { sql: rows.getQuery(), parameters: rows.getParameters() };
    }
    const merchantId = isMerchantCaller(caller) ? caller.merchantId : f.merchantId;
    if (isMerchantCaller(caller) && f.merchantId && f.merchantId !== caller.merchantId) return { sql: '0::bigint', parameters: {} };
    const parameters: Record<string, unknown> = { total_business: caller.businessId };
    const param = (value: unknown, cast?: string) => {
      const name = `total_${Object.keys(parameters).length}`;
      parameters[name] = value;
      return cast ? `CAST(:${name} AS ${cast})` : `:${name}`;
    };
    const tenant = ['business_id = :total_business'];
    if (merchantId) tenant.push(`merchant_id = ${param(merchantId)}`);
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
  private amountTotal(caller: Caller, f: PayinFilters, currency: Currency): { sql: string; parameters: Record<string, unknown> } {
    const merchantId = isMerchantCaller(caller) ? caller.merchantId : f.merchantId;
    if (isMerchantCaller(caller) && f.merchantId && f.merchantId !== caller.merchantId) return { sql: '0::bigint', parameters: {} };
    const exponent = currencyExponent(currency);
    const from = f.minAmount === undefined ? undefined : BigInt(boundInMinorUnits(f.minAmount, exponent, 'up'));
    const through = f.maxAmount === undefined ? undefined : BigInt(boundInMinorUnits(f.maxAmount, exponent, 'down'));
    const parameters: Record<string, unknown> = { total_business: caller.businessId };
    const param = (value: unknown, cast?: string) => {
      const name = `total_${Object.keys(parameters).length}`;
      parameters[name] = typeof value === 'bigint' ? value.toString() : value;
      return cast ? `CAST(:${name} AS ${cast})` : `:${name}`;
    };
    const tenant = ['business_id = :total_business', `currency = ${param(currency)}`];
    if (merchantId) tenant.push(`merchant_id = ${param(merchantId)}`);
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

  private applyFilters(query: SelectQueryBuilder<PayinOrmEntity>, caller: Caller, f: PayinFilters): void {
    const merchantId = isMerchantCaller(caller) ? caller.merchantId : f.merchantId;
    if (merchantId)
      query.where('p.merchant_id = :merchantId AND p.business_id = :businessId', { merchantId, businessId: caller.businessId });
    else query.where('p.business_id = :businessId', { businessId: caller.businessId });
    if (isMerchantCaller(caller) && f.merchantId && f.merchantId !== caller.merchantId) query.andWhere('false');
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
}
