import { signV3 } from '@pcs/testing';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiProcess } from './api-process';
import { freePort } from './payins-app';
import { Testbed, testbed } from './testbed';

/**
 * Stopping an API (SIGTERM, as a deployment stops it) lets the requests in
 * flight finish, even those whose client already left: a refund under way
 * is sent and recorded, not left reserved for reconciliation, and the
 * database pool is closed only once no request uses it.
 */
describe('an API stopping with requests in flight', () => {
  let bed: Testbed;
  let api: ApiProcess;

  beforeAll(async () => {
    bed = await testbed({ payer: { firstName: 'Shut', lastName: 'Down' } });
    api = new ApiProcess('payins-api', await freePort(), {
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      SECRETS_MASTER_KEY: process.env.TEST_SECRETS_MASTER_KEY,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      MAIL_DIRECTORY: path.join(os.tmpdir(), 'pcs-test-mail'),
      // This run's database is shared with other spec files: this process sweeps nothing of theirs.
      SWEEP_SECONDS: '3600',
      RECONCILE_AFTER_SECONDS: '3600',
    });
    await api.start();
  }, 120_000);
  afterAll(async () => {
    await api.stop();
    await bed.close();
  }, 60_000);

  it('finishes every refund in flight before it closes its database, clients gone or not, and exits 0', async () => {
    const intents: string[] = [];
    for (let i = 0; i < 8; i++) intents.push(await bed.paidIntent(500));
    const merchant = bed.tenant.merchants[0];
    const body = JSON.stringify({ requestedRefundAmount: 1 });
    // Half the clients leave as soon as they have sent their refund; the others wait for the answer.
    const leaving = new AbortController();
    const refunds = Array.from({ length: 48 }, (_, n) =>
      fetch(`http://127.0.0.1:${api.port}/payment-intent/${intents[n % intents.length]}/refund`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signV3(merchant, 'POST', `/payment-intent/${intents[n % intents.length]}/refund`, body),
        },
        body,
        ...(n % 2 === 0 ? { signal: leaving.signal } : {}),
      }).then(
        (response) => response.status,
        (error: Error & { cause?: { code?: string } }) =>
          // Left on purpose; refused once the API stopped taking connections (a client may retry elsewhere); anything else was cut.
          error.name === 'AbortError'
            ? 'left'
            : error.cause?.code === 'ECONNREFUSED'
              ? 'refused'
              : `cut: ${error.cause?.code ?? error.message}`,
      ),
    );
    // Stopped while refunds are being written.
    for (let until = Date.now() + 10_000; Date.now() < until; await sleep(5)) {
      const [{ n }] = await bed.dataSource.query(
        `SELECT count(*)::int AS n FROM payin WHERE payment_intent_id = ANY($1) AND transaction_type = 'REFUND'`,
        [intents],
      );
      if (n >= 4) break;
    }
    leaving.abort();
    const stopped = api.stop();
    const answers = await Promise.all(refunds);
    await stopped;

    expect(api.exits).toEqual(['0']);
    // Answered, left or refused; never a connection cut by the stop.
    for (const answer of answers) expect([200, 'left', 'refused']).toContain(answer);
    expect(answers.filter((answer) => answer === 200).length).toBeGreaterThan(0);
    expect(api.output).not.toMatch(/DeprecationWarning|unhandled|Cannot use a pool after calling end/);
    const open = await bed.dataSource.query(
      `SELECT count(*)::int AS n FROM payin WHERE payment_intent_id = ANY($1) AND transaction_type = 'REFUND' AND status <> 'APPROVED'`,
      [intents],
    );
    expect(open).toEqual([{ n: 0 }]);
    // What each intent says it refunded is what its refund records add up to.
    const drift = await bed.dataSource.query(
      `SELECT i.payment_intent_id FROM payment_intent i
        WHERE i.payment_intent_id = ANY($1)
          AND i.refunded_amount <> (SELECT coalesce(sum(p.amount), 0) FROM payin p
                                     WHERE p.payment_intent_id = i.payment_intent_id AND p.transaction_type = 'REFUND')`,
      [intents],
    );
    expect(drift).toEqual([]);
  }, 60_000);
});
