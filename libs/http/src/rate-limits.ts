import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RateLimitSettings, RuntimeSettings } from '@pcs/config';
import { metrics } from '@pcs/observability';
import type { Response } from 'express';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, RLWrapperTimeouts } from 'rate-limiter-flexible';
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
 * One rate with its burst: rate-limiter-flexible's PostgreSQL store (one
 * prepared upsert per request, on the app's own pool), shared by every process
 * of every API. A key over its quota is also refused from memory until its
 * window ends, without asking the database again (a flood costs one query per
 * process per window, not one per request).
 */
class Quota {
  private readonly limiter: BurstyRateLimiter;
  private readonly stores: InMemoryBlocking[] = [];

  constructor(
    dataSource: DataSource,
    name: string,
    readonly perSecond: number,
  ) {
    this.limiter = new BurstyRateLimiter(
      this.counter(dataSource, name, perSecond * WINDOW_SECONDS, WINDOW_SECONDS),
      this.counter(dataSource, `${name}-burst`, perSecond, BURST_WINDOW_SECONDS),
    );
  }

  private counter(dataSource: DataSource, keyPrefix: string, points: number, duration: number): RLWrapperTimeouts {
    const store = new RateLimiterPostgres({
      storeClient: dataSource,
      storeType: 'typeorm',
      tableName: 'rate_limit',
      // Created by a migration (UNLOGGED, see RateLimits1796600000000), never by the library.
      tableCreated: true,
      keyPrefix,
      points,
      duration,
      inMemoryBlockOnConsumed: points + 1,
      // Purged by RateLimits (one timer per process, stopped with the app), not one timer per store.
      clearExpiredByTimeout: false,
    });
    this.stores.push(store as InMemoryBlocking);
    return new RLWrapperTimeouts({
      limiter: store,
      timeoutMs: STORE_TIMEOUT_MS,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
    });
  }

  async consume(key: string): Promise<LimitVerdict> {
    const quota = this.perSecond * WINDOW_SECONDS;
    try {
      const result: RateLimiterRes = await this.limiter.consume(key);
      return { allowed: true, quota, windowSeconds: WINDOW_SECONDS, remaining: result.remainingPoints, resetSeconds: secondsOf(result) };
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      return { allowed: false, quota, windowSeconds: WINDOW_SECONDS, remaining: 0, resetSeconds: Math.max(1, secondsOf(refusal)) };
    }
  }

  /** Milliseconds this process still refuses the key from memory without counting (both budgets spent), or 0. */
  blockedMs(key: string): number {
    const [rate, burst] = this.stores.map((store) => store.getInMemoryBlockMsBeforeExpire(store.getKey(key)));
    return rate > 0 && burst > 0 ? Math.min(rate, burst) : 0;
  }
}

/** A public method of the library's stores that its type declarations leave out. */
type InMemoryBlocking = RateLimiterPostgres & { getInMemoryBlockMsBeforeExpire(rlKey: string): number };

function secondsOf(result: RateLimiterRes): number {
  return Math.ceil(Math.max(result.msBeforeNext, 0) / 1000);
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
    this.quotas = {
      reads: new Quota(dataSource, 'reads', limits.readsPerSecond),
      writes: new Quota(dataSource, 'writes', limits.writesPerSecond),
      address: new Quota(dataSource, 'address', limits.addressPerSecond),
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
  }
}

/** The IETF draft's headers (draft-ietf-httpapi-ratelimit-headers), on every signed answer. */
export function setRateLimitHeaders(response: Response, verdict: LimitVerdict): void {
  response.setHeader('RateLimit-Policy', `"default";q=${verdict.quota};w=${verdict.windowSeconds}`);
  response.setHeader('RateLimit', `"default";r=${verdict.remaining};t=${verdict.resetSeconds}`);
}
