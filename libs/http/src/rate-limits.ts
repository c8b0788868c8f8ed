/*
 * Why one file: the rate limits of contract §17 (the counters, their windows, the address block): one algorithm
 * in one place.
 */
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RateLimitSettings, RuntimeSettings } from '@pcs/config';
import { metrics } from '@pcs/observability';
import type { Response } from 'express';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, RLWrapperTimeouts } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';

/** Which limit a request counts against (contract §17). */
export type LimitScope = 'reads' | 'writes' | 'address';

/** What one request's count says: whether it may go on, and what the headers tell the caller. */
export interface LimitVerdict {
  readonly allowed: boolean;
  /** Requests per window (the burst on top is not promised in the headers). */
  readonly quota: number;
  readonly windowSeconds: number;
  readonly remaining: number;
  /** Seconds until the window starts afresh; for a refused request, how long to wait (Retry-After). */
  readonly resetSeconds: number;
}

/** The window of every limit: a rate per second. */
const WINDOW_SECONDS = 1;
/**
 * The burst: once a second's quota is spent, as many requests again may pass
 * from a second budget that refills every 10 seconds. A client may send twice
 * its rate in one second, and sustain its rate (plus a tenth) for ever.
 */
const BURST_WINDOW_SECONDS = 10;
/**
 * How long a count may wait for the database before the process counts alone
 * (in memory, the same quota): a slow or absent database never adds more than
 * this to a request, and never opens the door to a flood either.
 */
const STORE_TIMEOUT_MS = 1000;
const PURGE_EVERY_MS = 5 * 60_000;

/**
 * How many requests one process takes from a key's shared count at a time
 * (its lease) at most: a twentieth of the quota. A process holds at most a
 * lease and the next one taken ahead, so what it holds unspent when a window
 * ends (and other processes could not use) is at most a tenth of the quota;
 * no process ever lets pass more than it took.
 */
const LEASE_SHARE = 20;
const LEASE_CAP = 1000;
/** Leases of keys whose window has ended are forgotten this often. */
const FORGET_EVERY_MS = 10_000;

/** Requests one process may still let pass for a key in the current window, taken from the shared count. */
interface Lease {
  /** Requests left in the lease. */
  tokens: number;
  /** When the window the lease belongs to ends (epoch ms); a lease outlives nothing. */
  endsAt: number;
  /** What the shared count said was left of the rate when the lease was taken (the headers' `r`, with the lease's own). */
  remainingElsewhere: number;
  /** Whether the lease came (partly) out of the burst: the window's quota is spent (r=0). */
  fromBurst: boolean;
  /** How many requests the next lease asks for: 1 for a quiet key, doubling while the key keeps spending its leases. */
  size: number;
  /** Until when the key is refused without asking the database (both budgets spent), or 0. */
  refusedUntil: number;
  /** The refill in flight, if any: requests that find the lease empty wait for it rather than asking again. */
  refilling?: Promise<void>;
  /** A lease taken ahead that fell in the next window: it starts when this one ends. */
  next?: { tokens: number; endsAt: number; remainingElsewhere: number; fromBurst: boolean };
}

/** Leases this large or larger are refilled ahead of need (smaller ones would strand more than they save). */
const AHEAD_FROM = 8;
/** Two windows' ends closer than this are the same window (both read from the same row's expiry). */
const SAME_WINDOW_MS = 20;

/**
 * One rate with its burst, counted in PostgreSQL (rate-limiter-flexible's
 * store, one upsert on the app's own pool, shared by every process of every
 * API) but asked in leases: a process takes a few requests of a key's quota
 * at once and lets them pass from memory, refilling in the background when
 * half is spent. A quiet key asks for one request at a time (the count is
 * exact); a busy key's lease doubles up to a twentieth of its quota, so that a
 * key at full rate costs the database about twenty upserts a second per
 * process instead of one per request. The sum of the leases never exceeds
 * what the shared count allows: limits hold across processes; what a
 * process leaves unspent when a window ends is at most a tenth of the quota
 * that other processes could not use in that window. A key over its quota is refused
 * from memory until its window ends.
 */
class Quota {
  private readonly rate: Counter;
  private readonly burst: Counter;
  private readonly leases = new Map<string, Lease>();
  private readonly maxLease: number;
  private readonly forgetting: NodeJS.Timeout;

  constructor(
    store: StatementClient,
    name: string,
    readonly perSecond: number,
  ) {
    this.rate = counter(store, name, perSecond * WINDOW_SECONDS, WINDOW_SECONDS);
    this.burst = counter(store, `${name}-burst`, perSecond, BURST_WINDOW_SECONDS);
    this.maxLease = Math.min(LEASE_CAP, Math.max(1, Math.floor((perSecond * WINDOW_SECONDS) / LEASE_SHARE)));
    this.forgetting = setInterval(() => this.forgetEnded(), FORGET_EVERY_MS).unref();
  }

