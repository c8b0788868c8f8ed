import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import * as crypto from 'node:crypto';
import { contextOf, inSpan, metrics, QueueDepth, ROOT_CONTEXT, SpanKind, TraceCarrier, withTraceOf } from '@pcs/observability';
// Before pg-boss: the database library puts pg-boss's timer in place first (pg-boss-timers.ts).
import { CONNECT_TIMEOUT_MS, managerOf, resilientClientClass } from '@pcs/database';
import PgBoss from 'pg-boss';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { Transaction } from '@pcs/kernel';

// Arbitrary constant shared by every process of this service: serialises the creation of queues.
const QUEUE_CREATION_LOCK_KEY = 7_130_501_002;
/**
 * How long a nudge waits before it wakes the workers (nudges within it are one): at most this many milliseconds between a
 * nudged job's commit and its fetch in this process, and at most 1000 / NUDGE_MS extra fetches a second per queue under a
 * stream of writes.
 */
const NUDGE_MS = 50;
/** How long a stopping queue waits for the handlers still running (a webhook's post is bounded well below it). */
const HANDLERS_DRAIN_MS = 15_000;

export type JobSendOptions = Omit<PgBoss.SendOptions, 'db'>;
export type JobWorkOptions = PgBoss.WorkOptions;
export type JobHandler<T> = (jobs: PgBoss.Job<T>[]) => Promise<void>;

/**
 * Why one file: writing jobs, working them, nudging workers and creating queues all act on one pg-boss instance and
 * this process's workers of it; split, each part would reach into the others' state.
 *
 * The process's job queue (contract §15): one pg-boss instance over the
 * service's own PostgreSQL, shared by every context that works in the
 * background (mail, webhooks). A job is written by the caller's transaction,
 * so it exists exactly when the change that caused it committed.
 *
 * The service's queues are created by the migration step, as the owner
 * (contract §30: the runtime role creates nothing and calls no function with
 * another's rights). A queue that is not there is created on first use only
 * where this process's role may (development on one role, tests' own
 * queues); the runtime role is told to migrate. pg-boss's `create_queue`
 * deadlocks when two processes create the same queue at the same moment, so
 * creation is serialised across processes by an advisory lock.
 */
