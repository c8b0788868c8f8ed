import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { metrics } from '@pcs/observability';
import { Client } from 'pg';
import type { Transaction } from '@pcs/kernel';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { CONNECT_TIMEOUT_MS } from './database-unavailable';
import { preparedStatementsOn, setPreparedStatements } from './prepared-statements';
import { transactionOf } from './unit-of-work';

/** DATABASE_REPLICA_URL and its staleness bound, as the database module takes them. */
export interface ReplicaOptions {
  readonly url: string;
  /** DATABASE_REPLICA_MAX_LAG_SECONDS: a replica further behind than this is not read. */
  readonly maxLagSeconds: number;
}

export const REPLICA_OPTIONS = Symbol('REPLICA_OPTIONS');

/** How often the replica's lag is measured. */
const PROBE_EVERY_MS = 1000;
/** The primary's positions remembered to date the replica's (a minute of probes). */
const SAMPLES_KEPT = 60;
/** The pause between tries to reach a replica that is not there (at start, or never yet). */
const CONNECT_RETRY_MS = 5000;
/** Connections of the read pool: reads only, fewer than the primary's. */
const READ_POOL_SIZE = 10;

/**
 * Reads that may be served by a streaming read replica (docs/scale-out.md, the
 * bounded-staleness rule): the payins ledger, balance transactions and the
 * reports built from them, never anything a write follows. The replica is
 * PostgreSQL's own streaming replication; this process reads it through a
 * read pool of its own (a second TypeORM data source over the same
 * entities), and every other query of the app goes to the primary.
 *
 * Staleness is bounded, not hoped for: once a second the primary's WAL
 * position is sampled and the replica's replay position read; the replica
 * is as old as the newest primary sample it has replayed. Further behind
 * than the bound, not answering, or not yet measured: reads go to the
 * primary until it catches up. A replica that is down when the API starts
 * delays nothing (it is tried again every 5 seconds). Without a replica
 * configured, everything reads the primary and this costs nothing.
 */
@Injectable()
export class ReadReplica implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ReadReplica');
  private readonly samples: { at: number; lsn: bigint }[] = [];
  private probing: NodeJS.Timeout | null = null;
  private probeInFlight = false;
  private replica: DataSource | null = null;
  private closed = false;
  /** The replica's measured lag in milliseconds, or null when unknown (not measured yet, or the probe failed). */
  private lagMs: number | null = null;
  private wasUsable = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REPLICA_OPTIONS) private readonly options: ReplicaOptions | null,
  ) {}

  /** Whether reads go to the replica now: configured, reached, answering, and within the bound. */
  get usable(): boolean {
    return this.replica !== null && this.options !== null && this.lagMs !== null && this.lagMs <= this.options.maxLagSeconds * 1000;
  }

  async onModuleInit(): Promise<void> {
    if (!this.options) return;
    metrics.replicaLag.set(-1);
    await this.connect();
    this.probing = setInterval(() => void this.probe(), PROBE_EVERY_MS).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.probing) clearInterval(this.probing);
    await this.replica?.destroy().catch(() => undefined);
    this.replica = null;
  }

  /**
   * Runs a read on the replica when it is usable, else on the primary. Only
   * for reads no write depends on. A replica that fails the read (gone since
   * the last probe) is not read again until a probe finds it, and the read is
   * answered by the primary.
   */
  async read<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const source = this.source();
    if (source === this.dataSource) return work(transactionOf(source.manager));
    try {
      return await work(transactionOf(source.manager));
    } catch (error) {
      this.lagMs = null;
      this.logger.warn(`a read on the read replica failed (${(error as Error).message}); reads go to the primary until it answers again`);
      metrics.replicaReads.inc({ target: 'primary' });
      return work(transactionOf(this.dataSource.manager));
    }
  }

  /** A read that yields batches (an export), on the replica when it is usable. */
  stream<T>(work: (tx: Transaction) => AsyncGenerator<T>): AsyncGenerator<T> {
    return work(transactionOf(this.source().manager));
  }

  private source(): DataSource {
    const replica = this.usable ? this.replica : null;
    metrics.replicaReads.inc({ target: replica ? 'replica' : 'primary' });
    return replica ?? this.dataSource;
  }

  /** Opens the read pool once the replica answers; tried again in the background while it does not. */
  private async connect(): Promise<void> {
    if (this.closed || this.replica || !this.options) return;
    const probe = new Client({ connectionString: this.options.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    try {
      await probe.connect();
      await probe.end();
      const primary = this.dataSource.options as PostgresConnectionOptions;
      const replica = new DataSource({
        ...primary,
        url: this.options.url,
        extra: { ...primary.extra, max: READ_POOL_SIZE },
      });
      await replica.initialize();
      if (!preparedStatementsOn(this.dataSource)) setPreparedStatements(replica, false);
      this.replica = replica;
      await this.probe();
    } catch (error) {
      void probe.end().catch(() => undefined);
      this.logger.warn(`the read replica cannot be reached (${(error as Error).message}); reads go to the primary, trying again`);
      if (!this.closed) setTimeout(() => void this.connect(), CONNECT_RETRY_MS).unref();
    }
  }

  /** Samples the primary's position, reads the replica's, and dates the replica by the newest sample it has replayed. */
  async probe(): Promise<void> {
    if (!this.replica || this.probeInFlight) return;
    this.probeInFlight = true;
    try {
      const [{ lsn }] = await this.dataSource.query<{ lsn: string }[]>('SELECT pg_current_wal_lsn()::text AS lsn');
      this.samples.push({ at: Date.now(), lsn: lsnOf(lsn) });
      if (this.samples.length > SAMPLES_KEPT) this.samples.shift();
      const [{ replayed, standby }] = await this.replica.query<{ replayed: string | null; standby: boolean }[]>(
        'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed',
      );
      if (!standby || replayed === null) throw new Error('the replica is not a streaming standby');
      const position = lsnOf(replayed);
      const newest = [...this.samples].reverse().find((sample) => sample.lsn <= position);
      this.lagMs = newest ? Date.now() - newest.at : null;
    } catch (error) {
      this.lagMs = null;
      if (this.wasUsable) this.logger.warn(`the read replica is not read (${(error as Error).message}); reads go to the primary`);
    } finally {
      this.probeInFlight = false;
    }
    metrics.replicaLag.set(this.lagMs === null ? -1 : this.lagMs / 1000);
    if (this.wasUsable !== this.usable) {
      if (this.usable) this.logger.log('reads of the ledger and balance transactions go to the read replica');
      else if (this.lagMs !== null) this.logger.warn(`the read replica is ${this.lagMs} ms behind; reads go to the primary`);
    }
    this.wasUsable = this.usable;
  }
}

/** A WAL position (`16/B374D848`) as a number that orders as the positions do. */
function lsnOf(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}
