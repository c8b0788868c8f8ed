import { migrateDatabase } from '@pcs/database';
import * as crypto from 'node:crypto';
import { Client } from 'pg';
import { scratchDatabase } from './scratch-database';

const BROU = 'dc53087a-2434-475e-bdcb-ea34a941e862';

/**
 * The move to payouts that release what they swept (contract §24), on data the earlier model left: a database of this spec's
 * own, migrated up to the migration, given a failed payout whose failure nobody swept yet, and a failed payout whose failure a
 * later payout already paid; then migrated. The first releases what it swept (and its pair nets inside it); the second keeps
 * its history (the later payout paid that money); no balance figure moves.
 */
describe('the payouts-trusted migration (contract §24)', () => {
  let db: { url: string; drop: () => Promise<void> };
  let client: Client;
  const ids = {
    business: crypto.randomUUID(),
    merchant: crypto.randomUUID(),
    failed: crypto.randomUUID(),
    failedThenPaid: crypto.randomUUID(),
    later: crypto.randomUUID(),
    payinA: crypto.randomUUID(),
    payinB: crypto.randomUUID(),
    payinC: crypto.randomUUID(),
  };
  const rows = async () =>
    (
      await client.query<{ source_id: string; type: string; payout_id: string | null }>(
        `SELECT source_id, type, payout_id FROM balance_transaction WHERE merchant_id = $1 ORDER BY created_at, type`,
        [ids.merchant],
      )
    ).rows;
  const available = async () =>
    Number(
      (
        await client.query<{ sum: string }>(`SELECT coalesce(sum(net), 0) AS sum FROM balance_figure WHERE merchant_id = $1`, [
          ids.merchant,
        ])
      ).rows[0].sum,
    );

  beforeAll(async () => {
    db = await scratchDatabase('payouts_trusted_migration', { before: 'PayoutsTrusted1797700000000' });
    client = new Client({ connectionString: db.url });
    await client.connect();
    const [{ country_id: countryId }] = (await client.query<{ country_id: string }>(`SELECT country_id FROM country WHERE iso3 = 'URY'`))
      .rows;
    await client.query(`INSERT INTO business (business_id, name) VALUES ($1, 'Payouts business')`, [ids.business]);
    await client.query(
      `INSERT INTO merchant (merchant_id, business_id, country_id, type, merchant_name, status) VALUES ($1, $2, $3, 'COMPANY', 'Shop', 'ACTIVE')`,
      [ids.merchant, ids.business, countryId],
    );
    const payout = (id: string, amount: number, status: string) =>
      client.query(
        `INSERT INTO payout (payout_id, business_id, merchant_id, currency, amount, status, rail, origin, settlement_account_id, bank_id, account_number,
                             account_type, transaction_count, created_at, updated_at)
         VALUES ($1, $2, $3, 'UYU', $4, $5, 'SANDBOX', 'REQUESTED', $1, $6, '00123456700001', 'SAVINGS', 0, now(), now())`,
        [id, ids.business, ids.merchant, amount, status, BROU],
      );
    const movement = (source: string, type: string, amount: number, payoutId: string | null) =>
      client.query(
        `INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net, available_on,
                                          source_id, payout_id, created_at)
         VALUES ($1, $2, $3, 'UYU', $4, $5, 0, $5, clock_timestamp(), $6, $7, clock_timestamp())`,
        [crypto.randomUUID(), ids.business, ids.merchant, type, amount, source, payoutId],
      );
    // As the earlier model left them: a failed payout of A and B, its failure unswept.
    await payout(ids.failed, 15_000, 'FAILED');
    await movement(ids.payinA, 'PAYIN', 10_000, ids.failed);
    await movement(ids.payinB, 'PAYIN', 5_000, ids.failed);
    await movement(ids.failed, 'PAYOUT', -15_000, ids.failed);
    await movement(ids.failed, 'PAYOUT_FAILURE', 15_000, null);
    // A failed payout of C whose failure a later (paid) payout swept and paid.
    await payout(ids.failedThenPaid, 3_000, 'FAILED');
    await payout(ids.later, 3_000, 'PAID');
    await movement(ids.payinC, 'PAYIN', 3_000, ids.failedThenPaid);
    await movement(ids.failedThenPaid, 'PAYOUT', -3_000, ids.failedThenPaid);
    await movement(ids.failedThenPaid, 'PAYOUT_FAILURE', 3_000, ids.later);
    await movement(ids.later, 'PAYOUT', -3_000, ids.later);
    expect(await available()).toBe(15_000);
    expect((await migrateDatabase(db.url))[0]).toBe('PayoutsTrusted1797700000000');
  }, 60_000);
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('releases what a failed payout swept when no payout paid its failure yet, and keeps the history of one that did', async () => {
    const after = await rows();
    const of = (source: string, type: string) => after.find((r) => r.source_id === source && r.type === type)!.payout_id;
    // Free again, for the next payout: A and B; the failed payout's pair nets inside it.
    expect([of(ids.payinA, 'PAYIN'), of(ids.payinB, 'PAYIN')]).toEqual([null, null]);
    expect([of(ids.failed, 'PAYOUT'), of(ids.failed, 'PAYOUT_FAILURE')]).toEqual([ids.failed, ids.failed]);
    // The later payout paid C's money through the failure it swept: left as it was.
    expect([of(ids.payinC, 'PAYIN'), of(ids.failedThenPaid, 'PAYOUT_FAILURE')]).toEqual([ids.failedThenPaid, ids.later]);
    // Nothing was written or deleted, and the balance is what it was.
    expect(after).toHaveLength(8);
    expect(await available()).toBe(15_000);
  });

  it('lets no one release what a payout that did not fail swept, nor a payout’s own rows', async () => {
    await expect(
      client.query(`UPDATE balance_transaction SET payout_id = NULL WHERE source_id = $1 AND type = 'PAYOUT_FAILURE'`, [
        ids.failedThenPaid,
      ]),
    ).rejects.toThrow(/only a failed, canceled or returned payout releases/);
    await expect(
      client.query(`UPDATE balance_transaction SET payout_id = NULL WHERE source_id = $1 AND type = 'PAYOUT'`, [ids.failed]),
    ).rejects.toThrow(/only a failed, canceled or returned payout releases/);
    await expect(client.query(`UPDATE balance_transaction SET amount = 1 WHERE source_id = $1`, [ids.payinA])).rejects.toThrow(
      /append-only/,
    );
  });
});
