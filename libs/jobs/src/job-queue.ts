import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RuntimeSettings } from '@pcs/config';
import * as crypto from 'node:crypto';
import { metrics, QueueDepth } from '@pcs/observability';
import PgBoss from 'pg-boss';
import { DataSource, EntityManager } from 'typeorm';

// Arbitrary constant shared by every process of this service: serialises the creation of queues.
const QUEUE_CREATION_LOCK_KEY = 7_130_501_002;

export type JobSendOptions = Omit<PgBoss.SendOptions, 'db'>;
export type JobWorkOptions = PgBoss.WorkOptions;
export type JobHandler<T> = (jobs: PgBoss.Job<T>[]) => Promise<void>;

/**
 * The process's job queue (contract §15): one pg-boss instance over the
 * service's own PostgreSQL, shared by every context that works in the
 * background (mail, webhooks). A job is written by the caller's transaction,
 * so it exists exactly when the change that caused it committed.
 *
 * Queues are created on first use. pg-boss's `create_queue` deadlocks when
 * two processes create the same queue at the same moment (both APIs start
 * together), so creation is serialised across processes by an advisory lock
 * and skipped when the queue is already there.
 */
@Injectable()
export class JobQueue implements OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private readonly boss: PgBoss;
  private started: Promise<void> | null = null;
  private readonly queues = new Map<string, Promise<void>>();
  private stopped = false;
  private readonly stopObserving: () => void;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    settings: RuntimeSettings,
  ) {
    this.boss = new PgBoss({ connectionString: settings.databaseUrl, max: 3, migrate: false, schedule: false });
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

  /** Writes a job with the caller's transaction: it commits or rolls back with the change. */
  async send<T extends object>(manager: EntityManager, queue: string, data: T, options: JobSendOptions = {}): Promise<string | null> {
    await this.queue(queue);
    return this.boss.send(queue, data, {
      ...options,
      db: { executeSql: async (text: string, values: unknown[]) => ({ rows: await manager.query<unknown[]>(text, values) }) },
    });
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
    await this.boss.send(queue, data, {
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
   */
  async work<T>(queue: string, options: JobWorkOptions, handler: JobHandler<T>): Promise<void> {
    await this.queue(queue);
    const batchSize = options.batchSize ?? 1;
    let workerId = '';
    workerId = await this.boss.work<T>(queue, options, async (jobs) => {
      await handler(jobs);
      if (jobs.length >= batchSize && workerId) this.boss.notifyWorker(workerId);
    });
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
  }

  private start(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('the job queue is stopped'));
    this.started ??= this.boss.start().then(() => undefined);
    return this.started;
  }

  private async createOnce(name: string): Promise<void> {
    if (await this.boss.getQueue(name)) return;
    const lock = this.dataSource.createQueryRunner();
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [QUEUE_CREATION_LOCK_KEY]);
      if (!(await this.boss.getQueue(name))) await this.boss.createQueue(name);
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [QUEUE_CREATION_LOCK_KEY]).catch(() => undefined);
      await lock.release();
    }
  }
}
