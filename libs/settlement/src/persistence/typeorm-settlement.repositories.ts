/**
 * The settlement context's repositories in PostgreSQL (prices, settlement
 * accounts, balance transactions and balances, payouts). Kept in one file
 * because they share the balance figures' SQL: every writer of a balance
 * transaction moves the maintained balance in the same statement, and the
 * reader of one is checked against the writer of the other.
 */
import { Injectable } from '@nestjs/common';
import { afterCommit, ChangeFeed, InvalidatedCache, managerOf, queryPrepared, transactionOf } from '@pcs/database';
import { asMerchantId, Currency, MerchantId, Page, pageOffset, PageRequest, TenantScope, Transaction } from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { EntityManager, In } from 'typeorm';
import type { BalanceTransaction, BalanceTransactionType } from '../domain/balance-transaction';
import type { Payout } from '../domain/payout';
import type { Bank, SettlementAccount } from '../domain/settlement-account';
import {
  BalanceClaim,
  BalanceFigures,
  DebtorAccount,
  BalanceRepository,
  BalanceTransactionFilters,
  NewBalanceTransaction,
  NewSettlementAccount,
  PaymentMovement,
  PayoutBatchRecord,
  PayoutBatchRepository,
  PayoutFilters,
  PayoutRepository,
  PricingRepository,
  SettlementAccountRepository,
  StoredPrice,
} from '../settlement.repository';
import { BalanceTransactionOrmEntity } from './balance-transaction.orm-entity';
import { BankOrmEntity } from './bank.orm-entity';
import { MerchantPricingOrmEntity } from './merchant-pricing.orm-entity';
import { PayoutOrmEntity } from './payout.orm-entity';
import { SettlementAccountOrmEntity } from './settlement-account.orm-entity';
import { balanceTransactionFromRow, bankFromRow, payoutFromRow, payoutToRow, settlementAccountFromRow } from './settlement.mapper';

/**
 * Merchants' own prices. Read at every approval, so each process keeps them
 * in memory per merchant, forgotten when the change feed (a trigger on
 * merchant_pricing) or this process's own commit says they changed.
 */
@Injectable()
export class TypeOrmPricingRepository extends PricingRepository {
  private readonly cache: InvalidatedCache<Map<string, StoredPrice>>;

  constructor(changes: ChangeFeed) {
    super();
    this.cache = new InvalidatedCache(changes, 'merchant-pricing', { maxEntries: 10_000, ttlMs: 10 * 60_000 });
  }

  async pricesOf(tx: Transaction, merchantId: MerchantId): Promise<Map<string, StoredPrice>> {
    const manager = managerOf(tx);
    const prices = await this.cache.get(
      merchantId,
      async () => {
        const rows = await manager.find(MerchantPricingOrmEntity, { where: { merchantId } });
        return new Map(
          rows.map((row) => [
            row.countryProcessorId,
            { percentageBp: row.feeBp, fixed: row.feeFixed, settlementDelayDays: row.settlementDelayDays },
          ]),
        );
      },
      // Kept even when read inside a transaction (an approval's), unless that transaction wrote prices itself.
      !(manager.queryRunner?.data as PricingWrites | undefined)?.wrotePricing,
    );
    return prices ?? new Map();
  }

  async put(tx: Transaction, merchantId: MerchantId, countryProcessorId: string, price: StoredPrice, now: Date): Promise<void> {
    const manager = managerOf(tx);
    await manager.upsert(
      MerchantPricingOrmEntity,
      {
        merchantId,
        countryProcessorId,
        feeBp: price.percentageBp,
        feeFixed: { ...price.fixed } as Record<string, number>,
        settlementDelayDays: price.settlementDelayDays,
        updatedAt: now,
      },
      ['merchantId', 'countryProcessorId'],
    );
    if (manager.queryRunner) (manager.queryRunner.data as PricingWrites).wrotePricing = true;
    afterCommit(manager, () => this.cache.invalidate(merchantId));
  }

