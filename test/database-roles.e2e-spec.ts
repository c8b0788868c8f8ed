import { SERVICE_QUEUES } from '@pcs/config';
import { hmacHex } from '@pcs/testing';
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import PgBoss from 'pg-boss';
import { Client } from 'pg';
import { ApiProcess, DIST } from './api-process';
import { freePort } from './payins-app';
import { emptyDatabase, onServer } from './scratch-database';

/**
 * Least privilege in the database (contract §27, §30, PCI DSS 7.2.5):
 * migrations are a step of their own (`npm run migrate`), run as the role
 * that owns the tables (DATABASE_MIGRATION_URL); the services connect as a
 * runtime role that reads and writes rows and nothing more. This spec makes
 * such a role on its own database with the migration step, proves it is
 * refused every way of undoing the audit log's protection or the schema,
 * runs the payins API and the operator's commands as it (without the
 * development escape hatch the other specs use), and proves each refusal to
 * start: the owner's URL in the environment, a role that owns tables, a
 * database not migrated.
 */

/** This spec's processes without the escape hatch the other specs start theirs with (global setup). */
const strict = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...process.env, PCS_ALLOW_OWNER_ROLE: '', LOG_LEVEL: 'error', ...env });

/** A built entry point run to its end (a refusal ends it at once); its exit status and standard error. */
function runToEnd(main: string, env: NodeJS.ProcessEnv): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(DIST, main)], { env: strict(env), encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stderr: result.stderr };
}
describe('the runtime role', () => {
  const role = `pcs_rt_${crypto.randomBytes(4).toString('hex')}`;
  const password = crypto.randomBytes(12).toString('hex');
  let ownerUrl: string;
  let runtimeUrl: string;
  let drop: () => Promise<void>;
  let runtime: Client;

  beforeAll(async () => {
    await onServer(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    ({ url: ownerUrl, drop } = await emptyDatabase('pcs_roles'));
    const url = new URL(ownerUrl);
    url.username = role;
    url.password = password;
    runtimeUrl = url.toString();
    // The migration step (`npm run migrate`): the migrations, the job queue's schema and queues as the owner, then the runtime role's grants.
    const migrated = runToEnd('ops/src/migrate.js', { DATABASE_URL: runtimeUrl, DATABASE_MIGRATION_URL: ownerUrl });
    expect(migrated).toEqual({ status: 0, stderr: expect.stringContaining('[migrate] applied') });
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

  it('reads and writes the rows it needs, appends to the audit log, and uses the job queues the migration step created', async () => {
    expect((await runtime.query('SELECT count(*)::int AS n FROM payer')).rows[0].n).toBe(0);
    const before = (await runtime.query('SELECT count(*)::int AS n FROM dashboard_audit')).rows[0].n as number;
    await runtime.query(
      `INSERT INTO dashboard_audit (business_id, user_id, email, action, target, result, detail, address, at)
       VALUES ($1, NULL, 'api-key:x', 'api:POST /payer', NULL, 'succeeded', '{}', NULL, now())`,
      [crypto.randomUUID()],
    );
    expect((await runtime.query('SELECT count(*)::int AS n FROM dashboard_audit')).rows[0].n).toBe(before + 1);
    // pg-boss 10 makes a table per queue: the service's are made by the migration step; the runtime role makes none.
    const boss = new PgBoss({ connectionString: runtimeUrl, migrate: false, supervise: false, schedule: false, max: 2 });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      expect((await boss.getQueues()).map((q) => q.name).sort()).toEqual([...SERVICE_QUEUES].sort());
      expect(await boss.send('mail', { hello: 'world' })).toEqual(expect.any(String));
      const [job] = await boss.fetch<{ hello: string }>('mail');
      expect(job.data).toEqual({ hello: 'world' });
      await boss.complete('mail', job.id);
      const refused = await boss.createQueue(`roles-test-${crypto.randomBytes(3).toString('hex')}`).then(
        () => null,
        (e: Error & { code?: string }) => e.code,
      );
      expect(refused).toBe('42501');
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
    // No function of the database runs with another role's rights (contract §30), and the runtime role may run none of pg-boss's.
    const definers = await runtime.query(
      `SELECT n.nspname || '.' || p.proname AS f FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE p.prosecdef AND n.nspname NOT IN ('pg_catalog', 'information_schema')`,
    );
    expect(definers.rows).toEqual([]);
    const executable = await runtime.query(
      `SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'pgboss' AND has_function_privilege(current_user, p.oid, 'EXECUTE')`,
    );
    expect(executable.rows).toEqual([]);
  });

  it("refuses to start an API or the dashboard given the owner's URL, on a role that owns tables, or on a database not migrated", async () => {
    const { url: bareUrl, drop: dropBare } = await emptyDatabase('pcs_bare');
    const bare = new URL(bareUrl);
    bare.username = role;
    bare.password = password;
    const common = {
      SECRETS_MASTER_KEY: crypto.randomBytes(32).toString('base64'),
      MAIL_DIRECTORY: path.join(os.tmpdir(), 'pcs-test-mail'),
      DATA_DIR: path.join(os.tmpdir(), `pcs-roles-${role}`),
      DASHBOARD_API_KEY: 'unused',
      DASHBOARD_API_SECRET: 'unused',
      PAYINS_API_URL: 'http://127.0.0.1:9',
    };
    const cases: [NodeJS.ProcessEnv, RegExp][] = [
      [
        { DATABASE_URL: runtimeUrl, DATABASE_MIGRATION_URL: ownerUrl },
        /failed to start: DATABASE_MIGRATION_URL is set: the (payins-api|b2b-api|dashboard) never receives the owner's URL/,
      ],
      [{ DATABASE_URL: ownerUrl }, /failed to start: the database role "postgres" owns tables \(/],
      [
        { DATABASE_URL: bare.toString() },
        /failed to start: the database lacks [1-9]\d* migration\(s\) of this build \(Initial\w+, …\): run npm run migrate first/,
      ],
    ];
    // Every refusal by the payins API, one by the B2B API, two by the dashboard (the three share the start-up check, libs/database's
    // prepareRuntime: what is proven here is that each main runs it as a service).
    const runs: [string, (typeof cases)[number]][] = [
      ...cases.map((refusal) => ['payins-api/src/main.js', refusal] as [string, (typeof cases)[number]]),
      ['b2b-api/src/main.js', cases[1]],
      ['dashboard/src/main.js', cases[2]],
      ['dashboard/src/main.js', cases[0]],
    ];
    try {
      for (const [main, [env, refusal]] of runs) {
        const { status, stderr } = runToEnd(main, { ...common, ...env });
        // One line, naming the variable, the role or the migration step.
        expect([main, status, stderr.trim().split('\n')]).toEqual([main, 1, [expect.stringMatching(refusal)]]);
      }
    } finally {
      await dropBare();
    }
  }, 180_000);

  it('runs the operator commands and the payins API as the runtime role, on the database the migration step prepared', async () => {
    const env = {
      ...strict({}),
      DATABASE_URL: runtimeUrl,
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