@Injectable()
export class JobQueue implements OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private readonly boss: PgBoss;
  private started: Promise<void> | null = null;
  private readonly queues = new Map<string, Promise<void>>();
  private stopped = false;
  /** The handlers running in this process now. */
  private readonly running = new Set<Promise<unknown>>();
  private readonly stopObserving: () => void;
  /** This process's workers by queue (their pg-boss ids), and the queues a nudge is pending for. */
  private readonly workers = new Map<string, string[]>();
  private readonly nudging = new Set<string>();

  private readonly databaseUrl: string;
  private readonly Client: typeof Client;

  constructor(settings: RuntimeSettings) {
    // The creation lock is a session's (an advisory lock held on a connection of its own): never through a pooler.
    this.databaseUrl = settings.sessionDatabaseUrl;
    this.Client = resilientClientClass((error) => this.logger.warn(`a job queue connection broke: ${error.message}`));
    this.boss = new PgBoss({
      connectionString: settings.databaseUrl,
      max: 3,
      migrate: false,
      schedule: false,
      // Passed to pg's Pool: a bounded wait for a connection, and clients that survive the database restarting.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      Client: this.Client,
    } as PgBoss.ConstructorOptions);
    // Fetches that fail while the database is away: each worker keeps polling and resumes when it is back.
    this.boss.on('error', (error: Error) => this.logger.warn(`job queue: ${error.message}`));
    this.stopObserving = metrics.observeQueues(() => this.depths());
  }

  /** Each queue's waiting (created or to retry) and active jobs, for /metrics; nothing before this process uses the queue. */
  private async depths(): Promise<QueueDepth[]> {
    if (!this.started || this.stopped) return [];
    await this.started;
    return Promise.all(
      (await this.boss.getQueues()).map(async ({ name }) => {
        const [waiting, unfinished] = await Promise.all([
          this.boss.getQueueSize(name, { before: 'active' }),
          this.boss.getQueueSize(name, { before: 'completed' }),
        ]);
        return { queue: name, waiting, active: unfinished - waiting };
      }),
    );
  }

  /**
   * Writes a job with the caller's transaction: it commits or rolls back with the change. Every job this queue writes
   * carries the trace running when it was written (`traceparent`, `tracestate` in its data) when tracing is on.
   */
  async send<T extends object>(tx: Transaction, queue: string, data: T, options: JobSendOptions = {}): Promise<string | null> {
    const manager = managerOf(tx);
    await this.queue(queue);
    return this.boss.send(queue, withTraceOf(data), {
      ...options,
      db: { executeSql: async (text: string, values: unknown[]) => ({ rows: await manager.query<unknown[]>(text, values) }) },
    });
  }

  /**
   * Writes many jobs of one queue with the caller's transaction, in one
   * statement (pg-boss's own bulk insert). Each job's options are those of
   * `send` that pg-boss's insert takes: startAfter (seconds), retryLimit,
   * retryDelay, retryBackoff, expireInSeconds.
   */
  async sendMany<T extends object>(
    tx: Transaction,
    queue: string,
    jobs: readonly {
      data: T;
      options?: Pick<JobSendOptions, 'retryLimit' | 'retryDelay' | 'retryBackoff' | 'expireInSeconds'> & { startAfter?: number };
    }[],
  ): Promise<void> {
    const manager = managerOf(tx);
    if (jobs.length === 0) return;
    await this.queue(queue);
    await this.boss.insert(
      jobs.map(({ data, options: { startAfter, ...options } = {} }) => ({
        name: queue,
        data: withTraceOf(data),
        ...options,
        // pg-boss reads a start that is not a timestamp as an interval: seconds.
        ...(startAfter ? { startAfter: String(startAfter) } : {}),
      })),
      { db: { executeSql: async (text: string, values: unknown[]) => ({ rows: await manager.query<unknown[]>(text, values) }) } },
    );
  }

  /**
   * The statement `send` would run, not run: pg-boss's own INSERT of the job
   * (its SQL and values, captured from `send` itself, so defaults and option
   * checks stay pg-boss's) with its parameters numbered from `firstParameter`,
   * for a caller to run inside a statement of its own (a CTE): the job then
   * costs no round trip of its own. The job's id is chosen here.
   */
  async sendStatement<T extends object>(
    queue: string,
    data: T,
    options: JobSendOptions,
    firstParameter: number,
  ): Promise<{ sql: string; values: unknown[]; id: string }> {
    await this.queue(queue);
    const id = crypto.randomUUID();
    let captured: { text: string; values: unknown[] } | null = null;
    await this.boss.send(queue, withTraceOf(data), {
      ...options,
      id,
      db: {
        executeSql: async (text: string, values: unknown[]) => {
          captured = { text, values };
          return { rows: [{ id }] };
        },
      },
    });
    if (!captured) throw new Error('pg-boss did not build its insert');
    const { text, values } = captured as { text: string; values: unknown[] };
    const sql = text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + firstParameter - 1}`);
    return { sql: sql.trim(), values, id };
  }

  /**
   * Starts working a queue in this process; a handler that throws leaves its
   * jobs to pg-boss's retry. A full batch means more may be waiting: the worker
   * then fetches again at once instead of sleeping its polling interval.
   *
   * The batch's outcome (completed, or failed for a retry) is written here and
   * written again until the database takes it: pg-boss writes it once, without
   * waiting, and when the database is down at that moment the jobs would stay
   * active until they expire (15 minutes by default). Meanwhile this worker
   * waits, as it could fetch nothing anyway. pg-boss's own write afterwards
   * changes nothing (it only touches active jobs).
   */
  async work<T>(queue: string, options: JobWorkOptions, handler: JobHandler<T>): Promise<void> {
    await this.queue(queue);
    const batchSize = options.batchSize ?? 1;
    let workerId = '';
    // A full batch means more may be waiting: its worker fetches again at once.
    const again = (jobs: readonly unknown[]) => (jobs.length >= batchSize ? workerId : '');
    workerId = await this.boss.work<T>(queue, options, (jobs) => this.tracked(this.handle(queue, jobs, handler, again)));
    this.workers.set(queue, [...(this.workers.get(queue) ?? []), workerId]);
  }

  /**
   * Tells this process's workers of `queue` that jobs were just written: they fetch in NUDGE_MS instead of at their next
   * poll (a worker that is busy fetches again as soon as its batch is done). Polling still finds every job (a nudge that
   * comes before the writer's commit finds nothing; another process's jobs wait for its poll), so a lost nudge only delays.
   */
  nudge(queue: string): void {
    if (this.stopped || this.nudging.has(queue) || !this.workers.has(queue)) return;
    this.nudging.add(queue);
    setTimeout(() => {
      this.nudging.delete(queue);
      if (!this.stopped) for (const id of this.workers.get(queue) ?? []) this.boss.notifyWorker(id);
    }, NUDGE_MS).unref();
  }

  /** One batch: the handler, then its outcome written until the database takes it. */
  private async handle<T>(
    queue: string,
    jobs: PgBoss.Job<T>[],
    handler: JobHandler<T>,
    again: (jobs: readonly unknown[]) => string,
  ): Promise<void> {
    const ids = jobs.map((job) => job.id);
    // A span per batch (docs/operations.md, "Tracing"): a job alone continues the trace that wrote it; a batch links them.
    const causes = jobs.map((job) => contextOf(job.data as TraceCarrier));
    const failure = await inSpan(
      `job ${queue}`,
      {
        kind: SpanKind.CONSUMER,
        parent: causes.length === 1 ? causes[0] : ROOT_CONTEXT,
        links: causes.length === 1 ? [] : causes,
        attributes: { 'messaging.system': 'pg-boss', 'messaging.destination.name': queue, 'messaging.batch.message_count': jobs.length },
      },
      () => handler(jobs),
    ).then(
      () => null,
      (error: unknown) => error,
    );
    const settled = await this.untilWritten(() =>
      failure === null
        ? this.boss.complete(queue, ids)
        : // pg-boss takes (name, ids, data); its types list data only beside a single id.
          this.boss.fail(queue, ids as unknown as string, { message: failure instanceof Error ? failure.message : 'the handler failed' }),
    );
    const workerId = again(jobs);
    if (failure === null && settled && workerId) this.boss.notifyWorker(workerId);
  }

  /** A batch being handled, known to `onModuleDestroy` until it ends. */
  private tracked(run: Promise<void>): Promise<void> {
    this.running.add(run);
    return run.finally(() => this.running.delete(run));
  }

  /** Runs `write` until it succeeds (backing off to 5 s between tries) or the queue stops; true once written. */
  private async untilWritten(write: () => Promise<unknown>): Promise<boolean> {
    for (let pause = 250; !this.stopped; pause = Math.min(pause * 2, 5_000)) {
      try {
        await write();
        return true;
      } catch (error) {
        this.logger.warn(`job outcome not written yet (${(error as Error).message}); trying again in ${pause} ms`);
        await sleep(pause);
      }
    }
    return false;
  }

  /** The queue exists once this resolves (created by this process or another). */
  queue(name: string): Promise<void> {
    let ready = this.queues.get(name);
    if (!ready) {
      ready = this.start().then(() => this.createOnce(name));
      ready.catch(() => this.queues.delete(name)); // a failed creation is tried again by the next caller
      this.queues.set(name, ready);
    }
    return ready;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.stopObserving();
    if (this.started) await this.started.then(() => this.boss.stop({ graceful: true, wait: true, timeout: 5_000 })).catch(() => undefined);
    // Handlers still running (pg-boss stops waiting after 5 s and fails their jobs for a retry): their work ends before the
    // process does, and pg-boss's worker loops, which check every second whether their handler returned, see them end.
    const busy = [...this.running];
    if (busy.length > 0) {
      await Promise.race([Promise.allSettled(busy), sleep(HANDLERS_DRAIN_MS)]);
      await sleep(1_100);
    }
  }

  private start(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('the job queue is stopped'));
    // A start that failed (the database was away) is tried again by the next caller.
    this.started ??= this.boss.start().then(
      () => undefined,
      (error: unknown) => {
        this.started = null;
        throw error;
      },
    );
    return this.started;
  }

  /**
   * The advisory lock is held on a connection of its own, opened for this
   * (once per queue and process): not one of the application's pool, which
   * may be all taken by transactions that are each waiting for this very
   * queue (their events' jobs), at start-up under load.
   */
  private async createOnce(name: string): Promise<void> {
    if (await this.boss.getQueue(name)) return;
    const lock = new this.Client({ connectionString: this.databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [QUEUE_CREATION_LOCK_KEY]);
      if (!(await this.boss.getQueue(name)))
        await this.boss.createQueue(name).catch((error: Error & { code?: string }) => {
          if (error.code !== '42501') throw error;
          throw new Error(`the job queue ${name} is missing and this role may not create it: run npm run migrate`);
        });
    } finally {
      await lock.end().catch(() => undefined);
    }
  }
}