  async consume(key: string): Promise<LimitVerdict> {
    const quota = this.perSecond * WINDOW_SECONDS;
    let lease = this.leases.get(key);
    if (!lease) this.leases.set(key, (lease = { tokens: 0, endsAt: 0, remainingElsewhere: 0, fromBurst: false, size: 1, refusedUntil: 0 }));
    for (;;) {
      const now = Date.now();
      if (lease.refusedUntil > now) return refused(quota, lease.refusedUntil - now);
      if ((lease.tokens === 0 || lease.endsAt <= now) && lease.next && lease.next.endsAt > now)
        Object.assign(lease, lease.next, { next: undefined });
      if (lease.tokens > 0 && lease.endsAt > now) {
        lease.tokens -= 1;
        // A busy key's lease half spent: the next is asked for now, while this one still lets requests pass.
        if (lease.size >= AHEAD_FROM && lease.tokens <= lease.size >> 1 && !lease.refilling && !lease.next)
          void this.refill(key, lease, true);
        // Out of the burst, nothing is left of the window's quota (r=0); otherwise what the count had left, and this lease.
        const remaining = lease.fromBurst ? 0 : lease.remainingElsewhere + lease.tokens;
        return { allowed: true, quota, windowSeconds: WINDOW_SECONDS, remaining, resetSeconds: Math.ceil((lease.endsAt - now) / 1000) };
      }
      await (lease.refilling ?? this.refill(key, lease, false));
    }
  }

  /** Takes the next lease from the shared count (the rate first, then the burst); a failure of the store is the caller's. */
  private refill(key: string, lease: Lease, ahead: boolean): Promise<void> {
    const taking = this.take(key, lease, ahead).finally(() => {
      if (lease.refilling === taking) lease.refilling = undefined;
    });
    lease.refilling = taking;
    // Taken ahead of need, a failure waits for the request that needs the lease, which asks again.
    if (ahead) taking.catch(() => undefined);
    return taking;
  }

  private async take(key: string, lease: Lease, ahead: boolean): Promise<void> {
    const now = Date.now();
    const current = lease.endsAt > now;
    // A key that spends its lease within its window asks for twice as much next; one that left some unspent, for half.
    lease.size = current ? Math.min(this.maxLease, lease.size * 2) : Math.max(1, lease.size >> 1);
    const want = lease.size;
    const fromRate = await grant(this.rate, key, want);
    let granted = fromRate.granted;
    let endsAt = now + fromRate.result.msBeforeNext;
    if (granted < want) {
      const fromBurst = await grant(this.burst, key, want - granted);
      granted += fromBurst.granted;
      if (granted === 0) {
        // Both budgets spent: refused from memory until the sooner of the two frees a request.
        if (!ahead || lease.tokens === 0)
          lease.refusedUntil = now + Math.max(1, Math.min(fromRate.result.msBeforeNext, fromBurst.result.msBeforeNext));
        return;
      }
      // Burst requests are spent within the rate's window they were taken in, like the rate's own.
      endsAt = Math.min(endsAt, now + fromBurst.result.msBeforeNext);
    }
    const taken = { tokens: granted, endsAt, remainingElsewhere: fromRate.result.remainingPoints, fromBurst: fromRate.granted < want };
    const live = lease.endsAt > Date.now() && lease.tokens > 0;
    if (live && Math.abs(lease.endsAt - endsAt) <= SAME_WINDOW_MS) {
      Object.assign(lease, { tokens: lease.tokens + granted, remainingElsewhere: taken.remainingElsewhere, fromBurst: taken.fromBurst });
    } else if (live) {
      // The shared count's window turned while this lease was still spending the last one: never mixed.
      lease.next = taken;
    } else {
      Object.assign(lease, taken, { next: undefined });
    }
  }

  /** Milliseconds this process still refuses the key from memory without counting (both budgets spent), or 0. */
  blockedMs(key: string): number {
    const lease = this.leases.get(key);
    return lease ? Math.max(0, lease.refusedUntil - Date.now()) : 0;
  }

  private forgetEnded(): void {
    const now = Date.now();
    for (const [key, lease] of this.leases)
      if (lease.endsAt <= now && lease.refusedUntil <= now && !lease.refilling) this.leases.delete(key);
  }

  stop(): void {
    clearInterval(this.forgetting);
  }
}

/**
 * Asks the shared count for `want` requests at once and says how many of
 * them fit in what was left: the store adds the whole `want` (a refusal
 * leaves the count over its quota until the window ends, which refuses the
 * same as a count at its quota).
 */
