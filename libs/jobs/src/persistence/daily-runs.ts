import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RuntimeSettings } from '@pcs/config';
import { inTransaction, managerOf, transactionOf } from '@pcs/database';
import { localDateOf, localHourOf, Transaction } from '@pcs/kernel';
import { DataSource } from 'typeorm';
import { JobQueue } from './job-queue';

/** A scope of a daily run (a country) and the time zone its hour is read in. */
export interface DailyScope {
  readonly scope: string;
  readonly timeZone: string;
}

interface DailyKind {
  readonly hour: number;
  readonly scopes: () => Promise<readonly DailyScope[]>;
  readonly run: (scope: string, localDate: string) => Promise<void>;
}

interface DailyJob {
  readonly kind: string;
  readonly scope: string;
  readonly localDate: string;
}

/**
 * Work done once a day per scope at a local hour (contract §19: a country's
 * scheduled payouts at 06:00, its reconciliation after them), whatever the
 * number of processes: each process that claims runs (DAILY_RUNS) looks every
 * minute for kinds whose hour has come in a scope's time zone; the first to
 * insert the day's row in `daily_run` queues the run as a job, in the same
 * transaction, and any process's worker does it (pg-boss retries it when it
 * fails; a crash loses nothing). A process that was down at the hour claims
 * the run when it comes back the same day. Handlers must be idempotent: a
 * retried job runs again.
 */
@Injectable()
export class DailyRuns implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DailyRuns');
  private readonly kinds = new Map<string, DailyKind>();
  private timer?: NodeJS.Timeout;
  private checking: Promise<void> | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly settings: RuntimeSettings,
  ) {}

  /** Registers a kind of daily run (before the application starts). */
  register(
    kind: string,
    hour: number,
    scopes: () => Promise<readonly DailyScope[]>,
    run: (scope: string, localDate: string) => Promise<void>,
  ): void {
    this.kinds.set(kind, { hour, scopes, run });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.kinds.size === 0) return;
    await this.jobs.work<DailyJob>(this.settings.dailyRuns.queue, { batchSize: 1, pollingIntervalSeconds: 2 }, async ([job]) =>
      this.runNow(job.data.kind, job.data.scope, job.data.localDate),
    );
    if (!this.settings.dailyRuns.claim) return;
    this.timer = setInterval(() => void this.check(), this.settings.dailyRuns.checkSeconds * 1000);
    this.timer.unref();
    setImmediate(() => void this.check());
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.checking;
  }

  /** Runs a kind for a scope and day now, in this process (the worker, an operator's command, a test). */
  async runNow(kind: string, scope: string, localDate: string): Promise<void> {
    const registered = this.kinds.get(kind);
    if (!registered) throw new Error(`no daily run of kind ${kind}`);
    const started = Date.now();
    await registered.run(scope, localDate);
    this.logger.log(`${kind} ${scope} ${localDate} done in ${Date.now() - started} ms`);
  }

  /** Claims and queues every run whose hour has come (once per kind, scope and local day across processes). */
  check(now = new Date()): Promise<void> {
    this.checking ??= this.claimDue(now)
      .catch((error: unknown) => this.logger.warn(`daily runs not checked: ${(error as Error).message}`))
      .finally(() => {
        this.checking = null;
      });
    return this.checking;
  }

  /**
   * Claims something done once per kind, scope and local day, in the caller's
   * transaction: true for the first claim, false when it was claimed before
   * (a retried run does it again, the claim keeps it from happening twice).
   */
  async claimOnce(tx: Transaction, kind: string, scope: string, localDate: string): Promise<boolean> {
    const manager = managerOf(tx);
    const claimed = await manager.query<unknown[]>(
      `INSERT INTO daily_run (kind, scope, local_date) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1`,
      [kind, scope, localDate],
    );
    return claimed.length > 0;
  }

  /** When the run of a kind and scope before `localDate` was claimed, if ever (a run's window starts there). */
  async previousClaim(kind: string, scope: string, localDate: string): Promise<Date | null> {
    const [row] = await this.dataSource.query<{ at: Date | null }[]>(
      `SELECT max(claimed_at) AS at FROM daily_run WHERE kind = $1 AND scope = $2 AND local_date < $3`,
      [kind, scope, localDate],
    );
    return row.at;
  }

  private async claimDue(now: Date): Promise<void> {
    for (const [kind, { hour, scopes }] of this.kinds) {
      for (const { scope, timeZone } of await scopes()) {
        const localDate = localDateOf(now, timeZone);
        if (localHourOf(now, timeZone) < hour) continue;
        await inTransaction(this.dataSource, async (manager) => {
          const claimed = await manager.query<unknown[]>(
            `INSERT INTO daily_run (kind, scope, local_date) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1`,
            [kind, scope, localDate],
          );
          if (claimed.length === 0) return;
          await this.jobs.send(transactionOf(manager), this.settings.dailyRuns.queue, { kind, scope, localDate } satisfies DailyJob, {
            retryLimit: 10,
            retryDelay: 60,
            retryBackoff: true,
            singletonKey: `${kind}:${scope}:${localDate}`,
          });
          this.logger.log(`claimed ${kind} ${scope} ${localDate}`);
        });
      }
    }
  }
}
