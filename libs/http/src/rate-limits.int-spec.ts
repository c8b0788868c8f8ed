import { DEFAULT_RATE_LIMITS, RuntimeSettings } from '@pcs/config';
import { serviceContext, ServiceContext } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { LimitVerdict, RateLimits } from './rate-limits';

/**
 * The limits' leases (contract §17, issue 34): a busy key is counted in
 * PostgreSQL a lease at a time, not a request at a time, and two processes
 * sharing one count never let more pass than the quota and its burst.
 * Two RateLimits over one real database stand for two processes.
 */
describe('rate limits counted in leases', () => {
  let services: ServiceContext;
  const made: RateLimits[] = [];

  beforeAll(async () => {
    services = await serviceContext([], { poolSize: 4 });
  });
  afterAll(async () => {
    for (const limits of made) limits.onModuleDestroy();
    await services.close();
  });

  const limitsOf = (writesPerSecond: number) => {
    const limits = new RateLimits(services.dataSource, {
      rateLimits: { ...DEFAULT_RATE_LIMITS, writesPerSecond },
      preparedStatements: true,
    } as unknown as RuntimeSettings);
    made.push(limits);
    return limits;
  };
  /** The pool the store's upserts go through (rate-limiter-flexible asks TypeORM's driver for it). */
  const pool = () => (services.dataSource.driver as unknown as { master: { query: (...args: unknown[]) => unknown } }).master;
  const keyOf = () => `lease-${crypto.randomUUID()}`;
  /** The shared count of a key's current window: what every process together took. */
  const counted = async (key: string, kind: 'writes' | 'writes-burst' = 'writes') => {
    const rows: { points: number }[] = await services.dataSource.query('SELECT points FROM rate_limit WHERE key = $1', [`${kind}:${key}`]);
    return rows[0]?.points ?? 0;
  };

  it("counts a key's first request in a window alone, and grows its lease only while the key keeps spending it", async () => {
    const limits = limitsOf(50);
    const key = keyOf();
    const verdicts: LimitVerdict[] = [(await limits.count('writes', key))!];
    expect(await counted(key)).toBe(1);
    // Spent within its window: the next lease is 2, then 4 (the headers count what this process holds as remaining).
    for (let n = 0; n < 6; n++) verdicts.push((await limits.count('writes', key))!);
    expect(verdicts.map((v) => v.allowed)).toEqual(Array(7).fill(true));
    expect(verdicts.map((v) => v.remaining)).toEqual([49, 48, 47, 46, 45, 44, 43]);
    expect(await counted(key)).toBe(1 + 2 + 4);
  });

  it('asks the database for a busy key a lease at a time: far fewer statements than requests, never more passed than counted', async () => {
    const limits = limitsOf(1000);
    const key = keyOf();
    const query = jest.spyOn(pool(), 'query');
    try {
      const verdicts = await Promise.all(Array.from({ length: 400 }, () => limits.count('writes', key)));
      const statements = query.mock.calls.length;
      expect(verdicts.every((v) => v!.allowed)).toBe(true);
      // Leases double from 1 up to a twentieth of the quota (50): 400 requests take a few upserts, not 400.
      expect(statements).toBeLessThan(30);
      // What passed was counted in the shared count before it passed; what is held unspent is at most two leases (a tenth of the quota).
      const total = await counted(key);
      expect(total).toBeGreaterThanOrEqual(400);
      expect(total).toBeLessThanOrEqual(400 + 100);
    } finally {
      query.mockRestore();
    }
  });

  it('lets two processes together pass the quota and its burst, and not one request more', async () => {
    const quota = 50;
    const [first, second] = [limitsOf(quota), limitsOf(quota)];
    // The burst must fit one one-second window: on a loaded machine 300 requests can straddle two (each with its own
    // quota), and the scenario is played again with a new key (at most 4 times); the assertions below are unchanged.
    let key = keyOf();
    let verdicts: (LimitVerdict | null)[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      key = keyOf();
      const started = Date.now();
      verdicts = await Promise.all(Array.from({ length: 300 }, (_, n) => (n % 2 ? first : second).count('writes', key)));
      if (Date.now() - started < 800) break;
    }
    const passed = verdicts.filter((v) => v!.allowed).length;
    // Both processes spend every lease they take (each has 150 requests to pass): nothing is stranded, nothing passes twice.
    expect(passed).toBe(2 * quota);
    // What passed out of the burst says so: nothing left of the window's quota (r=0).
    expect(verdicts.filter((v) => v!.allowed && v!.remaining > 0).length).toBeLessThanOrEqual(quota);
    expect(verdicts.filter((v) => v!.allowed && v!.remaining === 0).length).toBeGreaterThanOrEqual(quota);
    for (const verdict of verdicts.filter((v) => !v!.allowed)) {
      expect(verdict!.remaining).toBe(0);
      expect(verdict!.resetSeconds).toBe(1);
    }
    expect(await counted(key)).toBeGreaterThanOrEqual(quota);
    expect(await counted(key, 'writes-burst')).toBeGreaterThanOrEqual(quota);
    // Refused from memory until the window ends, at either process, without asking the database.
    const query = jest.spyOn(pool(), 'query');
    try {
      expect((await first.count('writes', key))!.allowed).toBe(false);
      expect((await second.count('writes', key))!.allowed).toBe(false);
      expect(query).not.toHaveBeenCalled();
    } finally {
      query.mockRestore();
    }
  });

  it('starts a busy key afresh in the next window', async () => {
    const limits = limitsOf(20);
    const key = keyOf();
    const startedAt = Date.now();
    const first = await Promise.all(Array.from({ length: 60 }, () => limits.count('writes', key)));
    expect(first.filter((v) => v!.allowed).length).toBe(40);
    // A key's window starts at its first count and lasts a second.
    await sleep(Math.max(0, startedAt + 1100 - Date.now()));
    const next = await Promise.all(Array.from({ length: 30 }, () => limits.count('writes', key)));
    // The rate's window turned; the burst's (10 s) is still spent: the rate alone passes.
    expect(next.filter((v) => v!.allowed).length).toBe(20);
  });
});
