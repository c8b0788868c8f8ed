import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { openEmbeddedPostgres } from '../../database/src/embedded-postgres';
import { migrateDatabase } from '../../database/src/migrate';

/**
 * Creates a fresh database for this run and migrates it with the real
 * migrations. DATABASE_URL names the server to use; without it an embedded
 * PostgreSQL starts in a temporary folder. Workers inherit the variables set
 * here (TEST_DATABASE_URL, TEST_SECRETS_MASTER_KEY).
 *
 * Test files may run in parallel, one per worker (JEST_WORKERS), and each
 * worker has a database of its own, copied from the migrated one (worker-database.ts
 * points the worker's TEST_DATABASE_URL at it): the apps a file boots run
 * background workers (payouts, webhooks, mail) that take whatever their
 * database holds, so two files sharing one would take each other's work.
 */
export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  const log = (line: string) => process.stderr.write(`[test db] ${line}\n`);
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-test-'));
    fs.chmodSync(dataDir, 0o755);
    const embedded = await openEmbeddedPostgres(dataDir, log);
    (globalThis as Record<string, unknown>).__PCS_EMBEDDED__ = { embedded, dataDir };
    serverUrl = embedded.url;
  }
  const name = `pcs_test_${Date.now()}_${crypto.randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString(), log);
  const workers = Math.max(1, globalConfig.maxWorkers);
  const copier = new Client({ connectionString: serverUrl });
  await copier.connect();
  for (let worker = 1; worker <= workers; worker++) await copier.query(`CREATE DATABASE ${name}_w${worker} TEMPLATE ${name}`);
  await copier.end();
  process.env.TEST_DATABASE_WORKERS = String(workers);
  process.env.TEST_DATABASE_URL = url.toString();
  process.env.TEST_DATABASE_SERVER_URL = serverUrl;
  process.env.TEST_DATABASE_NAME = name;
  process.env.TEST_SECRETS_MASTER_KEY = crypto.randomBytes(32).toString('base64');
  // The APIs the specs start connect as the server's superuser, which owns the tables (contract §30's development
  // escape hatch); test/database-roles.e2e-spec.ts starts them without it, as the runtime role, and proves each refusal.
  process.env.PCS_ALLOW_OWNER_ROLE = '1';
  log(
    `using database ${name} (one copy per worker: ${workers})${process.env.DATABASE_URL ? ' on DATABASE_URL' : ' on an embedded PostgreSQL'}`,
  );
}
