import 'reflect-metadata';
import { loadDotEnv, loadEnvironment } from '@pcs/config';
import { migrateDatabase, migrationTarget, resolveDatabase } from '@pcs/database';

const log = (line: string) => process.stderr.write(`[migrate] ${line}\n`);

/** `npm run db:migrate`: applies pending migrations to the configured database and exits. */
async function main(): Promise<void> {
  loadDotEnv();
  const env = loadEnvironment();
  const database = await resolveDatabase(env, log);
  try {
    const target = migrationTarget(env, database);
    const applied = await migrateDatabase(target.url, log, { runtimeRole: target.runtimeRole });
    log(applied.length ? `applied ${applied.length} migration(s)` : 'the database is up to date');
  } finally {
    await database.stop();
  }
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