  async disputeFee(tx: Transaction, processor: string, currency: Currency): Promise<number> {
    const manager = managerOf(tx);
    const [row] = await manager.query<{ amount: string }[]>(`SELECT amount FROM dispute_fee WHERE processor = $1 AND currency = $2`, [
      processor,
      currency,
    ]);
    return row ? Number(row.amount) : 0;
  }

  async putDisputeFee(tx: Transaction, processor: string, currency: Currency, amount: number, now: Date): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(
      `INSERT INTO dispute_fee (processor, currency, amount, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (processor, currency) DO UPDATE SET amount = EXCLUDED.amount, updated_at = EXCLUDED.updated_at`,
      [processor, currency, amount, now],
    );
  }
}

interface PricingWrites {
  wrotePricing?: boolean;
}

const SETTLEMENT_ACCOUNT_COLUMNS = `settlement_account_id AS "settlementAccountId", business_id AS "businessId", merchant_id AS "merchantId",
  currency, bank_id AS "bankId", account_number AS "accountNumber", account_type AS "accountType", holder_document AS "holderDocument",
  hold_until AS "holdUntil", confirmed_at AS "confirmedAt", confirmed_by AS "confirmedBy",
  to_char(payout_waiting_since, 'YYYY-MM-DD') AS "payoutWaitingSince", returned_payout_id AS "returnedPayoutId", created_at AS "createdAt", updated_at AS "updatedAt"`;

@Injectable()
export class TypeOrmSettlementAccountRepository extends SettlementAccountRepository {
  private catalog?: Promise<Map<string, Bank>>;

  /** The bank catalog changes only through migrations: read once. */
  private async catalogOf(manager: EntityManager): Promise<Map<string, Bank>> {
    this.catalog ??= manager
      .find(BankOrmEntity, { order: { country: 'ASC', code: 'ASC' } })
      .then((rows) => new Map(rows.map((row) => [row.bankId, bankFromRow(row)])));
    return this.catalog.catch((error: unknown) => {
      this.catalog = undefined;
      throw error;
    });
  }

  async banks(tx: Transaction, country?: string): Promise<Bank[]> {
    const manager = managerOf(tx);
    return [...(await this.catalogOf(manager)).values()].filter((bank) => !country || bank.country === country);
  }

  async bank(tx: Transaction, bankId: string): Promise<Bank | null> {
    const manager = managerOf(tx);
    return (await this.catalogOf(manager)).get(bankId) ?? null;
  }

  async put(tx: Transaction, account: NewSettlementAccount, now: Date): Promise<SettlementAccount> {
    const manager = managerOf(tx);
    const [row] = await manager.query<SettlementAccountOrmEntity[]>(
      `INSERT INTO settlement_account AS a (settlement_account_id, business_id, merchant_id, currency, bank_id, account_number, account_type,
                                            holder_document, hold_until, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $10, $9, $9)
       ON CONFLICT (merchant_id, currency) DO UPDATE SET bank_id = EXCLUDED.bank_id, account_number = EXCLUDED.account_number,
         account_type = EXCLUDED.account_type, holder_document = EXCLUDED.holder_document, hold_until = EXCLUDED.hold_until,
         confirmed_at = NULL, confirmed_by = NULL, returned_payout_id = NULL, updated_at = EXCLUDED.updated_at
       RETURNING ${SETTLEMENT_ACCOUNT_COLUMNS}`,
      [
        crypto.randomUUID(),
        account.businessId,
        account.merchantId,
        account.currency,
        account.bankId,
        account.accountNumber,
        account.accountType,
        account.holderDocument,
        now,
        account.holdUntil,
      ],
    );
    return settlementAccountFromRow(row, (await this.bank(transactionOf(manager), row.bankId))!);
  }

