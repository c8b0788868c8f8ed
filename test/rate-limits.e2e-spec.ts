import { NestExpressApplication } from '@nestjs/platform-express';
import { createTenant, errorShape, hmacHex, TestTenant } from '@pcs/testing';
import * as crypto from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { ApiProcess } from './api-process';
import { freePort } from './payins-app';
import { Testbed, testbed } from './testbed';

type Credentials = { apiKey: string; apiSecret: string };

const READS = 4;
const WRITES = 3;
const PER_ADDRESS = 5;

/** A documentation address (RFC 5737) of its own for each test: the limit counts per client address, told by the proxy in front. */
const addressOf = () => `203.0.113.${crypto.randomInt(1, 255)}`;

/**
 * Rate limits (contract §17): per api-key for signed reads and writes (bursts
 * of twice the rate), per client address for everything unauthenticated,
 * counted in PostgreSQL so that every process shares them.
 */
describe('rate limits', () => {
  let bed: Testbed;
  let app: NestExpressApplication;
  let tenant: TestTenant;

  beforeAll(async () => {
    // Behind a proxy on loopback (TRUST_PROXY=loopback): each test speaks for an address of its own through X-Forwarded-For.
    bed = await testbed({
      rateLimits: { readsPerSecond: READS, writesPerSecond: WRITES, addressPerSecond: PER_ADDRESS, trustProxy: 'loopback' },
    });
    ({ app, tenant } = bed);
  });
  afterAll(() => bed.close());

  const now = () => Math.floor(Date.now() / 1000);
  const signed = (
    method: 'get' | 'post',
    route: string,
    credentials: Credentials,
    body?: unknown,
    options: { at?: number; address?: string; signature?: string } = {},
  ) => {
    const payload = body === undefined ? '{}' : JSON.stringify(body);
    let test = request(app.getHttpServer())[method](route).set('api-key', credentials.apiKey);
    if (options.at !== undefined) test = test.set('timestamp', String(options.at));
    const base = options.at !== undefined ? `${options.at}.${payload}` : payload;
    test = test.set('signature', options.signature ?? hmacHex(credentials.apiSecret, base));
    if (options.address) test = test.set('x-forwarded-for', options.address);
    return body === undefined ? test : test.set('content-type', 'application/json').send(payload);
  };
  const payerBody = (n: number) => ({ firstName: 'Rate', lastName: `Limited ${n}` });
  const rateLimitedCount = async (limit: string) => {
    const text = (await request(app.getHttpServer()).get('/metrics')).text;
    return Number(new RegExp(`^pcs_rate_limited_total\\{limit="${limit}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  };
  /**
   * The probe sent while a one-second window is full: on a loaded machine a burst can straddle two windows, leaving the
   * probe a fresh one; then the window is filled again and the probe sent again (at most 5 times). The probe's answer
   * is the caller's to judge: this only makes sure it met a full window when one could be had.
   */
  const inFullWindow = async (
    fill: () => Promise<unknown>,
    probe: (attempt: number) => Promise<request.Response>,
    options: { filledAlready?: boolean } = {},
  ): Promise<request.Response> => {
    let response: request.Response | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      if (attempt > 0 || !options.filledAlready) await fill();
      response = await probe(attempt);
      if (response.status === 429) break;
    }
    return response!;
  };
  const expectRateLimited = (response: request.Response, quota?: number) => {
    expect(response.status).toBe(429);
    expect(response.body).toEqual(errorShape('Auth:RATE_LIMITED'));
    expect(response.body.showMessage.ES).toMatch(/Demasiadas solicitudes/);
    // Every window is one second: the wait is the rest of it, rounded up.
    expect(response.headers['retry-after']).toBe('1');
    if (quota !== undefined) {
      expect(response.headers['ratelimit-policy']).toBe(`"default";q=${quota};w=1`);
      expect(response.headers.ratelimit).toBe('"default";r=0;t=1');
    }
  };

  it('refuses a burst past the write limit with 429s, Retry-After and the draft headers, writes nothing for them, while another tenant gets 200s', async () => {
    const other = await createTenant(app);
    const before = await rateLimitedCount('writes');
    const startedAt = Date.now();
    const [flood, neighbour] = await Promise.all([
      Promise.all(Array.from({ length: 16 }, (_, n) => signed('post', '/payer', tenant.merchants[0], payerBody(n)))),
      Promise.all(Array.from({ length: WRITES }, (_, n) => signed('post', '/payer', other.merchants[0], payerBody(n)))),
    ]);
    const windows = 1 + Math.ceil((Date.now() - startedAt) / 1000);

    const passed = flood.filter((r) => r.status === 200);
    const refused = flood.filter((r) => r.status !== 200);
    // The rate and its burst pass at once (twice the rate); beyond that, the rate again in each new second at most.
    expect(passed.length).toBeGreaterThanOrEqual(2 * WRITES);
    expect(passed.length).toBeLessThanOrEqual(2 * WRITES + WRITES * (windows - 1));
    expect(refused.length).toBeGreaterThan(0);
    for (const response of refused) expectRateLimited(response, WRITES);
    for (const response of passed) {
      expect(response.headers['ratelimit-policy']).toBe(`"default";q=${WRITES};w=1`);
      expect(response.headers.ratelimit).toMatch(new RegExp(`^"default";r=[0-${WRITES - 1}];t=[01]$`));
    }
    // The other tenant, at the same moment, is not touched by this one's flood.
    expect(neighbour.map((r) => r.status)).toEqual(Array(WRITES).fill(200));

    // A refused write wrote nothing.
    const [{ n }] = await bed.dataSource.query(`SELECT count(*)::int AS n FROM payer WHERE merchant_id = $1 AND first_name = 'Rate'`, [
      tenant.merchants[0].merchantId,
    ]);
    expect(n).toBe(passed.length);
    expect((await rateLimitedCount('writes')) - before).toBe(refused.length);

    // Retry-After is right: after it, writes pass again.
    await sleep(Number(refused[0].headers['retry-after']) * 1000 + 100);
    expect((await signed('post', '/payer', tenant.merchants[0], payerBody(99))).status).toBe(200);
  });

  it('counts reads apart from writes', async () => {
    const merchant = (await createTenant(app)).merchants[0];
    const writes = await Promise.all(Array.from({ length: 12 }, (_, n) => signed('post', '/payer', merchant, payerBody(n))));
    expect(writes.some((r) => r.status === 429)).toBe(true);
    const read = await signed('get', '/payer?limit=1', merchant);
    expect(read.status).toBe(200);
    expect(read.headers['ratelimit-policy']).toBe(`"default";q=${READS};w=1`);
    const reads = await Promise.all(Array.from({ length: 14 }, () => signed('get', '/payer?limit=1', merchant)));
    for (const response of reads.filter((r) => r.status !== 200)) expectRateLimited(response, READS);
    expect(reads.some((r) => r.status === 429)).toBe(true);
  });

  it('lets a version 2 change refused for its rate be sent again unchanged after Retry-After, and then only once', async () => {
    const merchant = (await createTenant(app)).merchants[0];
    let at = now();
    let body = { firstName: 'Sent', lastName: 'Again' };
    const refused = await inFullWindow(
      () => Promise.all(Array.from({ length: 12 }, (_, n) => signed('post', '/payer', merchant, payerBody(n)))),
      (attempt) => {
        [at, body] = [now(), { firstName: 'Sent', lastName: `Again ${attempt}` }];
        return signed('post', '/payer', merchant, body, { at });
      },
    );
    expectRateLimited(refused, WRITES);
    await sleep(Number(refused.headers['retry-after']) * 1000 + 100);
    expect((await signed('post', '/payer', merchant, body, { at })).status).toBe(200);
    const replay = await signed('post', '/payer', merchant, body, { at });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual(errorShape('Auth:UNAUTHORIZED'));
  });

  it("does not let replays of a captured change spend the victim's write quota (a replay is refused before it is counted, and counts against the replaying address)", async () => {
    const merchant = (await createTenant(app)).merchants[0];
    const at = now();
    const body = { firstName: 'Captured', lastName: 'Once' };
    expect((await signed('post', '/payer', merchant, body, { at })).status).toBe(200);
    const attacker = addressOf();
    const replays = await Promise.all(Array.from({ length: 8 }, () => signed('post', '/payer', merchant, body, { at, address: attacker })));
    expect(replays.map((r) => r.status)).toEqual(Array(8).fill(401));
    // The merchant's own writes still have their whole quota: 1 + 5 fits twice the rate.
    const own = await Promise.all(Array.from({ length: 5 }, (_, n) => signed('post', '/payer', merchant, payerBody(n))));
    expect(own.map((r) => r.status)).toEqual(Array(5).fill(200));
  });

  it('throttles wrong signatures per address: then even a right one waits, other addresses do not, and /health and /metrics always answer', async () => {
    const address = addressOf();
    const merchant = tenant.merchants[0];
    const before = await rateLimitedCount('address');
    const wrong = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        signed('get', '/payer?limit=1', merchant, undefined, { address, signature: 'ab'.repeat(32) + n }),
      ),
    );
    const statuses = wrong.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(2 * PER_ADDRESS);
    const throttled = wrong.filter((r) => r.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    for (const response of throttled) {
      expectRateLimited(response);
      // No api-key was verified: no api-key's quota is shown.
      expect(response.headers['ratelimit-policy']).toBeUndefined();
    }

    // This address is refused before anything is verified, even with a right signature; another address is not.
    expectRateLimited(
      await inFullWindow(
        () =>
          Promise.all(
            Array.from({ length: 2 * PER_ADDRESS }, (_, n) =>
              signed('get', '/payer?limit=1', merchant, undefined, { address, signature: 'cd'.repeat(32) + n }),
            ),
          ),
        () => signed('get', '/payer?limit=1', merchant, undefined, { address }),
        { filledAlready: true },
      ),
    );
    expect((await signed('get', '/payer?limit=1', merchant, undefined, { address: addressOf() })).status).toBe(200);
    for (const route of ['/health', '/metrics']) {
      expect((await request(app.getHttpServer()).get(route).set('x-forwarded-for', address)).status).toBe(200);
    }
    expect((await rateLimitedCount('address')) - before).toBeGreaterThanOrEqual(throttled.length + 1);

    await sleep(1100);
    expect((await signed('get', '/payer?limit=1', merchant, undefined, { address })).status).toBe(200);
  });

  it("limits a payer's page per address, answering a page in the payer's language", async () => {
    const address = addressOf();
    const pages = await Promise.all(
      Array.from({ length: 16 }, () =>
        request(app.getHttpServer()).get(`/pay/${crypto.randomUUID()}`).set('x-forwarded-for', address).set('accept-language', 'en'),
      ),
    );
    const refused = pages.filter((r) => r.status === 429);
    expect(pages.filter((r) => r.status === 404).length).toBeGreaterThanOrEqual(2 * PER_ADDRESS);
    expect(refused.length).toBeGreaterThan(0);
    for (const page of refused) {
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['retry-after']).toBe('1');
      expect(page.text).toContain('Please try again in a moment');
    }
  });
});

/**
 * Two API processes on one database share every limit: the counters are in
 * PostgreSQL, not in a process. And a version 2 change accepted by one process
 * is a replay at the other.
 */
describe('rate limits and replays across two API processes', () => {
  let bed: Testbed;
  const processes: ApiProcess[] = [];
  let merchant: Credentials;

  beforeAll(async () => {
    bed = await testbed({});
    merchant = bed.tenant.merchants[0];
    const env: NodeJS.ProcessEnv = {
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      SECRETS_MASTER_KEY: process.env.TEST_SECRETS_MASTER_KEY,
      RATE_LIMIT_WRITES_PER_SECOND: '2',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      MAIL_DIRECTORY: path.join(os.tmpdir(), 'pcs-test-mail'),
      // This run's database is shared with other spec files: these processes sweep nothing of theirs.
      SWEEP_SECONDS: '3600',
      RECONCILE_AFTER_SECONDS: '3600',
    };
    processes.push(new ApiProcess('payins-api', await freePort(), env), new ApiProcess('payins-api', await freePort(), env));
    await Promise.all(processes.map((p) => p.start()));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await bed.close();
  }, 60_000);

  const post = (port: number, body: unknown, at?: number) => {
    const payload = JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'api-key': merchant.apiKey };
    if (at !== undefined) headers.timestamp = String(at);
    headers.signature = hmacHex(merchant.apiSecret, at !== undefined ? `${at}.${payload}` : payload);
    return fetch(`http://127.0.0.1:${port}/payer`, { method: 'POST', headers, body: payload });
  };

  it('counts one api-key once across both processes', async () => {
    const startedAt = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, n) => post(processes[n % 2].port, { firstName: 'Two', lastName: `Processes ${n}` })),
    );
    const windows = 1 + Math.ceil((Date.now() - startedAt) / 1000);
    const passed = answers.filter((r) => r.status === 200).length;
    // Each process counting alone would pass 4 each (8); shared, 4 pass, and 2 more in each new second at most.
    expect(passed).toBeGreaterThanOrEqual(4);
    expect(passed).toBeLessThanOrEqual(4 + 2 * (windows - 1));
    for (const answer of answers.filter((r) => r.status !== 200)) {
      expect(answer.status).toBe(429);
      expect(answer.headers.get('retry-after')).toBe('1');
    }
  });

  it('refuses at one process the replay of a version 2 change the other accepted', async () => {
    await sleep(1100);
    const at = Math.floor(Date.now() / 1000);
    const body = { firstName: 'Replayed', lastName: 'Elsewhere' };
    expect((await post(processes[0].port, body, at)).status).toBe(200);
    const replay = await post(processes[1].port, body, at);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual(errorShape('Auth:UNAUTHORIZED'));
  });
});