async function grant(counter: Counter, key: string, want: number): Promise<{ granted: number; result: RateLimiterRes }> {
  try {
    const result: RateLimiterRes = await counter.store.consume(key, want);
    return { granted: want, result };
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    const over = refusal.consumedPoints - counter.points;
    return { granted: Math.max(0, Math.min(want, want - over)), result: refusal };
  }
}

/** One shared count (a rate or a burst) with the quota it counts against. */
interface Counter {
  readonly store: RLWrapperTimeouts;
  readonly points: number;
}

/** What the store sends its statements through: the app's pool. */
interface StatementClient {
  query(config: { text: string; values?: unknown[]; name?: string }): Promise<unknown>;
}

/**
 * The app's primary pool for the counts' upserts. The library names its
 * statements (prepared once per connection); with DATABASE_PREPARED_STATEMENTS=off
 * (behind a pooler in transaction mode, which cannot keep them) they go unnamed.
 */
function statementClient(dataSource: DataSource, named: boolean): StatementClient {
  const pool = (dataSource.driver as unknown as { master: StatementClient }).master;
  return { query: (config) => pool.query(named ? config : { text: config.text, values: config.values }) };
}

function counter(client: StatementClient, keyPrefix: string, points: number, duration: number): Counter {
  const store = new RLWrapperTimeouts({
    limiter: new RateLimiterPostgres({
      storeClient: client,
      storeType: 'pool',
      tableName: 'rate_limit',
      // Created by a migration (UNLOGGED, see RateLimits1796600000000), never by the library.
      tableCreated: true,
      keyPrefix,
      points,
      duration,
      // Purged by RateLimits (one timer per process, stopped with the app), not one timer per store.
      clearExpiredByTimeout: false,
    }),
    timeoutMs: STORE_TIMEOUT_MS,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
  });
  return { store, points };
}

function refused(quota: number, waitMs: number): LimitVerdict {
  return { allowed: false, quota, windowSeconds: WINDOW_SECONDS, remaining: 0, resetSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/**
 * The service's rate limits (contract §17): signed reads and writes per
 * api-key, unauthenticated requests per client address. Counted in /metrics
 * by limit when refused, never by tenant or address.
 */
@Injectable()
export class RateLimits implements OnModuleDestroy {
  private readonly quotas: Record<LimitScope, Quota>;
  private readonly purging: NodeJS.Timeout;
  readonly enabled: boolean;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    settings: RuntimeSettings,
  ) {
    const limits: RateLimitSettings = settings.rateLimits;
    this.enabled = limits.enabled;
    const store = statementClient(dataSource, settings.preparedStatements);
    this.quotas = {
      reads: new Quota(store, 'reads', limits.readsPerSecond),
      writes: new Quota(store, 'writes', limits.writesPerSecond),
      address: new Quota(store, 'address', limits.addressPerSecond),
    };
    // A row per api-key and address seen: rows whose window ended a minute ago go every 5 minutes (a failed purge waits for the next).
    this.purging = setInterval(() => void this.purge().catch(() => undefined), PURGE_EVERY_MS).unref();
  }

  /** Deletes the counters whose window ended more than a minute ago (the table's `expire` is in epoch milliseconds). */
  async purge(): Promise<void> {
    await this.dataSource.query('DELETE FROM rate_limit WHERE expire < $1', [Date.now() - 60_000]);
  }

  /** Counts one request against `key`'s limit; a refusal is counted in /metrics. Null when limits are off. */
  async count(scope: LimitScope, key: string): Promise<LimitVerdict | null> {
    if (!this.enabled) return null;
    const verdict = await this.quotas[scope].consume(key);
    if (!verdict.allowed) metrics.rateLimited.inc({ limit: scope });
    return verdict;
  }

  /** Whether this process already refuses the address (it spent both budgets in this window): answered without the database. */
  addressBlockedSeconds(address: string): number {
    if (!this.enabled) return 0;
    const ms = this.quotas.address.blockedMs(address);
    if (ms > 0) metrics.rateLimited.inc({ limit: 'address' });
    return Math.ceil(ms / 1000);
  }

  onModuleDestroy(): void {
    clearInterval(this.purging);
    for (const quota of Object.values(this.quotas)) quota.stop();
  }
}

/** The IETF draft's headers (draft-ietf-httpapi-ratelimit-headers), on every signed answer. */
export function setRateLimitHeaders(response: Response, verdict: LimitVerdict): void {
  response.setHeader('RateLimit-Policy', `"default";q=${verdict.quota};w=${verdict.windowSeconds}`);
  response.setHeader('RateLimit', `"default";r=${verdict.remaining};t=${verdict.resetSeconds}`);
}