  async holdAccounts(tx: Transaction, merchantId: MerchantId): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`settlement-account:${merchantId}`]);
  }

  async confirm(
    tx: Transaction,
    merchantId: MerchantId,
    currency: Currency,
    confirmedBy: string,
    now: Date,
  ): Promise<SettlementAccount | null> {
    const manager = managerOf(tx);
    // An UPDATE … RETURNING answers [rows, count] through TypeORM.
    const [[row]] = await manager.query<[SettlementAccountOrmEntity[], number]>(
      `UPDATE settlement_account SET hold_until = NULL, returned_payout_id = NULL, confirmed_at = $3, confirmed_by = $4, updated_at = $3
        WHERE merchant_id = $1 AND currency = $2
       RETURNING ${SETTLEMENT_ACCOUNT_COLUMNS}`,
      [merchantId, currency, now, confirmedBy],
    );
    return row ? settlementAccountFromRow(row, (await this.bank(transactionOf(manager), row.bankId))!) : null;
  }

  async noteReturned(tx: Transaction, settlementAccountId: string, payoutId: string, now: Date): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(
      `UPDATE settlement_account SET returned_payout_id = $2, confirmed_at = NULL, confirmed_by = NULL, updated_at = $3
        WHERE settlement_account_id = $1`,
      [settlementAccountId, payoutId, now],
    );
  }

  async notePayoutWaiting(tx: Transaction, settlementAccountId: string, since: string | null): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(
      since === null
        ? `UPDATE settlement_account SET payout_waiting_since = NULL WHERE settlement_account_id = $1`
        : `UPDATE settlement_account SET payout_waiting_since = coalesce(payout_waiting_since, $2::date) WHERE settlement_account_id = $1`,
      since === null ? [settlementAccountId] : [settlementAccountId, since],
    );
  }

  async ofMerchants(tx: Transaction, merchantIds: readonly MerchantId[]): Promise<SettlementAccount[]> {
    const manager = managerOf(tx);
    if (merchantIds.length === 0) return [];
    const rows = await manager.find(SettlementAccountOrmEntity, {
      where: { merchantId: In([...merchantIds]) },
      order: { currency: 'ASC' },
    });
    return this.withBanks(manager, rows);
  }

  async find(tx: Transaction, merchantId: MerchantId, currency: Currency): Promise<SettlementAccount | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(SettlementAccountOrmEntity, { where: { merchantId, currency } });
    return row ? (await this.withBanks(manager, [row]))[0] : null;
  }

  async ofCountry(tx: Transaction, country: string): Promise<SettlementAccount[]> {
    const manager = managerOf(tx);
    const banks = (await this.banks(transactionOf(manager), country)).map((bank) => bank.bankId);
    const rows = await manager.find(SettlementAccountOrmEntity, {
      where: { bankId: In(banks) },
      order: { merchantId: 'ASC', currency: 'ASC' },
    });
    return this.withBanks(manager, rows);
  }

  private async withBanks(manager: EntityManager, rows: SettlementAccountOrmEntity[]): Promise<SettlementAccount[]> {
    const catalog = await this.catalogOf(manager);
    return rows.map((row) => settlementAccountFromRow(row, catalog.get(row.bankId)!));
  }
}

const BALANCE_TRANSACTION_COLUMNS = `balance_transaction_id AS "balanceTransactionId", business_id AS "businessId", merchant_id AS "merchantId",
  currency, type, amount, fee, financing_fee AS "financingFee", net, available_on AS "availableOn", source_id AS "sourceId", payout_id AS "payoutId", description,
  created_at AS "createdAt"`;

/** Rows per batch of a CSV answer. */
const BATCH = 1_000;

const minor = (value: string | number | null) => (value === null ? 0 : Number(value));

@Injectable()
export class TypeOrmBalanceRepository extends BalanceRepository {
  async figures(tx: Transaction, merchantId: MerchantId): Promise<BalanceFigures[]> {
    const manager = managerOf(tx);
    // A handful of rows per currency: the always-available figure, and one per day money becomes available.
    const rows = await queryPrepared<{ currency: Currency; available_from: Date; net: string; available: boolean }>(
      manager,
      // Each figure is spread over stripes (migration StripedCounters): summed here.
      `SELECT currency, available_from, sum(net) AS net, available_from <= now() AS available FROM balance_figure WHERE merchant_id = $1
        GROUP BY currency, available_from ORDER BY currency, available_from`,
      [merchantId],
    );
    const byCurrency = new Map<Currency, { pending: number; available: number; upcoming: { availableOn: Date; amount: number }[] }>();
    for (const row of rows) {
      const figure = byCurrency.get(row.currency) ?? { pending: 0, available: 0, upcoming: [] };
      const net = minor(row.net);
      if (row.available) figure.available += net;
      else {
        figure.pending += net;
        if (net !== 0) figure.upcoming.push({ availableOn: row.available_from, amount: net });
      }
      byCurrency.set(row.currency, figure);
    }
    return [...byCurrency].map(([currency, figure]) => ({ currency, ...figure }));
  }

