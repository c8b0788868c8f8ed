import { BusinessesModule, BusinessService } from '@pcs/businesses';
import { MerchantsModule, MerchantService } from '@pcs/merchants';
import { asMerchantId, BusinessId, Caller, Currency, MerchantId, TransactionStatus } from '@pcs/kernel';
import { serviceContext, ServiceContext } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { PayinLedgerService } from './payin-ledger.service';
import { PayinFilters } from './payin-ledger.queries';
import { PaymentLedgerModule } from './payment-ledger.module';

import { amountBucket } from '../persistence/payin-ledger-counts';

const STATUSES = ['PENDING', 'SCHEDULED', 'APPROVED', 'CANCELLED', 'REJECTED', 'EXPIRED'] as const;
const DAY = 86_400_000;

/**
 * The ledger's rowCount from per-day counters (payin_daily_count, kept by
 * triggers) against a plain count(*) of the same filters: equal for every
 * combination tried, after inserts, status changes and deletes, with bounds
 * that cut days (microseconds from midnight included) and under concurrent
 * writers of one counter row.
 */
describe('payin counts on PostgreSQL', () => {
  let services: ServiceContext;
  let ledger: PayinLedgerService;
  let businessId: BusinessId;
  const merchants: MerchantId[] = [];
  let payerId: string;
  let countryId: string;
  const intents = new Map<MerchantId, string>();
  // Midnight UTC ten days ago: the data spans days -10 .. 0.
  const base = Math.floor(Date.now() / DAY) * DAY - 10 * DAY;

  beforeAll(async () => {
    services = await serviceContext([PaymentLedgerModule, BusinessesModule, MerchantsModule], { poolSize: 12 });
    ledger = services.get(PayinLedgerService);
    const business = await services.get(BusinessService).create('Payin counts');
    businessId = business.businessId;
    for (const name of ['One', 'Two']) {
      const merchant = await services
        .get(MerchantService)
        .create({ businessId: business.businessId, name, countryIso3: 'URY', approve: true });
      merchants.push(asMerchantId(merchant.merchantId));
    }
    [{ country_id: countryId }] = await services.dataSource.query(`SELECT country_id FROM country WHERE iso3 = 'URY'`);
    payerId = crypto.randomUUID();
    await services.dataSource.query(
      `INSERT INTO payer (payer_id, business_id, merchant_id, first_name, last_name) VALUES ($1, $2, $3, 'Count', 'Payer')`,
      [payerId, businessId, merchants[0]],
    );
    for (const merchantId of merchants) {
      const intentId = crypto.randomUUID();
      await services.dataSource.query(
        `INSERT INTO payment_intent (payment_intent_id, business_id, merchant_id, payer_id, country_id, origin, payin_type, status, currency, amount, tax_amount, vat_rate_bp)
         VALUES ($1, $2, $3, $4, $5, 'API', 'DEFAULT', 'PROCESSING', 'UYU', 12200, 2200, 2200)`,
        [intentId, businessId, merchantId, payerId, countryId],
      );
      intents.set(merchantId, intentId);
    }
  });
  afterAll(() => services.close());

  /** Payins at the given instants (ISO strings with microseconds allowed), one statement. */
  const insert = async (rows: { merchantId: MerchantId; at: string; status: string; currency: string; amount: number }[]) => {
    await services.dataSource.query(
      `INSERT INTO payin (transaction_id, business_id, merchant_id, payment_intent_id, transaction_type, concept_code, status, currency,
                          amount, subtotal_amount, tax_amount, received_amount, merchant_name, person_first_name, person_last_name,
                          payment_intent_initiator, created_at, updated_at)
       SELECT gen_random_uuid(), $1, r.merchant_id, r.intent_id, 'PAYIN', 'PAYIN', r.status, r.currency, r.amount, r.amount, 0, 0,
              'Shop', 'Count', 'Payer', 'PAYER', r.at, r.at
       FROM jsonb_to_recordset($2::jsonb) AS r(merchant_id uuid, intent_id uuid, status text, currency text, amount bigint, at timestamptz)`,
      [businessId, JSON.stringify(rows.map((r) => ({ ...r, merchant_id: r.merchantId, intent_id: intents.get(r.merchantId) })))],
    );
  };

  const exact = async (caller: Caller, f: PayinFilters): Promise<number> => {
    const where = ['business_id = $1'];
    const values: unknown[] = [caller.businessId];
    const add = (sql: string, value: unknown) => where.push(sql.replace('?', `$${values.push(value)}`));
    const merchantId = caller.merchantId ?? f.merchantId;
    if (caller.merchantId && f.merchantId && f.merchantId !== caller.merchantId) return 0;
    if (merchantId) add('merchant_id = ?', merchantId);
    if (f.status) add('status = ?', f.status);
    if (f.currency) add('currency = ?', f.currency);
    if (f.dateFrom) add('created_at >= ?', f.dateFrom);
    // A date-only dateUntil (the day's last millisecond) means the whole day, microseconds included.
    if (f.dateUntil) {
      if ((f.dateUntil.getTime() + 1) % DAY === 0) add('created_at < ?', new Date(f.dateUntil.getTime() + 1));
      else add('created_at <= ?', f.dateUntil);
    }
    if (f.minAmount !== undefined) add('amount >= ?', Math.round(f.minAmount * 100));
    const [{ n }] = await services.dataSource.query(`SELECT count(*)::int AS n FROM payin WHERE ${where.join(' AND ')}`, values);
    return n;
  };

  const counted = async (caller: Caller, f: PayinFilters) => (await ledger.list(caller, f, { page: 1, limit: 1 })).total;

  /** Every combination of the filters the counters answer, over many bounds, against count(*). */
  const compareAll = async () => {
    const business: Caller = { credentialId: 'test', businessId, merchantId: null };
    const merchant: Caller = { credentialId: 'test', businessId, merchantId: merchants[0] };
    const bounds: (Date | undefined)[] = [
      undefined,
      new Date(base),
      new Date(base + 3 * DAY),
      new Date(base + 3 * DAY + 1),
      new Date(base + 4 * DAY - 1),
      new Date(base + 5 * DAY + 7 * 3_600_000),
      new Date(base + 12 * DAY),
    ];
    let compared = 0;
    for (const caller of [business, merchant])
      for (const merchantId of [undefined, merchants[0], merchants[1]])
        for (const status of [undefined, 'APPROVED', 'PENDING'] as const)
          for (const currency of [undefined, 'UYU', 'USD'] as const)
            for (const dateFrom of bounds)
              for (const dateUntil of bounds) {
                if (dateFrom && dateUntil && dateFrom > dateUntil) continue;
                if ((status || currency) && (dateFrom === bounds[3] || dateUntil === bounds[4])) continue; // keep the run short
                const f: PayinFilters = {
                  merchantId,
                  status: status as TransactionStatus | undefined,
                  currency: currency as Currency | undefined,
                  dateFrom,
                  dateUntil,
                };
                expect({ f, total: await counted(caller, f) }).toEqual({ f, total: await exact(caller, f) });
                compared += 1;
              }
    return compared;
  };

  it('counts exactly what count(*) counts, for every filter combination, through inserts, updates and deletes', async () => {
    const rows: { merchantId: MerchantId; at: string; status: string; currency: string; amount: number }[] = [];
    for (let i = 0; i < 600; i++) {
      const dayStart = base + (i % 11) * DAY;
      // Some at the first and last microseconds of their day, the rest spread over it.
      const at =
        i % 17 === 0
          ? new Date(dayStart).toISOString().replace('Z', '001Z')
          : i % 19 === 0
            ? new Date(dayStart + DAY - 1).toISOString().replace('Z', '999Z')
            : new Date(dayStart + ((i * 7_919_000) % DAY)).toISOString();
      rows.push({
        merchantId: merchants[i % 3 === 0 ? 1 : 0],
        at,
        status: STATUSES[i % 6],
        currency: i % 4 === 0 ? 'USD' : 'UYU',
        amount: 100 + i,
      });
    }
    await insert(rows);
    expect(await compareAll()).toBeGreaterThan(500);

    await services.dataSource.query(
      `UPDATE payin SET status = 'APPROVED' WHERE business_id = $1 AND status = 'PENDING' AND amount % 2 = 0`,
      [businessId],
    );
    await services.dataSource.query(`UPDATE payin SET currency = 'USD' WHERE business_id = $1 AND amount % 5 = 0`, [businessId]);
    await services.dataSource.query(`DELETE FROM payin WHERE business_id = $1 AND amount % 7 = 0`, [businessId]);
    await compareAll();

    // An amount bound (the next test tries many).
    const merchant: Caller = { credentialId: 'test', businessId, merchantId: merchants[0] };
    const f: PayinFilters = { currency: 'UYU' as Currency, minAmount: 4 };
    expect(await counted(merchant, f)).toBe(await exact(merchant, f));
  });

  it('keeps a striped counter right under twenty concurrent writers, spread over its stripes', async () => {
    const at = new Date(base + 2 * DAY + 1000).toISOString();
    const merchant: Caller = { credentialId: 'test', businessId, merchantId: merchants[1] };
    const f: PayinFilters = { status: 'SCHEDULED' as TransactionStatus, currency: 'UYU' as Currency };
    const before = await exact(merchant, f);
    await Promise.all(
      Array.from({ length: 20 }, () => insert([{ merchantId: merchants[1], at, status: 'SCHEDULED', currency: 'UYU', amount: 1 }])),
    );
    expect(await exact(merchant, f)).toBe(before + 20);
    expect(await counted(merchant, f)).toBe(before + 20);
    // Twenty transactions did not all wait on one row: each added to the stripe its transaction id picked.
    const [{ stripes }] = await services.dataSource.query(
      `SELECT count(DISTINCT stripe)::int AS stripes FROM payin_daily_count WHERE merchant_id = $1 AND day = $2::date AND status = 'SCHEDULED'`,
      [merchants[1], at.slice(0, 10)],
    );
    expect(stripes).toBeGreaterThan(1);
  });

  it('counts amount ranges in one currency from the amount buckets exactly as count(*), through inserts, updates and deletes', async () => {
    // The SQL bucket function and the service's agree.
    const probe = [0n, 1n, 99n, 100n, 105n, 110n, 999n, 1000n, 1099n, 12345n, 499999n, 500000n, 900000n, 900001n, 123456789012n];
    const sql = await services.dataSource.query<{ b: string }[]>(`SELECT pcs_amount_bucket(a)::text AS b FROM unnest($1::bigint[]) AS a`, [
      probe.map(String),
    ]);
    expect(sql.map((row) => BigInt(row.b))).toEqual(probe.map(amountBucket));

    const third = Array.from({ length: 3 }, () => crypto.randomUUID());
    const business = await services.get(BusinessService).create(`Amount counts ${third[0]}`);
    const owner = asMerchantId(
      (await services.get(MerchantService).create({ businessId: business.businessId, name: 'Amounts', countryIso3: 'URY', approve: true }))
        .merchantId,
    );
    const intentId = crypto.randomUUID();
    await services.dataSource.query(
      `INSERT INTO payment_intent (payment_intent_id, business_id, merchant_id, payer_id, country_id, origin, payin_type, status, currency, amount, tax_amount, vat_rate_bp)
       VALUES ($1, $2, $3, NULL, $4, 'API', 'DEFAULT', 'PROCESSING', 'UYU', 12200, 2200, 2200)`,
      [intentId, business.businessId, owner, countryId],
    );
    // Amounts over six decades, many on and beside bucket edges.
    const amounts = Array.from(
      { length: 900 },
      (_, i) => [i + 1, 99 + (i % 3), 1000 * (i % 40) + 1 + (i % 2), 1 + ((i * 7919) % 1_000_003), 500000, 900000][i % 6],
    );
    await services.dataSource.query(
      `INSERT INTO payin (transaction_id, business_id, merchant_id, payment_intent_id, transaction_type, concept_code, status, currency,
                          amount, subtotal_amount, tax_amount, received_amount, merchant_name, person_first_name, person_last_name,
                          payment_intent_initiator, created_at, updated_at)
       SELECT gen_random_uuid(), $1, $2, $3, 'PAYIN', 'PAYIN', (ARRAY['APPROVED','PENDING','REJECTED'])[1 + (i % 3)],
              CASE WHEN i % 5 = 0 THEN 'USD' ELSE 'UYU' END, a, a, 0, 0, 'Shop', 'Count', 'Payer', 'PAYER', now(), now()
       FROM unnest($4::bigint[]) WITH ORDINALITY AS t(a, i)`,
      [business.businessId, owner, intentId, amounts],
    );
    const callers: Caller[] = [
      { credentialId: 'test', businessId: business.businessId, merchantId: null },
      { credentialId: 'test', businessId: business.businessId, merchantId: owner },
    ];
    // Bounds in major units (UYU and USD: two decimals); the last two have more decimals than the currency (rounded inwards).
    const bounds = [undefined, 0, 0.99, 1, 1.05, 9.9, 10, 123.45, 5000, 9000, 9000.01, 4.995, 9.999];
    const minor = (value: number, up: boolean) =>
      up ? Math.ceil(Math.round(value * 1000) / 10) : Math.floor(Math.round(value * 1000) / 10);
    const compare = async () => {
      const wrong: object[] = [];
      let compared = 0;
      for (const caller of callers)
        for (const status of [undefined, 'APPROVED'] as const)
          for (const currency of ['UYU', 'USD'] as const)
            for (const minAmount of bounds)
              for (const maxAmount of bounds) {
                if (minAmount === undefined && maxAmount === undefined) continue;
                const where = ['business_id = $1', 'currency = $2'];
                const values: unknown[] = [business.businessId, currency];
                if (caller.merchantId) where.push(`merchant_id = $${values.push(caller.merchantId)}`);
                if (status) where.push(`status = $${values.push(status)}`);
                if (minAmount !== undefined) where.push(`amount >= $${values.push(minor(minAmount, true))}`);
                if (maxAmount !== undefined) where.push(`amount <= $${values.push(minor(maxAmount, false))}`);
                const [{ n }] = await services.dataSource.query(
                  `SELECT count(*)::int AS n FROM payin WHERE ${where.join(' AND ')}`,
                  values,
                );
                const f: PayinFilters = {
                  status: status as TransactionStatus | undefined,
                  currency: currency as Currency,
                  minAmount,
                  maxAmount,
                };
                const total = await counted(caller, f);
                if (total !== n) wrong.push({ caller: caller.merchantId, f, total, exact: n });
                compared += 1;
              }
      expect(wrong).toEqual([]);
      return compared;
    };
    expect(await compare()).toBeGreaterThan(600);
    await services.dataSource.query(
      `UPDATE payin SET status = 'APPROVED' WHERE business_id = $1 AND status = 'PENDING' AND amount % 2 = 0`,
      [business.businessId],
    );
    await services.dataSource.query(`UPDATE payin SET amount = amount + 1 WHERE business_id = $1 AND amount % 3 = 0`, [
      business.businessId,
    ]);
    await services.dataSource.query(`DELETE FROM payin WHERE business_id = $1 AND amount % 7 = 0`, [business.businessId]);
    await compare();
  });
});
