import { migrateDatabase } from '@pcs/database';
import * as crypto from 'node:crypto';
import { Client } from 'pg';
import { scratchDatabase } from './scratch-database';

/**
 * The move to funds flows (contract §23) on data the old model booked, in a
 * database of this spec's own: migrated up to the funds-flow migration, given
 * the ledger of a merchant whose own Mercado Pago account collected two
 * payments (one already paid out by us as well, one pending, partly refunded,
 * one charged back) beside a sandbox payment, then migrated. Nothing is
 * deleted, nobody is paid twice: what was never the business's money is
 * reversed, the fees it owes are booked, and the balance is what the new
 * model says (docs/money.md, "Moving to funds flows").
 */
describe('the funds-flow migration (contract §23)', () => {
  let db: { url: string; drop: () => Promise<void> };
  let client: Client;
  const ids = {
    business: crypto.randomUUID(),
    merchant: crypto.randomUUID(),
    paidOut: crypto.randomUUID(),
    pending: crypto.randomUUID(),
    refund: crypto.randomUUID(),
    sandbox: crypto.randomUUID(),
    dispute: crypto.randomUUID(),
    payout: crypto.randomUUID(),
  };
  const later = new Date(Date.now() + 5 * 86_400_000);
  let laterIntent: string;
  const earlier = new Date(Date.now() - 86_400_000);

  beforeAll(async () => {
    db = await scratchDatabase('funds_flow_migration', { before: 'FundsFlow1797600000000' });
    client = new Client({ connectionString: db.url });
    await client.connect();
    // The business, its merchant and the payments' intents, as the old model had them.
    const [{ country_id: countryId }] = (await client.query<{ country_id: string }>(`SELECT country_id FROM country WHERE iso3 = 'URY'`))
      .rows;
    await client.query(`INSERT INTO business (business_id, name) VALUES ($1, 'Funds flow business')`, [ids.business]);
    await client.query(
      `INSERT INTO merchant (merchant_id, business_id, country_id, type, merchant_name, status) VALUES ($1, $2, $3, 'COMPANY', 'Shop', 'ACTIVE')`,
      [ids.merchant, ids.business, countryId],
    );
    const intents = {
      paidOut: crypto.randomUUID(),
      pending: crypto.randomUUID(),
      sandbox: crypto.randomUUID(),
      later: crypto.randomUUID(),
    };
    for (const intent of Object.values(intents))
      await client.query(
        `INSERT INTO payment_intent (payment_intent_id, business_id, merchant_id, country_id, origin, payin_type, status, currency, amount, tax_amount,
                                     vat_rate_bp)
         VALUES ($1, $2, $3, $4, 'API', 'DEFAULT', 'SUCCEEDED', 'UYU', 200000, 0, 0)`,
        [intent, ids.business, ids.merchant, countryId],
      );
    laterIntent = intents.later;
    // The old model's rows as its triggers left them: written with triggers off (these balance rows are the old triggers' work).
    await client.query(`SET session_replication_role = replica`);
    const payin = (
      id: string,
      type: 'PAYIN' | 'REFUND',
      gateway: string | null,
      amount: number,
      fee: number,
      tax: number,
      intent: string,
    ) =>
      client.query(
        `INSERT INTO payin (transaction_id, business_id, merchant_id, payment_intent_id, transaction_type, concept_code, status, currency,
                            amount, subtotal_amount, tax_amount, received_amount, merchant_name, payment_intent_initiator, gateway,
                            fee_amount, fee_tax_amount, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5, 'APPROVED', 'UYU', $6, $6, 0, $6, 'Shop', 'PAYER', $7, $8, $9, now(), now())`,
        [id, ids.business, ids.merchant, intent, type, amount, gateway, fee, tax],
      );
    await payin(ids.paidOut, 'PAYIN', 'MERCADO_PAGO', 100_000, 5_000, 1_100, intents.paidOut);
    await payin(ids.pending, 'PAYIN', 'MERCADO_PAGO', 50_000, 2_500, 550, intents.pending);
    await payin(ids.refund, 'REFUND', null, 10_000, 0, 0, intents.pending);
    await payin(ids.sandbox, 'PAYIN', 'SANDBOX', 200_000, 6_000, 1_320, intents.sandbox);
    await client.query(
      `INSERT INTO gateway_account (merchant_id, provider, business_id, payment_methods, created_at, updated_at, secrets_sealed, hints)
       VALUES ($1, 'MERCADO_PAGO', $2, ARRAY['MERCADO_PAGO'], now(), now(), '{}', '{}')`,
      [ids.merchant, ids.business],
    );
    await client.query(
      `INSERT INTO dispute (dispute_id, business_id, merchant_id, payment_intent_id, charge_id, currency, amount, reason, status, processor,
                            processor_reference, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'UYU', 20000, 'GENERAL', 'NEEDS_RESPONSE', 'MERCADO_PAGO', 'case-1', now(), now())`,
      [ids.dispute, ids.business, ids.merchant, intents.paidOut, ids.paidOut],
    );
    const movement = (type: string, amount: number, fee: number, availableOn: Date, sourceId: string, payoutId: string | null) =>
      client.query(
        `INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net, available_on,
                                          source_id, payout_id, created_at)
         VALUES (gen_random_uuid(), $1, $2, 'UYU', $3, $4::bigint, $5::bigint, $4::bigint - $5::bigint, $6, $7, $8, $9)`,
        [ids.business, ids.merchant, type, amount, fee, availableOn, sourceId, payoutId, earlier],
      );
    // Paid by Mercado Pago into the merchant's account, and paid out by us too (swept by a payout).
    await movement('PAYIN', 100_000, 6_100, earlier, ids.paidOut, ids.payout);
    await movement('PAYOUT', -93_900, 0, earlier, ids.payout, ids.payout);
    // Collected in the merchant's account, pending here, a refund of it, a chargeback of the first.
    await movement('PAYIN', 50_000, 3_050, later, ids.pending, null);
    await movement('REFUND', -10_000, 0, earlier, ids.refund, null);
    await movement('CHARGEBACK', -20_000, 0, earlier, ids.dispute, null);
    // The business's own money (the sandbox).
    await movement('PAYIN', 200_000, 7_320, earlier, ids.sandbox, null);
    await client.query(
      `INSERT INTO balance_figure (merchant_id, currency, available_from, net)
       SELECT merchant_id, currency, CASE WHEN available_on <= created_at THEN '-infinity'::timestamptz ELSE available_on END, sum(net)
         FROM balance_transaction WHERE merchant_id = $1 GROUP BY 1, 2, 3`,
      [ids.merchant],
    );
    await client.query(`SET session_replication_role = origin`);
    // It and what follows it (later migrations keep what it did).
    expect((await migrateDatabase(db.url))[0]).toBe('FundsFlow1797600000000');
  }, 60_000);
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  const figures = async () =>
    (
      await client.query<{ available: string; pending: string }>(
        `SELECT coalesce(sum(net) FILTER (WHERE available_from <= now()), 0) AS available,
                coalesce(sum(net) FILTER (WHERE available_from > now()), 0) AS pending
           FROM balance_figure WHERE merchant_id = $1 AND currency = 'UYU'`,
        [ids.merchant],
      )
    ).rows[0];

  it('makes existing connections and what they collected MERCHANT, the sandbox’s PLATFORM', async () => {
    const flows = (
      await client.query<{ transaction_id: string; funds_flow: string; origin: string | null; liquidation_source: string | null }>(
        `SELECT transaction_id, funds_flow, origin, liquidation_source FROM payin WHERE merchant_id = $1`,
        [ids.merchant],
      )
    ).rows;
    const of = (id: string) => flows.find((f) => f.transaction_id === id);
    expect(of(ids.paidOut)).toMatchObject({ funds_flow: 'MERCHANT', liquidation_source: 'CALENDAR', origin: null });
    expect(of(ids.pending)?.funds_flow).toBe('MERCHANT');
    expect(of(ids.refund)).toMatchObject({ funds_flow: 'MERCHANT', origin: 'API' });
    expect(of(ids.sandbox)?.funds_flow).toBe('PLATFORM');
    expect((await client.query(`SELECT funds_flow FROM gateway_account WHERE merchant_id = $1`, [ids.merchant])).rows).toEqual([
      { funds_flow: 'MERCHANT' },
    ]);
    expect((await client.query(`SELECT funds_flow FROM dispute WHERE dispute_id = $1`, [ids.dispute])).rows).toEqual([
      { funds_flow: 'MERCHANT' },
    ]);
  });

  it('reverses, without deleting anything, what the old model booked for money the business never held, and books the fees owed', async () => {
    const rows = (
      await client.query<{ type: string; net: string; source_id: string; pending: boolean }>(
        `SELECT type, net, source_id, available_on > now() AS pending FROM balance_transaction WHERE merchant_id = $1 ORDER BY created_at, type, net`,
        [ids.merchant],
      )
    ).rows;
    // The six rows of before are all there.
    expect(rows.filter((r) => r.type !== 'ADJUSTMENT' && r.type !== 'FEE')).toHaveLength(6);
    const adjustments = rows.filter((r) => r.type === 'ADJUSTMENT').map((r) => [Number(r.net), r.pending]);
    expect(adjustments.sort()).toEqual(
      [
        [-100_000 + 6_100, false], // the payin paid out twice: a debt now, netted by the next payouts
        [-50_000 + 3_050, true], // the pending one: reversed in its own pending day, so it never becomes available
        [10_000, false], // its refund
        [20_000, false], // the chargeback
      ].sort(),
    );
    expect(
      rows
        .filter((r) => r.type === 'FEE')
        .map((r) => [r.source_id, Number(r.net)])
        .sort(),
    ).toEqual(
      [
        [ids.paidOut, -6_100],
        [ids.pending, -3_050],
      ].sort(),
    );
  });

  it('leaves the balance equal to its transactions and to what the new model says: the sandbox’s net, less the payout of money never held and the fees owed', async () => {
    const [sum] = (
      await client.query<{ total: string }>(`SELECT sum(net) AS total FROM balance_transaction WHERE merchant_id = $1`, [ids.merchant])
    ).rows;
    const { available, pending } = await figures();
    expect(Number(available) + Number(pending)).toBe(Number(sum.total));
    // 192,680 of the sandbox's − 93,900 already paid out of Mercado Pago's money − 9,150 of fees = 89,630; nothing pending.
    expect({ available: Number(available), pending: Number(pending) }).toEqual({ available: 89_630, pending: 0 });
  });

  it('books the new model from then on: a MERCHANT payin approved now moves its FEE, a refund of it nothing', async () => {
    const intent = laterIntent;
    const charge = crypto.randomUUID();
    const refund = crypto.randomUUID();
    for (const [id, type] of [
      [charge, 'PAYIN'],
      [refund, 'REFUND'],
    ])
      await client.query(
        `INSERT INTO payin (transaction_id, business_id, merchant_id, payment_intent_id, transaction_type, concept_code, status, currency, amount,
                            subtotal_amount, tax_amount, merchant_name, payment_intent_initiator, gateway, fee_amount, fee_tax_amount, funds_flow,
                            created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5, 'PENDING', 'UYU', 30000, 30000, 0, 'Shop', 'PAYER', 'MERCADO_PAGO', 900, 198, 'MERCHANT', now(), now())`,
        [id, ids.business, ids.merchant, intent, type],
      );
    await client.query(`UPDATE payin SET status = 'APPROVED', received_amount = amount WHERE transaction_id = ANY($1::uuid[])`, [
      [charge, refund],
    ]);
    const moved = (
      await client.query<{ type: string; amount: string; fee: string; net: string; source_id: string }>(
        `SELECT type, amount, fee, net, source_id FROM balance_transaction WHERE source_id = ANY($1::uuid[])`,
        [[charge, refund]],
      )
    ).rows;
    expect(moved).toEqual([{ type: 'FEE', amount: '0', fee: '1098', net: '-1098', source_id: charge }]);
  });
});