  async claim(
    tx: Transaction,
    payout: { merchantId: MerchantId; currency: Currency; payoutId: string; amount: number | null; minimum: number },
  ): Promise<BalanceClaim> {
    const manager = managerOf(tx);
    // One statement, one snapshot: the figure and the sweep see the same committed transactions. The whole balance sweeps every
    // available transaction no payout holds (over balance_transaction_unswept_idx, whatever their number); an amount, the longest
    // run of the oldest whose running net stays within it.
    const candidates = `SELECT balance_transaction_id, created_at, net FROM balance_transaction
       WHERE merchant_id = $1 AND currency = $2 AND payout_id IS NULL AND available_on <= greatest(created_at, now())
         AND EXISTS (SELECT 1 FROM go)`;
    const sweep =
      payout.amount === null
        ? `swept AS (
             UPDATE balance_transaction SET payout_id = $3
              WHERE balance_transaction_id IN (SELECT balance_transaction_id FROM (${candidates}) c) AND payout_id IS NULL
             RETURNING 1)`
        : `covered AS (
             SELECT balance_transaction_id,
                    bool_and(running <= $4) OVER (ORDER BY created_at, balance_transaction_id ROWS UNBOUNDED PRECEDING) AS within
               FROM (SELECT balance_transaction_id, created_at,
                            sum(net) OVER (ORDER BY created_at, balance_transaction_id ROWS UNBOUNDED PRECEDING) AS running
                       FROM (${candidates}) c) r),
           swept AS (
             UPDATE balance_transaction b SET payout_id = $3 FROM covered
              WHERE b.balance_transaction_id = covered.balance_transaction_id AND covered.within AND b.payout_id IS NULL
             RETURNING 1)`;
    const [row] = await queryPrepared<{ available: string; claimed: boolean; swept: string }>(
      manager,
      `WITH figure AS (
         SELECT coalesce(sum(net), 0)::bigint AS available FROM balance_figure
          WHERE merchant_id = $1 AND currency = $2 AND available_from <= now()),
       go AS (SELECT 1 FROM figure WHERE CASE WHEN $4::bigint IS NULL THEN available >= greatest($5::bigint, 1) ELSE $4 <= available END),
       ${sweep}
       SELECT (SELECT available FROM figure) AS available, EXISTS (SELECT 1 FROM go) AS claimed, (SELECT count(*) FROM swept) AS swept`,
      [payout.merchantId, payout.currency, payout.payoutId, payout.amount, payout.minimum],
    );
    return { available: minor(row.available), claimed: row.claimed, swept: Number(row.swept) };
  }

  async release(tx: Transaction, payoutId: string): Promise<number> {
    const manager = managerOf(tx);
    const rows = await queryPrepared<{ released: string }>(
      manager,
      `WITH released AS (
         UPDATE balance_transaction SET payout_id = NULL WHERE payout_id = $1 AND type NOT IN ('PAYOUT', 'PAYOUT_FAILURE') RETURNING 1)
       SELECT count(*) AS released FROM released`,
      [payoutId],
    );
    return Number(rows[0].released);
  }

  async move(tx: Transaction, movement: PaymentMovement): Promise<number> {
    const manager = managerOf(tx);
    if (!Number.isSafeInteger(movement.amount)) throw new Error('a movement is a whole number of minor units');
    const [row] = await manager.query<{ written: number }[]>(`SELECT balance_move($1, $2, $3, $4, $5, $6, $7, $8) AS written`, [
      movement.businessId,
      movement.merchantId,
      movement.currency,
      movement.type,
      movement.amount,
      movement.sourceId,
      movement.chargeId,
      movement.description.slice(0, 512),
    ]);
    return Number(row.written);
  }

