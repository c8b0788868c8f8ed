import { EmbeddedDatabase, migrateDatabase, openEmbeddedPostgres, openEmbeddedStandby } from '@pcs/database';
import { hmacHex, signV3 } from '@pcs/testing';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { admin, ApiProcess } from './api-process';
import { freePort } from './payins-app';

type Credentials = { apiKey: string; apiSecret: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** The staleness bound of this test's API (DATABASE_REPLICA_MAX_LAG_SECONDS). */
const MAX_LAG_SECONDS = 5;

/**
 * A real primary and a real streaming replica (docs/scale-out.md): two embedded
 * PostgreSQL servers, the second a hot standby made from a base backup of
 * the first and streaming its WAL. The payins API reads the ledger and
 * balance transactions on the replica within the staleness bound, and
 * everything else (the writes, the intent, the balance) on the primary.
 * Which server answered is told by pausing the replica's replay: what it has
 * not replayed, it cannot show.
 */
describe('a streaming read replica', () => {
  let dataDir: string;
  let primary: EmbeddedDatabase;
  let replica: EmbeddedDatabase;
  let replicaClient: Client;
  let api: ApiProcess;
  let env: NodeJS.ProcessEnv;
  let merchant: Credentials;
  let merchantId: string;
  let payerId: string;
  let instrumentId: string;
  /** The payment created while the replica's replay was paused. */
  let paidDuringPause = '';

  const log = (line: string) => {
    if (process.env.DEBUG_REPLICA) process.stderr.write(`${line}\n`);
  };
  const call = async (method: string, route: string, body?: unknown, port = api.port): Promise<{ status: number; body: Json }> => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    // Reads version 1 (this test is about where they are served); changes version 3, which a body-less one needs (contract §29).
    const headers: Record<string, string> =
      method === 'GET'
        ? { 'api-key': merchant.apiKey, signature: hmacHex(merchant.apiSecret, '{}') }
        : signV3(merchant, method, route, payload);
    if (payload) headers['content-type'] = 'application/json';
    const response = await fetch(`http://127.0.0.1:${port}${route}`, { method, headers, body: payload });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const readsBy = async (target: 'replica' | 'primary', port = api.port) => {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    return Number(new RegExp(`^pcs_replica_reads_total\\{target="${target}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  };
  const charge = async (reference: string) => {
    const created = await call('POST', '/payment-intent', {
      currency: 'UYU',
      amount: 250,
      payinType: 'DEFAULT',
      externalReference: reference,
      payerId,
      offSession: true,
      invoiceNumber: 1,
      country: 'URY',
      paymentInstrumentId: instrumentId,
      confirm: true,
    });
    expect(created.status).toBe(200);
    return created.body.paymentIntent.paymentIntentId as string;
  };
  /** The ledger's and the balance transactions' references of this merchant, as the API reads them. */
  const ledgerReferences = async () => {
    const ledger = await call('GET', `/payin?limit=100&merchantId=${merchantId}`);
    expect(ledger.status).toBe(200);
    return JSON.stringify(ledger.body);
  };
  const balanceTransactions = async () => {
    const listed = await call('GET', `/balance-transaction?merchantId=${merchantId}&limit=100`);
    expect(listed.status).toBe(200);
    return listed.body[0].results as Json[];
  };
  const waitFor = async (what: () => Promise<boolean>, ms: number) => {
    const until = Date.now() + ms;
    while (!(await what())) {
      if (Date.now() > until) throw new Error('timed out');
      await sleep(100);
    }
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-replica-'));
    fs.chmodSync(dataDir, 0o755);
    const primaryDir = path.join(dataDir, 'primary');
    primary = await openEmbeddedPostgres(primaryDir, log);
    await migrateDatabase(primary.url, log);
    replica = await openEmbeddedStandby({ url: primary.url, dataDir: primaryDir }, path.join(dataDir, 'replica'), log);
    replicaClient = new Client({ connectionString: replica.url });
    // The last test stops the replica under this connection too.
    replicaClient.on('error', () => undefined);
    await replicaClient.connect();
    env = {
      DATABASE_URL: primary.url,
      DATABASE_REPLICA_URL: replica.url,
      DATABASE_REPLICA_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS),
      SECRETS_MASTER_KEY: crypto.randomBytes(32).toString('base64'),
      DATA_DIR: path.join(dataDir, 'data'),
      MAIL_DIRECTORY: path.join(dataDir, 'mail'),
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    };
    const business = admin(env, 'business:create', '--name', 'Replica business') as Json;
    const created = admin(env, 'merchant:create', '--business', business.businessId, '--name', 'Replica shop', '--approve') as Json;
    merchant = created as Credentials;
    merchantId = created.merchantId as string;
    api = new ApiProcess('payins-api', await freePort(), env);
    await api.start();
    payerId = (await call('POST', '/payer', { firstName: 'Réplica', lastName: 'Lectora' })).body.payerId;
    instrumentId = (await call('POST', '/payment-instrument', { payerId, paymentMethodName: 'VISA', country: 'URY' })).body
      .paymentInstrumentId;
  }, 180_000);

  afterAll(async () => {
    await api?.stop();
    await replicaClient?.end().catch(() => undefined);
    await replica?.stop();
    await primary?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('is a hot standby streaming from the primary, which refuses writes', async () => {
    const [{ standby }] = (await replicaClient.query('SELECT pg_is_in_recovery() AS standby')).rows;
    expect(standby).toBe(true);
    await expect(replicaClient.query(`INSERT INTO business (name) VALUES ('nope')`)).rejects.toThrow(/read-only transaction/);
    const primaryClient = new Client({ connectionString: primary.url });
    await primaryClient.connect();
    try {
      const { rows } = await primaryClient.query(`SELECT state FROM pg_stat_replication`);
      expect(rows).toEqual([{ state: 'streaming' }]);
    } finally {
      await primaryClient.end();
    }
  });

  it('reads the ledger and balance transactions on the replica and writes on the primary', async () => {
    const first = await charge('replica-before-pause');
    // Streamed within moments: the replica shows what the primary committed, once the API has dated it (its first probe
    // may find it just behind: the replica is read from the next, a second later) and reads it.
    await waitFor(async () => {
      const before = await readsBy('replica');
      return (await ledgerReferences()).includes(first) && (await readsBy('replica')) > before;
    }, 10_000);
    expect((await balanceTransactions()).length).toBe(1);

    // The replica stops replaying: writes go on (they never touch it), and its reads no longer see them.
    await replicaClient.query('SELECT pg_wal_replay_pause()');
    try {
      const replicaReadsBefore = await readsBy('replica');
      const second = (paidDuringPause = await charge('replica-during-pause'));
      // The intent itself reads the primary: there at once.
      const intent = await call('GET', `/payment-intent/${second}`);
      expect(intent.status).toBe(200);
      expect(intent.body).toMatchObject({ paymentIntentStatus: 'SUCCEEDED', receivedAmount: 250 });
      // The ledger and the balance transactions read the replica, within the bound: not there yet.
      expect(await ledgerReferences()).not.toContain(second);
      expect((await balanceTransactions()).length).toBe(1);
      expect((await readsBy('replica')) - replicaReadsBefore).toBeGreaterThanOrEqual(2);

      // Past the bound, the replica is no longer read: the same reads go to the primary and see the change.
      await waitFor(async () => (await ledgerReferences()).includes(second), (MAX_LAG_SECONDS + 5) * 1000);
      expect((await balanceTransactions()).length).toBe(2);
      const [replicaReads, primaryReads] = [await readsBy('replica'), await readsBy('primary')];
      await ledgerReferences();
      expect((await readsBy('replica')) - replicaReads).toBe(0);
      expect((await readsBy('primary')) - primaryReads).toBeGreaterThan(0);
    } finally {
      await replicaClient.query('SELECT pg_wal_replay_resume()');
    }

    // Caught up again, reads return to the replica.
    await waitFor(async () => {
      const before = await readsBy('replica');
      await ledgerReferences();
      return (await readsBy('replica')) > before;
    }, 10_000);
    expect((await balanceTransactions()).length).toBe(2);
  });

  it('starts and serves from the primary when its replica cannot be reached', async () => {
    // A replica URL where nothing listens: the API starts all the same, and the replica's reads go to the primary.
    const nowhere = `postgres://postgres@127.0.0.1:${await freePort()}/payments`;
    const alone = new ApiProcess('payins-api', await freePort(), { ...env, DATABASE_REPLICA_URL: nowhere });
    await alone.start();
    try {
      const before = await readsBy('primary', alone.port);
      const ledger = await call('GET', `/payin?limit=100&merchantId=${merchantId}`, undefined, alone.port);
      expect(ledger.status).toBe(200);
      expect(paidDuringPause).not.toBe('');
      expect(JSON.stringify(ledger.body)).toContain(paidDuringPause);
      expect((await readsBy('primary', alone.port)) - before).toBeGreaterThan(0);
      expect(await readsBy('replica', alone.port)).toBe(0);
      const metrics = await (await fetch(`http://127.0.0.1:${alone.port}/metrics`)).text();
      expect(metrics).toMatch(/^pcs_replica_lag_seconds -1$/m);
    } finally {
      await alone.stop();
    }
  });

  it('answers from the primary when the replica goes away under it', async () => {
    // The replica was being read: it stops, and the next reads are answered all the same (by the primary).
    const before = await readsBy('replica');
    await ledgerReferences();
    expect((await readsBy('replica')) - before).toBe(1 + 1); // the page and its payout ids
    await replica.stop();
    const answers = await Promise.all([ledgerReferences(), balanceTransactions()]);
    expect(answers[0]).toContain(paidDuringPause);
    expect(answers[1].length).toBe(2);
    await sleep(1500);
    const metrics = await (await fetch(`http://127.0.0.1:${api.port}/metrics`)).text();
    expect(metrics).toMatch(/^pcs_replica_lag_seconds -1$/m);
  });
});
