import 'reflect-metadata';
import { loadDotEnv, loadEnvironment, SERVICE_QUEUES } from '@pcs/config';
import { migrateDatabase, migrationTarget, resolveDatabase } from '@pcs/database';

const log = (line: string) => process.stderr.write(`[migrate] ${line}\n`);

/**
 * `npm run migrate` (contract §30): the migrations as the owner (DATABASE_MIGRATION_URL, else DATABASE_URL's role),
 * the job queue's schema and queues, and the runtime role's grants (DATABASE_URL's role when it is another); then exits.
 * The APIs and the dashboard apply none and refuse the owner's URL.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const env = loadEnvironment();
  const database = await resolveDatabase(env, log);
  try {
    const target = migrationTarget(env, database);
    const applied = await migrateDatabase(target.url, log, { runtimeRole: target.runtimeRole, queues: SERVICE_QUEUES });
    log(applied.length ? `applied ${applied.length} migration(s)` : 'the database is up to date');
  } finally {
    await database.stop();
  }
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