  async netOf(tx: Transaction, sourceId: string, types: readonly BalanceTransactionType[]): Promise<number> {
    const manager = managerOf(tx);
    const [row] = await manager.query<{ net: string | null }[]>(
      `SELECT sum(net) AS net FROM balance_transaction WHERE source_id = $1 AND type = ANY($2::text[])`,
      [sourceId, types],
    );
    return minor(row.net);
  }

  record(tx: Transaction, transactions: readonly NewBalanceTransaction[]): Promise<BalanceTransaction[]> {
    const manager = managerOf(tx);
    return this.insert(manager, transactions, '');
  }

  recordOnce(tx: Transaction, transactions: readonly NewBalanceTransaction[]): Promise<BalanceTransaction[]> {
    const manager = managerOf(tx);
    return this.insert(manager, transactions, 'ON CONFLICT (source_id, type, part) DO NOTHING');
  }

  private async insert(
    manager: EntityManager,
    transactions: readonly NewBalanceTransaction[],
    onConflict: string,
  ): Promise<BalanceTransaction[]> {
    if (transactions.length === 0) return [];
    const column = <K extends keyof NewBalanceTransaction>(key: K) => transactions.map((t) => t[key]);
    // Written at the moment of writing (not the transaction's start): what is available at once is so from that moment.
    const rows = await queryPrepared<BalanceTransactionOrmEntity>(
      manager,
      `INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net, available_on,
                                        source_id, payout_id, description, created_at)
       SELECT t.id, t.business, t.merchant, t.currency, t.type, t.amount, t.fee, t.amount - t.fee, COALESCE(t.available_on, at.now),
              t.source, t.payout, t.description, at.now
       FROM (SELECT clock_timestamp() AS now) AS at, unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::char(3)[], $5::text[], $6::bigint[],
                   $7::bigint[], $8::timestamptz[], $9::uuid[], $10::uuid[], $11::text[])
         AS t(id, business, merchant, currency, type, amount, fee, available_on, source, payout, description)
       ${onConflict}
       RETURNING ${BALANCE_TRANSACTION_COLUMNS}`,
      [
        column('balanceTransactionId'),
        column('businessId'),
        column('merchantId'),
        column('currency'),
        column('type'),
        column('amount'),
        column('fee'),
        column('availableOn'),
        column('sourceId'),
        column('payoutId'),
        column('description'),
      ],
    );
    return rows.map((row) => balanceTransactionFromRow(this.typed(row)));
  }

  async list(
    tx: Transaction,
    scope: TenantScope,
    filters: BalanceTransactionFilters,
    page: PageRequest,
  ): Promise<Page<BalanceTransaction>> {
    const manager = managerOf(tx);
    const { where, values } = this.where(scope, filters);
    const [rows, [{ total }]] = await Promise.all([
      manager.query<BalanceTransactionOrmEntity[]>(
        `SELECT ${BALANCE_TRANSACTION_COLUMNS} FROM balance_transaction WHERE ${where}
          ORDER BY created_at DESC, balance_transaction_id DESC LIMIT ${page.limit} OFFSET ${pageOffset(page)}`,
        values,
      ),
      manager.query<{ total: string }[]>(`SELECT count(*) AS total FROM balance_transaction WHERE ${where}`, values),
    ]);
    return {
      items: rows.map((row) => balanceTransactionFromRow(this.typed(row))),
      page: page.page,
      limit: page.limit,
      total: Number(total),
    };
  }

