import './pg-boss-timers';
import PgBoss from 'pg-boss';
import { DataSource, QueryRunner } from 'typeorm';
import { CONNECT_TIMEOUT_MS, resilientClientClass } from './database-unavailable';
import { MIGRATIONS } from './migrations';

// Arbitrary constant shared by every process of this service.
const MIGRATION_LOCK_KEY = 7_130_501_001;

/**
 * The schema of the job queue (pg-boss, schema `pgboss`), created or migrated
 * by pg-boss itself, with ours; then the service's queues (pg-boss 10 makes a
 * table per queue: SERVICE_QUEUES of @pcs/config, given by the callers), so
 * that the runtime role, which creates nothing, finds them (contract §30).
 */
async function migrateJobQueue(url: string, queues: readonly string[]): Promise<void> {
  const boss = new PgBoss({ connectionString: url, supervise: false, schedule: false, max: 1 });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    for (const queue of queues) if (!(await boss.getQueue(queue))) await boss.createQueue(queue);
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

/**
 * Applies pending migrations (and the job queue's). Several replicas may start together: a
 * session-level advisory lock lets exactly one migrate while the others wait,
 * then find nothing pending.
 */
export async function migrateDatabase(
  url: string,
  log: (line: string) => void = () => {},
  options: { before?: string; runtimeRole?: string | null; queues?: readonly string[] } = {},
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
    await migrateJobQueue(url, options.queues ?? []);
    if (options.runtimeRole) await grantRuntimeRole(lock, options.runtimeRole);
    return applied.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
    await dataSource.destroy();
  }
}

/**
 * Least privilege in the database (contract §27, PCI DSS 7.2): the role the
 * services connect as is not the tables' owner, and gets only what they do
 * with the data: reading and writing rows of the service's tables and the
 * job queue's, and its sequences (used, never set). It cannot alter or drop a table, disable a
 * trigger, truncate, create anything, or change or delete an audit entry
 * (the audit table takes its INSERT and SELECT, and the sealing of an
 * entry once: its place, HMAC and key id) or a migration's
 * record. It calls no function that runs with another's rights (no
 * SECURITY DEFINER, contract §30): the job queue's queues, a table each in
 * pg-boss 10, are created here by the owner (SERVICE_QUEUES), and a queue
 * that is not there is an error of the deployment, not something the
 * runtime role may create. Run by the owner after every migration (new
 * tables included); idempotent.
 */
export async function grantRuntimeRole(owner: QueryRunner, role: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_$]{0,62}$/i.test(role)) throw new Error(`not a role name: ${role}`);
  const [{ me }] = (await owner.query('SELECT current_user AS me')) as { me: string }[];
  if (me === role) throw new Error('the runtime role must not be the role that owns the tables (DATABASE_MIGRATION_URL)');
  const r = `"${role}"`;
  const statements = [
    `DO $$ BEGIN EXECUTE format('GRANT CONNECT ON DATABASE %I TO ${r}', current_database()); END $$`,
    `GRANT USAGE ON SCHEMA public, pgboss TO ${r}`,
    `REVOKE CREATE ON SCHEMA public, pgboss FROM ${r}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public, pgboss TO ${r}`,
    `REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA public, pgboss FROM ${r}`,
    // Sequences are used (nextval), never set (contract §30: setval of the audit's sequence would let entries take old ids).
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public, pgboss TO ${r}`,
    `REVOKE UPDATE ON ALL SEQUENCES IN SCHEMA public, pgboss FROM ${r}`,
    `REVOKE UPDATE, DELETE ON dashboard_audit FROM ${r}`,
    // The sealer sets an entry's place, HMAC and key id once (the trigger refuses anything else, contract §29).
    `GRANT UPDATE (sequence, hmac, key_id) ON dashboard_audit TO ${r}`,
    `REVOKE INSERT, UPDATE, DELETE ON migrations FROM ${r}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA pgboss GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${r}`,
    // Earlier versions made create_queue run with the owner's rights for the runtime role: undone.
    `ALTER FUNCTION pgboss.create_queue(text, json) SECURITY INVOKER RESET search_path`,
    `REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA pgboss FROM PUBLIC, ${r}`,
  ];
  for (const statement of statements) await owner.query(statement);
}
