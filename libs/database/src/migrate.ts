import { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations';

// Arbitrary constant shared by every process of this service.
const MIGRATION_LOCK_KEY = 7_130_501_001;

/**
 * Applies pending migrations. Several replicas may start together: a
 * session-level advisory lock lets exactly one migrate while the others wait,
 * then find nothing pending.
 */
export async function migrateDatabase(url: string, log: (line: string) => void = () => {}): Promise<string[]> {
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'each',
    logging: false,
  });
  await dataSource.initialize();
  const lock = dataSource.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) log(`applied migration ${migration.name}`);
    return applied.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
    await dataSource.destroy();
  }
}