  async *batches(tx: Transaction, scope: TenantScope, filters: BalanceTransactionFilters): AsyncGenerator<BalanceTransaction[]> {
    const manager = managerOf(tx);
    const { where, values } = this.where(scope, filters);
    let after: { createdAt: Date; id: string } | null = null;
    for (;;) {
      // Keyset paging: each batch starts where the last ended, whatever was written meanwhile.
      const keyset = after ? ` AND (created_at, balance_transaction_id) < ($${values.length + 1}, $${values.length + 2})` : '';
      const rows: BalanceTransactionOrmEntity[] = await manager.query(
        `SELECT ${BALANCE_TRANSACTION_COLUMNS} FROM balance_transaction WHERE ${where}${keyset}
          ORDER BY created_at DESC, balance_transaction_id DESC LIMIT ${BATCH}`,
        after ? [...values, after.createdAt, after.id] : values,
      );
      if (rows.length > 0) yield rows.map((row) => balanceTransactionFromRow(this.typed(row)));
      if (rows.length < BATCH) return;
      const last = rows[rows.length - 1];
      after = { createdAt: last.createdAt, id: last.balanceTransactionId };
    }
  }

  async payoutsOfSources(tx: Transaction, sourceIds: readonly string[]): Promise<Map<string, string>> {
    const manager = managerOf(tx);
    if (sourceIds.length === 0) return new Map();
    const rows = await queryPrepared<{ source_id: string; payout_id: string }>(
      manager,
      `SELECT source_id, payout_id FROM balance_transaction
        WHERE source_id = ANY($1::uuid[]) AND type IN ('PAYIN', 'REFUND', 'FEE') AND payout_id IS NOT NULL`,
      [sourceIds],
    );
    return new Map(rows.map((row) => [row.source_id, row.payout_id]));
  }

  async becameAvailable(
    tx: Transaction,
    after: Date,
    until: Date,
  ): Promise<{ merchantId: MerchantId; currency: Currency; amount: number }[]> {
    const manager = managerOf(tx);
    const rows = await manager.query<{ merchant_id: string; currency: Currency; amount: string }[]>(
      `SELECT merchant_id, currency, sum(net) AS amount FROM balance_figure
        WHERE available_from > $1 AND available_from <= $2 GROUP BY 1, 2 HAVING sum(net) > 0 ORDER BY 1, 2`,
      [after, until],
    );
    return rows.map((row) => ({ merchantId: asMerchantId(row.merchant_id), currency: row.currency, amount: Number(row.amount) }));
  }

  async compact(tx: Transaction, before: Date): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(
      `WITH moved AS (
         DELETE FROM balance_figure WHERE available_from > '-infinity' AND available_from < $1 RETURNING merchant_id, currency, net)
       INSERT INTO balance_figure AS f (merchant_id, currency, available_from, net)
       SELECT merchant_id, currency, '-infinity', sum(net) FROM moved GROUP BY 1, 2 ORDER BY 1, 2
       ON CONFLICT (merchant_id, currency, available_from, stripe) DO UPDATE SET net = f.net + EXCLUDED.net`,
      [before],
    );
  }

  private where(scope: TenantScope, filters: BalanceTransactionFilters): { where: string; values: unknown[] } {
    const values: unknown[] = [];
    const conditions: string[] = [];
    const add = (sql: (parameter: string) => string, value: unknown) => conditions.push(sql(`$${values.push(value)}`));
    if (scope.merchantId) add((p) => `merchant_id = ${p}`, scope.merchantId);
    else add((p) => `business_id = ${p}`, scope.businessId);
    if (filters.currency) add((p) => `currency = ${p}`, filters.currency);
    if (filters.type) add((p) => `type = ${p}`, filters.type);
    if (filters.payoutId) add((p) => `payout_id = ${p}`, filters.payoutId);
    if (filters.dateFrom) add((p) => `created_at >= ${p}`, filters.dateFrom);
    if (filters.dateTo) add((p) => `created_at <= ${p}`, filters.dateTo);
    return { where: conditions.join(' AND '), values };
  }

  /** Raw rows carry bigints as strings. */
  private typed(row: BalanceTransactionOrmEntity): BalanceTransactionOrmEntity {
    return { ...row, amount: minor(row.amount), fee: minor(row.fee), financingFee: minor(row.financingFee), net: minor(row.net) };
  }
}

