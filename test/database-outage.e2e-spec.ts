import { EmbeddedDatabase, migrateDatabase, openEmbeddedPostgres } from '@pcs/database';
import { fitsWidth, hmacHex, launchChromium, screenshot, signV3 } from '@pcs/testing';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { Browser } from 'playwright-core';
import { admin, ApiProcess } from './api-process';
import { freePort } from './payins-app';
import { WebhookReceiver } from './webhook-receiver';

const OUTAGE_MS = 8_000;

type Credentials = { apiKey: string; apiSecret: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** One answer as a client saw it: status 0 is a socket closed or a timeout, never acceptable. */
interface Seen {
  readonly status: number;
  readonly ms: number;
  readonly body: Json | string | null;
  readonly retryAfter: string | null;
  readonly contentType: string | null;
  readonly sentAt: number;
}

async function call(
  port: number,
  method: string,
  route: string,
  options: { credentials?: Credentials; body?: unknown; key?: string; headers?: Record<string, string> } = {},
): Promise<Seen> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (options.credentials && method !== 'GET') {
    // Changes sign version 3 (contract §29: webhook endpoints and refunds take nothing else).
    Object.assign(headers, signV3(options.credentials, method, route, payload));
  } else if (options.credentials) {
    headers['api-key'] = options.credentials.apiKey;
    headers.signature = hmacHex(options.credentials.apiSecret, '{}');
  }
  if (payload) headers['content-type'] = 'application/json';
  if (options.key) headers['Idempotency-Key'] = options.key;
  const sentAt = Date.now();
  try {
    const response = await fetch(`http://127.0.0.1:${port}${route}`, {
      method,
      headers,
      body: payload,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    return {
      status: response.status,
      ms: Date.now() - sentAt,
      body: contentType?.includes('json') ? (JSON.parse(text) as Json) : text,
      retryAfter: response.headers.get('retry-after'),
      contentType,
      sentAt,
    };
  } catch {
    return { status: 0, ms: Date.now() - sentAt, body: null, retryAfter: null, contentType: null, sentAt };
  }
}

/**
 * The database crashes under load and comes back (contract §17, issue 19):
 * the built APIs run as processes of their own on a PostgreSQL server this
 * test starts, crashes (immediate shutdown: every connection cut at once, as
 * a failover or a killed server does) and starts again on the same port.
 */
describe('the database crashes under load and comes back', () => {
  let dataDir: string;
  let database: EmbeddedDatabase;
  let databaseUrl: string;
  let payins: ApiProcess;
  let b2b: ApiProcess;
  const receiver = new WebhookReceiver();
  let merchant: Credentials;
  let business: Credentials;
  let loading = false;
  let browser: Browser;

  const log = () => undefined;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-outage-'));
    fs.chmodSync(dataDir, 0o755);
    database = await openEmbeddedPostgres(dataDir, log);
    databaseUrl = database.url;
    await migrateDatabase(databaseUrl, log);
    const env: NodeJS.ProcessEnv = {
      DATABASE_URL: databaseUrl,
      SECRETS_MASTER_KEY: crypto.randomBytes(32).toString('base64'),
      MAIL_DIRECTORY: path.join(dataDir, 'mail'),
      DATA_DIR: path.join(dataDir, 'data'),
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      WEBHOOKS_ALLOW_LOCALHOST: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,2s,2s,5s',
      SWEEP_SECONDS: '1',
      DATABASE_POOL_SIZE: '10',
      // The load below spins as fast as the answers come (fast 503s while the database is down): quotas this test is not
      // about would answer some of it 429 on a busy machine. The limits themselves are tested in rate-limits.e2e-spec.ts.
      RATE_LIMIT_READS_PER_SECOND: '100000',
      RATE_LIMIT_WRITES_PER_SECOND: '100000',
    };
    const created = admin(env, 'business:create', '--name', 'Outage business') as Json;
    business = created as Credentials;
    merchant = admin(env, 'merchant:create', '--business', created.businessId, '--name', 'Outage shop', '--approve') as Credentials;
    payins = new ApiProcess('payins-api', await freePort(), env);
    b2b = new ApiProcess('b2b-api', await freePort(), env);
    [browser] = await Promise.all([launchChromium(), payins.start(), b2b.start(), receiver.start()]);
  }, 120_000);

  afterAll(async () => {
    loading = false;
    await Promise.all([payins?.stop(), b2b?.stop(), receiver.stop(), browser?.close()]);
    await database?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('answers fast 503s while it is down, stays up, and serves again within 10 s of its return with nothing lost', async () => {
    const endpoint = await call(payins.port, 'POST', '/webhook-endpoint', { credentials: business, body: { url: receiver.url } });
    expect(endpoint.status).toBe(200);
    const payer = await call(payins.port, 'POST', '/payer', { credentials: merchant, body: { firstName: 'Ana', lastName: 'Outage' } });
    expect(payer.status).toBe(200);
    const payerId = (payer.body as Json).payerId as string;

    // Steady signed load: creations with Idempotency-Key (one key each), ledger reads, B2B reads.
    const intentBody = (n: number) => ({
      currency: 'UYU',
      amount: 100 + n,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: `outage-${n}`,
      invoiceNumber: n + 1,
      payerId,
    });
    const creations = new Map<number, Seen>();
    const reads: Seen[] = [];
    let next = 0;
    loading = true;
    const creator = async () => {
      while (loading) {
        const n = next++;
        const seen = await call(payins.port, 'POST', '/payment-intent', { credentials: merchant, body: intentBody(n), key: `outage-${n}` });
        creations.set(n, seen);
        await sleep(seen.status === 200 ? 20 : 250); // a client backs off while it is refused
      }
    };
    const reader = async () => {
      while (loading) {
        reads.push(await call(payins.port, 'GET', '/payin?limit=5', { credentials: merchant }));
        reads.push(await call(b2b.port, 'GET', '/payment-intent?pageSize=5', { credentials: merchant }));
        await sleep(50);
      }
    };
    const load = Promise.all([creator(), creator(), creator(), reader()]);

    await sleep(1_500);
    const createdBeforeCrash = [...creations.values()].filter((seen) => seen.status === 200).length;
    expect(createdBeforeCrash).toBeGreaterThan(5);
    const crashedAt = Date.now();
    process.kill(database.pid!, 'SIGQUIT'); // immediate shutdown: connections cut, no checkpoint
    await sleep(1_500);

    // While it is down: fast 503s in the error shape, /health 503, pages that say "try again", /metrics and /docs up.
    const down = {
      health: await Promise.all([call(payins.port, 'GET', '/health'), call(b2b.port, 'GET', '/health')]),
      metrics: await call(payins.port, 'GET', '/metrics'),
      docs: await call(b2b.port, 'GET', '/docs-json'),
      payPage: await call(payins.port, 'GET', `/pay/${crypto.randomUUID()}`),
      payPageEn: await call(payins.port, 'GET', `/pay/${crypto.randomUUID()}`, { headers: { 'accept-language': 'en-GB,en;q=0.9' } }),
      checkout: await call(b2b.port, 'GET', `/checkout/chk_${crypto.randomBytes(12).toString('hex')}`),
      sandbox: await call(payins.port, 'GET', `/sandbox/gateway/${crypto.randomUUID()}`),
      b2bSigned: await call(b2b.port, 'GET', '/merchant/countries', { credentials: merchant }),
      unsigned: await call(payins.port, 'GET', '/merchant', { credentials: { apiKey: 'nobody', apiSecret: 'x' } }),
    };
    for (const health of down.health) {
      expect(health.status).toBe(503);
      expect(health.ms).toBeLessThan(5_000);
    }
    expect(down.metrics.status).toBe(200);
    expect(down.docs.status).toBe(200);
    for (const page of [down.payPage, down.checkout, down.sandbox]) {
      expect(page.status).toBe(503);
      expect(page.retryAfter).toMatch(/^\d+$/);
      expect(page.contentType).toContain('text/html');
      expect(page.body).toContain('Vuelva a intentar en un momento');
      expect(page.body).not.toMatch(/Error|at .*\.js|SQL/);
    }
    expect(down.payPageEn.body).toContain('Please try again in a moment');
    // What a payer sees, on a phone: the short page, readable at 390 px, with a way to try again.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-UY' });
    const page = await phone.newPage();
    const shown = await page.goto(`http://127.0.0.1:${payins.port}/pay/${crypto.randomUUID()}`);
    expect(shown?.status()).toBe(503);
    expect(await page.textContent('h1')).toBe('Vuelva a intentar en un momento');
    expect(await fitsWidth(page, '#retry')).toEqual({ pageFits: true, elementFits: true });
    await screenshot(page, 'database-down-pay-page-phone-es');
    await phone.close();
    expect(down.b2bSigned.status).toBe(503);
    expect((down.b2bSigned.body as Json).errorId).toBe('B2B:SERVICE_UNAVAILABLE');
    // Credentials cannot be checked without the database: unavailable, not "unauthorized".
    expect(down.unsigned.status).toBe(503);

    await sleep(Math.max(0, crashedAt + OUTAGE_MS - Date.now()));
    const returnedAt = Date.now();
    database = await openEmbeddedPostgres(dataDir, log, { port: database.port });

    // Serving again within 10 s, without a restart.
    const healthy = async (port: number) => {
      while (Date.now() - returnedAt < 15_000) {
        if ((await call(port, 'GET', '/health')).status === 200) return Date.now() - returnedAt;
        await sleep(100);
      }
      return Infinity;
    };
    const recovery = await Promise.all([healthy(payins.port), healthy(b2b.port)]);
    await sleep(2_000);
    loading = false;
    await load;
    process.stderr.write(`[outage] ${creations.size} creations, ${reads.length} reads; healthy again after ${recovery.join(' and ')} ms\n`);
    expect(Math.max(...recovery)).toBeLessThan(10_000);
    expect(payins.exits).toEqual([]);
    expect(b2b.exits).toEqual([]);

    // Every answer was a success or a quick 503 in the error shape: no 500, no closed socket, no hang.
    const answers = [...creations.values(), ...reads];
    for (const seen of answers) {
      expect([200, 503]).toContain(seen.status);
      if (seen.status !== 503) continue;
      expect(seen.ms).toBeLessThan(5_000);
      expect(seen.retryAfter).toMatch(/^\d+$/);
      const body = seen.body as Json;
      expect(body).toEqual({
        message: expect.any(String),
        showMessage: { EN: expect.any(String), ES: expect.any(String) },
        needUpdate: false,
        errorId: expect.stringMatching(/^(Payins|B2B):SERVICE_UNAVAILABLE$/),
      });
      expect(body.showMessage.ES).not.toBe(body.showMessage.EN);
    }
    expect(answers.filter((seen) => seen.status === 503).length).toBeGreaterThan(0);
    expect(answers.filter((seen) => seen.status === 200 && seen.sentAt > returnedAt).length).toBeGreaterThan(0);

    // Every creation, retried with its key, ends in exactly one payment intent; the acknowledged ones are the same intent.
    const intents = new Map<number, string>();
    for (const [n, seen] of creations) {
      let answer = seen;
      for (let attempt = 0; answer.status !== 200 && attempt < 40; attempt++) {
        answer = await call(payins.port, 'POST', '/payment-intent', { credentials: merchant, body: intentBody(n), key: `outage-${n}` });
        if (answer.status === 409) await sleep(500); // the key of a request cut by the crash is freed once the database is back
        // Retries as fast as these are pass the default write quota (50/s): wait as the answer says, as a client does.
        if (answer.status === 429) await sleep(Number(answer.retryAfter ?? '1') * 1000);
      }
      expect(answer.status).toBe(200);
      const id = (answer.body as Json).paymentIntent.paymentIntentId as string;
      if (seen.status === 200) expect(id).toBe((seen.body as Json).paymentIntent.paymentIntentId);
      intents.set(n, id);
    }
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ external_reference: string; count: string }>(
        `SELECT external_reference, count(*) FROM payment_intent WHERE external_reference LIKE 'outage-%' GROUP BY 1`,
      );
      expect(rows).toHaveLength(creations.size);
      expect(rows.every((row) => row.count === '1')).toBe(true);
      // Each process's change feed is listening again (the caches trust memory again).
      let feeds = 0;
      for (let i = 0; i < 50 && feeds < 2; i++, await sleep(200)) {
        feeds = Number((await db.query(`SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pcs change feed'`)).rows[0].count);
      }
      expect(feeds).toBe(2);
    } finally {
      await db.end();
    }

    // After the return, a new payment is announced as well.
    const after = await call(payins.port, 'POST', '/payment-intent', {
      credentials: merchant,
      body: intentBody(100_000),
      key: 'after-return',
    });
    expect(after.status).toBe(200);
    intents.set(100_000, (after.body as Json).paymentIntent.paymentIntentId);

    // Nothing acknowledged is lost: every payment intent's creation reaches the webhook receiver.
    const announced = () =>
      new Set(receiver.ofType('payment_intent.created').map((webhook) => webhook.event.data.object.paymentIntentId as string));
    await receiver.waitFor(() => [...intents.values()].every((id) => announced().has(id)), 60);
    expect([...intents.values()].filter((id) => !announced().has(id))).toEqual([]);
    expect(payins.running && b2b.running).toBe(true);
  }, 180_000);
});
