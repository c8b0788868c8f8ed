import './pg-boss-timers';
import PgBoss from 'pg-boss';
import { DataSource } from 'typeorm';
import { CONNECT_TIMEOUT_MS, resilientClientClass } from './database-unavailable';
import { MIGRATIONS } from './migrations';

// Arbitrary constant shared by every process of this service.
const MIGRATION_LOCK_KEY = 7_130_501_001;

/** The schema of the job queue (pg-boss, schema `pgboss`), created or migrated by pg-boss itself, with ours. */
async function migrateJobQueue(url: string): Promise<void> {
  const boss = new PgBoss({ connectionString: url, supervise: false, schedule: false, max: 1 });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.stop({ graceful: false, wait: true });
}

/**
 * Applies pending migrations (and the job queue's). Several replicas may start together: a
 * session-level advisory lock lets exactly one migrate while the others wait,
 * then find nothing pending.
 */
export async function migrateDatabase(
  url: string,
  log: (line: string) => void = () => {},
  options: { before?: string } = {},
): Promise<string[]> {
  // `before`: only the migrations older than that one (a test of what a migration does to the data it finds).
  const until = options.before ? MIGRATIONS.findIndex((migration) => migration.name === options.before) : -1;
  if (options.before && until < 0) throw new Error(`no migration is named ${options.before}`);
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    migrations: until < 0 ? MIGRATIONS : MIGRATIONS.slice(0, until),
    migrationsTransactionMode: 'each',
    logging: false,
    // A connection that breaks mid-migration fails the statement (and start-up, with its reason), not the process.
    extra: { connectionTimeoutMillis: CONNECT_TIMEOUT_MS, Client: resilientClientClass(() => undefined) },
  });
  await dataSource.initialize();
  const lock = dataSource.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) log(`applied migration ${migration.name}`);
    await migrateJobQueue(url);
    return applied.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
    await dataSource.destroy();
  }
}