@Injectable()
export class TypeOrmPayoutRepository extends PayoutRepository {
  async holdBalance(tx: Transaction, merchantId: MerchantId, currency: Currency): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`payout:${merchantId}:${currency}`]);
  }

  async scheduledExists(tx: Transaction, merchantId: MerchantId, currency: Currency, day: string): Promise<boolean> {
    const manager = managerOf(tx);
    const [made] = await manager.query<unknown[]>(`SELECT 1 FROM payout WHERE merchant_id = $1 AND currency = $2 AND scheduled_for = $3`, [
      merchantId,
      currency,
      day,
    ]);
    return made !== undefined;
  }

  async insert(tx: Transaction, payout: Payout): Promise<void> {
    const manager = managerOf(tx);
    await manager.insert(PayoutOrmEntity, payoutToRow(payout));
  }

  async save(tx: Transaction, payout: Payout): Promise<void> {
    const manager = managerOf(tx);
    const { payoutId, ...row } = payoutToRow(payout);
    await manager.update(PayoutOrmEntity, { payoutId }, row);
  }

  async find(tx: Transaction, payoutId: string, lock = false): Promise<Payout | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(PayoutOrmEntity, {
      where: { payoutId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? payoutFromRow(row) : null;
  }

  async list(tx: Transaction, scope: TenantScope, filters: PayoutFilters, page: PageRequest): Promise<Page<Payout>> {
    const manager = managerOf(tx);
    const query = manager.createQueryBuilder(PayoutOrmEntity, 'p');
    if (scope.merchantId) query.where('p.merchant_id = :merchantId', { merchantId: scope.merchantId });
    else query.where('p.business_id = :businessId', { businessId: scope.businessId });
    if (filters.status) query.andWhere('p.status = :status', { status: filters.status });
    if (filters.currency) query.andWhere('p.currency = :currency', { currency: filters.currency });
    if (filters.dateFrom) query.andWhere('p.created_at >= :dateFrom', { dateFrom: filters.dateFrom });
    if (filters.dateTo) query.andWhere('p.created_at <= :dateTo', { dateTo: filters.dateTo });
    const [rows, total] = await query
      .orderBy('p.created_at', 'DESC')
      .addOrderBy('p.payout_id', 'DESC')
      .skip(pageOffset(page))
      .take(page.limit)
      .getManyAndCount();
    return { items: rows.map(payoutFromRow), page: page.page, limit: page.limit, total };
  }

  async underWay(tx: Transaction, merchantId: MerchantId): Promise<Map<Currency, number>> {
    const manager = managerOf(tx);
    const rows = await queryPrepared<{ currency: Currency; amount: string }>(
      manager,
      `SELECT currency, sum(amount) AS amount FROM payout WHERE merchant_id = $1 AND status IN ('PENDING', 'IN_TRANSIT') GROUP BY currency`,
      [merchantId],
    );
    return new Map(rows.map((row) => [row.currency, Number(row.amount)]));
  }

  async awaitingExport(tx: Transaction, bankId: string, limit: number, businessId?: string): Promise<Payout[]> {
    const manager = managerOf(tx);
    const query = manager
      .createQueryBuilder(PayoutOrmEntity, 'p')
      .where(`p.bank_id = :bankId AND p.status = 'IN_TRANSIT' AND p.exported_at IS NULL AND p.batch_id IS NULL`, { bankId });
    if (businessId) query.andWhere('p.business_id = :businessId', { businessId });
    const rows = await query
      .orderBy('p.created_at', 'ASC')
      .addOrderBy('p.payout_id', 'ASC')
      .take(limit)
      .setLock('pessimistic_write')
      .getMany();
    return rows.map(payoutFromRow);
  }

  async ofBatch(tx: Transaction, batchId: string): Promise<Payout[]> {
    const manager = managerOf(tx);
    const rows = await manager.find(PayoutOrmEntity, { where: { batchId }, order: { createdAt: 'ASC', payoutId: 'ASC' } });
    return rows.map(payoutFromRow);
  }
}

interface PayoutBatchRow {
  batch_id: string;
  business_id: string;
  bank_id: string;
  sequence: number;
  payout_count: number;
  totals: { currency: Currency; amount: number }[];
  csv: string;
  csv_sha256: string;
  cnab240: string | null;
  cnab240_sha256: string | null;
  created_at: Date;
  written_at: Date | null;
}

@Injectable()
export class TypeOrmPayoutBatchRepository extends PayoutBatchRepository {
  async nextSequence(tx: Transaction, businessId: string): Promise<number> {
    const manager = managerOf(tx);
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`payout-batch:${businessId}`]);
    const [row] = await manager.query<{ next: number }[]>(
      `SELECT coalesce(max(sequence), 0) + 1 AS next FROM payout_batch WHERE business_id = $1`,
      [businessId],
    );
    return Number(row.next);
  }

  async insert(tx: Transaction, batch: PayoutBatchRecord): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(
      `INSERT INTO payout_batch (batch_id, business_id, bank_id, sequence, payout_count, totals, csv, csv_sha256, cnab240, cnab240_sha256,
                                 created_at, written_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        batch.batchId,
        batch.businessId,
        batch.bankId,
        batch.sequence,
        batch.payoutCount,
        JSON.stringify(batch.totals),
        batch.csv,
        batch.csvSha256,
        batch.cnab240,
        batch.cnab240Sha256,
        batch.createdAt,
        batch.writtenAt,
      ],
    );
  }

  async find(tx: Transaction, batchId: string): Promise<PayoutBatchRecord | null> {
    const manager = managerOf(tx);
    const [row] = await manager.query<PayoutBatchRow[]>(`SELECT * FROM payout_batch WHERE batch_id = $1`, [batchId]);
    return row
      ? {
          batchId: row.batch_id,
          businessId: row.business_id,
          bankId: row.bank_id,
          sequence: row.sequence,
          payoutCount: row.payout_count,
          totals: row.totals,
          csv: row.csv,
          csvSha256: row.csv_sha256,
          cnab240: row.cnab240,
          cnab240Sha256: row.cnab240_sha256,
          createdAt: row.created_at,
          writtenAt: row.written_at,
        }
      : null;
  }

  async markWritten(tx: Transaction, batchId: string, at: Date): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(`UPDATE payout_batch SET written_at = $2 WHERE batch_id = $1`, [batchId, at]);
  }

  async debtor(tx: Transaction, businessId: string, country: 'BRA'): Promise<DebtorAccount | null> {
    const manager = managerOf(tx);
    const [row] = await manager.query<Record<string, string | Date>[]>(
      `SELECT business_id, country, bank_id, document, name, agreement, branch, branch_digit, account, account_digit, updated_at
         FROM payout_debtor_account WHERE business_id = $1 AND country = $2`,
      [businessId, country],
    );
    return row
      ? {
          businessId: row.business_id as string,
          country: 'BRA',
          bankId: row.bank_id as string,
          document: row.document as string,
          name: row.name as string,
          agreement: row.agreement as string,
          branch: row.branch as string,
          branchDigit: row.branch_digit as string,
          account: row.account as string,
          accountDigit: row.account_digit as string,
          updatedAt: row.updated_at as Date,
        }
      : null;
  }

  async putDebtor(tx: Transaction, a: DebtorAccount): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(
      `INSERT INTO payout_debtor_account (business_id, country, bank_id, document, name, agreement, branch, branch_digit, account,
                                          account_digit, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (business_id, country) DO UPDATE SET bank_id = EXCLUDED.bank_id, document = EXCLUDED.document, name = EXCLUDED.name,
         agreement = EXCLUDED.agreement, branch = EXCLUDED.branch, branch_digit = EXCLUDED.branch_digit, account = EXCLUDED.account,
         account_digit = EXCLUDED.account_digit, updated_at = EXCLUDED.updated_at`,
      [a.businessId, a.country, a.bankId, a.document, a.name, a.agreement, a.branch, a.branchDigit, a.account, a.accountDigit, a.updatedAt],
    );
  }
}
