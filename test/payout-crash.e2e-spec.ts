import { signV3 } from '@pcs/testing';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiProcess } from './api-process';
import { freePort } from './payins-app';
import { Testbed, testbed } from './testbed';

/** Transactions the payout sweeps: enough that the sweep takes a moment, for the kill to land in it. */
const SWEPT = 100_000;

/**
 * kill -9 of the payins API in the middle of a payout's sweep (contract §19):
 * afterwards there is the whole payout or nothing — never a payout without
 * its debit, nor transactions marked for a payout that does not exist — and
 * the same request retried with its Idempotency-Key pays exactly once.
 */
describe('a payout killed in its sweep', () => {
  let bed: Testbed;
  let api: ApiProcess;
  let merchantId: string;
  let credentials: { apiKey: string; apiSecret: string };

  beforeAll(async () => {
    bed = await testbed({});
    merchantId = bed.tenant.merchants[0].merchantId;
    credentials = bed.tenant.merchants[0];
    const brou = ((await bed.merchant.get('/bank?country=URY')).body as { bankId: string; code: string }[]).find(
      (b) => b.code === '001',
    )!.bankId;
    await bed.merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, {
      bankId: brou,
      accountNumber: '00123456700001',
      accountType: 'SAVINGS',
    });
    // The merchant's available money, as many small movements (adjustments: available at once).
    await bed.dataSource.query(
      `INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net, available_on, source_id, description, created_at)
       SELECT gen_random_uuid(), $1, $2, 'UYU', 'ADJUSTMENT', 100, 0, 100, now() - interval '1 hour', gen_random_uuid(), 'crash test', now() - interval '1 hour'
       FROM generate_series(1, $3)`,
      [bed.tenant.business.businessId, merchantId, SWEPT],
    );
    const mail = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-payout-crash-mail-'));
    api = new ApiProcess('payins-api', await freePort(), {
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      SECRETS_MASTER_KEY: process.env.TEST_SECRETS_MASTER_KEY,
      MAIL_DIRECTORY: mail,
      SMTP_URL: '',
      LOG_LEVEL: 'silent',
      // The dead request's hold on its Idempotency-Key lapses quickly, so its retry may take it over.
      IDEMPOTENCY_LEASE_SECONDS: '2',
    });
    await api.start();
  }, 120_000);
  afterAll(async () => {
    await api.stop();
    await bed.close();
  });

  // Version 3, as payouts require (contract §29); a retry is signed again, with a nonce of its own, as a client's would be.
  const payout = (key: string) => {
    const body = JSON.stringify({ currency: 'UYU' });
    return fetch(`http://127.0.0.1:${api.port}/merchant/${merchantId}/payout`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signV3(credentials, 'POST', `/merchant/${merchantId}/payout`, body),
        'Idempotency-Key': key,
      },
      body,
    });
  };
  const state = async () => {
    const [row] = await bed.dataSource.query(
      `SELECT (SELECT count(*)::int FROM payout WHERE merchant_id = $1) AS payouts,
              (SELECT coalesce(sum(transaction_count), 0)::int FROM payout WHERE merchant_id = $1) AS counted,
              (SELECT count(*)::int FROM balance_transaction WHERE merchant_id = $1 AND type = 'PAYOUT') AS debits,
              (SELECT count(*)::int FROM balance_transaction WHERE merchant_id = $1 AND type <> 'PAYOUT' AND payout_id IS NOT NULL) AS swept,
              (SELECT coalesce(sum(net), 0)::bigint FROM balance_transaction WHERE merchant_id = $1) AS total,
              (SELECT coalesce(sum(net), 0)::bigint FROM balance_figure WHERE merchant_id = $1) AS figures`,
      [merchantId],
    );
    return { ...row, total: Number(row.total), figures: Number(row.figures) };
  };

  it('leaves the whole payout or nothing, and the retried request pays exactly once', async () => {
    const key = crypto.randomUUID();
    const inFlight = payout(key).catch(() => null);
    // The sweep's statement, seen running in the database: the process dies in it.
    let seen = false;
    for (let i = 0; i < 600 && !seen; i++) {
      const [running] = await bed.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%UPDATE balance_transaction SET payout_id%' AND pid <> pg_backend_pid()`,
      );
      seen = running.n > 0;
      if (!seen) await sleep(10);
    }
    api.kill();
    await inFlight;
    expect(seen).toBe(true);
    // PostgreSQL rolls back the dead client's transaction once it notices; until then its rows are locked and unseen.
    for (let i = 0; i < 300; i++) {
      const [open] = await bed.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%balance_transaction%' AND state <> 'idle' AND pid <> pg_backend_pid()`,
      );
      if (open.n === 0) break;
      await sleep(100);
    }
    const after = await state();
    // All or nothing: a payout with its debit and every transaction it counted, or none of them.
    if (after.payouts === 0) expect(after).toMatchObject({ counted: 0, debits: 0, swept: 0 });
    else expect(after).toMatchObject({ payouts: 1, debits: 1, swept: after.counted, counted: SWEPT });
    expect(after.figures).toBe(after.total);

    await api.start();
    // Until the dead request's lease on its key lapses, the retry is told it is still in progress (409).
    let retried = await payout(key);
    for (let i = 0; i < 50 && retried.status === 409; i++) {
      await sleep(200);
      retried = await payout(key);
    }
    expect(retried.status).toBe(200);
    const made = (await retried.json()) as { payoutId: string; amount: number; transactionCount: number };
    expect(made).toMatchObject({ amount: (SWEPT * 100) / 100, transactionCount: SWEPT });
    const again = (await (await payout(key)).json()) as { payoutId: string };
    expect(again.payoutId).toBe(made.payoutId);
    expect(await state()).toMatchObject({ payouts: 1, debits: 1, swept: SWEPT, counted: SWEPT, total: 0, figures: 0 });
  }, 120_000);
});
