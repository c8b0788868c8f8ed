import { migrateDatabase } from '@pcs/database';
import { hmacHex } from '@pcs/testing';
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import PgBoss from 'pg-boss';
import { Client } from 'pg';
import { ApiProcess, DIST } from './api-process';
import { freePort } from './payins-app';
import { onServer, scratchDatabase } from './scratch-database';

/**
 * Least privilege in the database (contract §27, PCI DSS 7.2): migrations run
 * as the role that owns the tables (DATABASE_MIGRATION_URL); the services
 * connect as a runtime role that reads and writes rows and nothing more. This
 * spec makes such a role on its own database, proves it is refused every
 * way of undoing the audit log's protection or the schema, and runs the
 * payins API and the operator's commands as it.
 */
describe('the runtime role', () => {
  const role = `pcs_rt_${crypto.randomBytes(4).toString('hex')}`;
  const password = crypto.randomBytes(12).toString('hex');
  let ownerUrl: string;
  let runtimeUrl: string;
  let drop: () => Promise<void>;
  let runtime: Client;

  beforeAll(async () => {
    await onServer(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    ({ url: ownerUrl, drop } = await scratchDatabase('pcs_roles'));
    // What every start does with DATABASE_MIGRATION_URL set: the migrations as the owner, then the runtime role's grants.
    await migrateDatabase(ownerUrl, () => undefined, { runtimeRole: role });
    const url = new URL(ownerUrl);
    url.username = role;
    url.password = password;
    runtimeUrl = url.toString();
    runtime = new Client({ connectionString: runtimeUrl });
    await runtime.connect();
  }, 120_000);
  afterAll(async () => {
    await runtime?.end();
    await drop?.();
    await onServer(`DROP ROLE IF EXISTS ${role}`);
  });

  it('is refused altering, dropping or truncating tables, disabling triggers, creating anything, and changing audit entries', async () => {
    const refusals = [
      'ALTER TABLE payer ADD COLUMN stolen text',
      'ALTER TABLE dashboard_audit DISABLE TRIGGER USER',
      'ALTER TABLE dashboard_audit DISABLE TRIGGER ALL',
      'DROP TRIGGER dashboard_audit_no_change ON dashboard_audit',
      'TRUNCATE payer',
      'TRUNCATE dashboard_audit',
      "UPDATE dashboard_audit SET result = 'succeeded'",
      'DELETE FROM dashboard_audit',
      'DROP TABLE balance_transaction',
      'CREATE TABLE loot (x int)',
      'CREATE TABLE pgboss.loot (x int)',
      "DELETE FROM migrations WHERE name LIKE '%'",
      'ALTER FUNCTION dashboard_audit_append_only() OWNER TO CURRENT_USER',
      'SET session_replication_role = replica',
      // Sequences are used, never set (contract §30); an entry is sealed once and nothing else of it changes.
      "SELECT setval('dashboard_audit_audit_id_seq', 1)",
      "UPDATE dashboard_audit SET detail = '{}'",
    ];
    for (const sql of refusals) {
      const error = await runtime.query(sql).then(
        () => null,
        (e: Error & { code?: string }) => e,
      );
      // 42501: insufficient_privilege; 42883 or the like would mean the statement was wrong, not refused.
      expect([sql, error?.code]).toEqual([sql, '42501']);
    }
  });

  it('reads and writes the rows it needs, appends to the audit log, and creates job queues', async () => {
    expect((await runtime.query('SELECT count(*)::int AS n FROM payer')).rows[0].n).toBe(0);
    const before = (await runtime.query('SELECT count(*)::int AS n FROM dashboard_audit')).rows[0].n as number;
    await runtime.query(
      `INSERT INTO dashboard_audit (business_id, user_id, email, action, target, result, detail, address, at)
       VALUES ($1, NULL, 'api-key:x', 'api:POST /payer', NULL, 'succeeded', '{}', NULL, now())`,
      [crypto.randomUUID()],
    );
    expect((await runtime.query('SELECT count(*)::int AS n FROM dashboard_audit')).rows[0].n).toBe(before + 1);
    // pg-boss 10 makes a table per queue: through its create_queue, run with the owner's rights.
    const boss = new PgBoss({ connectionString: runtimeUrl, migrate: false, supervise: false, schedule: false, max: 2 });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      const queue = `roles-test-${crypto.randomBytes(3).toString('hex')}`;
      await boss.createQueue(queue);
      expect(await boss.send(queue, { hello: 'world' })).toEqual(expect.any(String));
      const [job] = await boss.fetch<{ hello: string }>(queue);
      expect(job.data).toEqual({ hello: 'world' });
      await boss.complete(queue, job.id);
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
  });

  it('runs the operator commands and the payins API, which migrates as the owner and serves as the runtime role', async () => {
    const env = {
      ...process.env,
      DATABASE_URL: runtimeUrl,
      DATABASE_MIGRATION_URL: ownerUrl,
      SECRETS_MASTER_KEY: crypto.randomBytes(32).toString('base64'),
      MAIL_DIRECTORY: path.join(os.tmpdir(), 'pcs-test-mail'),
      DATA_DIR: path.join(os.tmpdir(), `pcs-roles-${role}`),
      LOG_LEVEL: 'error',
    };
    const cli = (...args: string[]) => {
      const result = spawnSync(process.execPath, [path.join(DIST, 'ops', 'src', 'admin.js'), ...args], {
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      if (result.status !== 0) throw new Error(`admin ${args[0]}: ${result.stderr}`);
      return JSON.parse(result.stdout) as Record<string, string>;
    };
    const business = cli('business:create', '--name', 'Roles business');
    const merchant = cli('merchant:create', '--business', business.businessId, '--name', 'Roles shop', '--approve');
    const api = new ApiProcess('payins-api', await freePort(), env);
    await api.start();
    try {
      const body = JSON.stringify({ firstName: 'Least', lastName: 'Privilege' });
      const created = await fetch(`http://127.0.0.1:${api.port}/payer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'api-key': merchant.apiKey, signature: hmacHex(merchant.apiSecret, body) },
        body,
      });
      expect(created.status).toBe(200);
      // The change is audited (contract §27) by the runtime role, which may append and nothing else.
      const [{ n }] = (
        await runtime.query(`SELECT count(*)::int AS n FROM dashboard_audit WHERE business_id = $1 AND action = 'api:POST /payer'`, [
          business.businessId,
        ])
      ).rows as { n: number }[];
      expect(n).toBe(1);
      // The API's own connections are the runtime role's.
      const sessions = await runtime.query(
        `SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = current_database() AND application_name <> 'psql' AND pid <> pg_backend_pid()`,
      );
      expect(sessions.rows.map((r: { usename: string }) => r.usename)).toContain(role);
    } finally {
      await api.stop();
    }
  }, 120_000);
});
