import { spawnSync } from 'node:child_process';
import { NestExpressApplication } from '@nestjs/platform-express';
import { clientFor, hmacHex, signV3 } from '@pcs/testing';
import request from 'supertest';
import * as path from 'node:path';
import { admin, adminBinary } from './operator-cli';
import { Testbed, testbed } from './testbed';

describe('operator commands (npm run admin)', () => {
  let bed: Testbed;
  let app: NestExpressApplication;

  beforeAll(async () => {
    bed = await testbed({});
    ({ app } = bed);
  });
  afterAll(() => bed.close());

  it('prints only its JSON on stdout when invoked as `npm run admin` (no npm banner: the project .npmrc)', () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      SECRETS_MASTER_KEY: process.env.TEST_SECRETS_MASTER_KEY,
      LOG_LEVEL: 'error',
    };
    // As a person types it: npm's own settings come from the project, not from the `npm test` running this.
    for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
    const result = spawnSync('npm', ['run', 'admin', '--', 'business:create', '--name', 'Through npm'], {
      cwd: path.join(__dirname, '..'),
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'Through npm', apiKey: expect.stringMatching(/^pk_/) });
  });

  it('creates a business and an approved merchant whose credentials work over HTTP, printing one JSON object each', async () => {
    const business = await admin('business:create', '--name', 'CLI business');
    expect(business.status).toBe(0);
    expect(business.stdout.trim().split('\n')).toHaveLength(1);
    expect(business.json).toEqual({
      businessId: expect.any(String),
      name: 'CLI business',
      apiKey: expect.stringMatching(/^pk_/),
      apiSecret: expect.stringMatching(/^sk_/),
    });

    const merchant = await admin(
      'merchant:create',
      '--business',
      String(business.json.businessId),
      '--name',
      'CLI shop',
      '--country',
      'ARG',
      '--approve',
    );
    expect(merchant.status).toBe(0);
    expect(merchant.json).toMatchObject({ businessId: business.json.businessId, status: 'ACTIVE' });

    const asMerchant = clientFor(app, { apiKey: String(merchant.json.apiKey), apiSecret: String(merchant.json.apiSecret) });
    const relationships = (await asMerchant.get('/merchant-country-processor')).body as {
      onboardingStatus: string;
      countryProcessor: { currency: string[] };
    }[];
    expect(relationships.length).toBeGreaterThan(5);
    expect(relationships.every((r) => r.onboardingStatus === 'ACTIVE' && r.countryProcessor.currency.some((c) => c === 'ARS'))).toBe(true);
  });

  it('approves an onboarding merchant and rotates and revokes credentials', async () => {
    const business = (await admin('business:create', '--name', 'Second CLI business')).json;
    const merchant = (await admin('merchant:create', '--business', String(business.businessId), '--name', 'Pending shop')).json;
    expect(merchant.status).toBe('ONBOARDING');

    const approved = await admin('merchant:approve', '--merchant', String(merchant.merchantId));
    expect(approved.status).toBe(0);
    expect(approved.json).toMatchObject({ merchantId: merchant.merchantId, status: 'ACTIVE', approvedAt: expect.any(String) });
    expect((await admin('merchant:suspend', '--merchant', String(merchant.merchantId))).json).toMatchObject({ status: 'SUSPENDED' });
    expect((await admin('merchant:approve', '--merchant', String(merchant.merchantId))).status).toBe(0);
    // Audited with the operator's name (contract §27).
    const approvals = await bed.dataSource.query(
      `SELECT email, action, result FROM dashboard_audit WHERE business_id = $1 AND action LIKE 'merchant:%' ORDER BY audit_id`,
      [business.businessId],
    );
    expect(approvals.map((a: Record<string, string>) => [a.email, a.action, a.result])).toEqual([
      ['operator:ana.ops', 'merchant:create', 'succeeded'],
      ['operator:ana.ops', 'merchant:approve', 'succeeded'],
      ['operator:ana.ops', 'merchant:suspend', 'succeeded'],
      ['operator:ana.ops', 'merchant:approve', 'succeeded'],
    ]);

    const rotated = await admin('credentials:rotate', '--merchant', String(merchant.merchantId), '--grace-minutes', '0');
    expect(rotated.status).toBe(0);
    expect(Object.keys(rotated.json).sort()).toEqual(['apiKey', 'apiSecret']);
    const oldPair = clientFor(app, { apiKey: String(merchant.apiKey), apiSecret: String(merchant.apiSecret) });
    const newPair = clientFor(app, { apiKey: String(rotated.json.apiKey), apiSecret: String(rotated.json.apiSecret) });
    expect((await oldPair.get('/merchant')).status).toBe(401);
    expect((await newPair.get('/merchant')).status).toBe(200);

    expect((await admin('credentials:revoke', '--api-key', String(rotated.json.apiKey))).json).toEqual({ revoked: true });
    expect((await newPair.get('/merchant')).status).toBe(401);
  });

  it('rotates a secret on the same key (credentials:rotate --api-key): both verify during the grace, then only the new; lists last uses', async () => {
    const business = (await admin('business:create', '--name', 'Rotating business')).json;
    const key = String(business.apiKey);
    const first = clientFor(app, { apiKey: key, apiSecret: String(business.apiSecret) });
    expect((await first.get('/merchant')).status).toBe(200);
    const rotated = await admin('credentials:rotate', '--api-key', key, '--grace-minutes', '30');
    expect(rotated.status).toBe(0);
    expect(rotated.json).toEqual({ apiKey: key, apiSecret: expect.stringMatching(/^sk_/), previousSecretExpiresAt: expect.any(String) });
    const second = clientFor(app, { apiKey: key, apiSecret: String(rotated.json.apiSecret) });
    // The change reaches every process at once; both secrets verify during the grace.
    expect((await second.get('/merchant')).status).toBe(200);
    expect((await first.get('/merchant')).status).toBe(200);
    // The last use of each secret, to the minute, and never a secret in the listing.
    const listed = await admin('credentials:list', '--business', String(business.businessId));
    expect(listed.status).toBe(0);
    expect(listed.stdout).not.toContain(String(rotated.json.apiSecret));
    expect(listed.stdout).not.toContain(String(business.apiSecret));
    const summary = (listed.json.credentials as Record<string, unknown>[]).find((c) => c.apiKey === key)!;
    expect(summary).toMatchObject({ usable: true, lastUsedAt: expect.any(String), previousSecretLastUsedAt: expect.any(String) });
    expect(new Date(String(summary.previousSecretExpiresAt)).getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
    // A later rotation ends the earlier grace: two secrets at most ever verify.
    const third = await admin('credentials:rotate', '--api-key', key, '--grace-minutes', '0');
    const latest = clientFor(app, { apiKey: key, apiSecret: String(third.json.apiSecret) });
    expect((await latest.get('/merchant')).status).toBe(200);
    expect((await first.get('/merchant')).status).toBe(401);
    expect((await second.get('/merchant')).status).toBe(401);
    expect((await admin('credentials:rotate', '--api-key', 'pk_unknown')).status).toBe(1);
    // Both rotations are in the business's audit log, the key and never a secret.
    const audit = await bed.dataSource.query(
      `SELECT action, target, detail FROM dashboard_audit WHERE business_id = $1 ORDER BY audit_id`,
      [business.businessId],
    );
    expect(audit.map((a: Record<string, string>) => [a.action, a.target])).toEqual([
      ['business:create', key],
      ['credentials:rotate-secret', key],
      ['credentials:rotate-secret', key],
    ]);
    expect(JSON.stringify(audit)).not.toContain('sk_');
  });

  it('raises a credential’s signing floor to version 2, then 3, and takes it off (credentials:require-version)', async () => {
    const business = (await admin('business:create', '--name', 'Timestamped business')).json as { apiKey: string; apiSecret: string };
    const pair = clientFor(app, { apiKey: business.apiKey, apiSecret: business.apiSecret });
    expect((await pair.get('/merchant')).status).toBe(200);
    expect((await admin('credentials:require-version', '--api-key', business.apiKey, '--min', '2')).json).toEqual({
      apiKey: business.apiKey,
      minSignatureVersion: 2,
    });
    expect((await pair.get('/merchant')).status).toBe(401); // version 1: refused at once (the change feed forgets the cached pair)
    const at = String(Math.floor(Date.now() / 1000));
    const v2 = await request(app.getHttpServer())
      .get('/merchant')
      .set('api-key', business.apiKey)
      .set('timestamp', at)
      .set('signature', hmacHex(business.apiSecret, `${at}.{}`));
    expect(v2.status).toBe(200);
    expect((await admin('credentials:require-version', '--api-key', business.apiKey, '--min', '3')).json).toEqual({
      apiKey: business.apiKey,
      minSignatureVersion: 3,
    });
    const at2 = String(Math.floor(Date.now() / 1000));
    const v2Again = await request(app.getHttpServer())
      .get('/merchant?page=1')
      .set('api-key', business.apiKey)
      .set('timestamp', at2)
      .set('signature', hmacHex(business.apiSecret, `${at2}.{}`));
    expect(v2Again.status).toBe(401);
    const v3 = await request(app.getHttpServer())
      .get('/merchant')
      .set(signV3(business, 'GET', '/merchant'));
    expect(v3.status).toBe(200);
    expect((await admin('credentials:require-version', '--api-key', business.apiKey, '--off')).json).toEqual({
      apiKey: business.apiKey,
      minSignatureVersion: 1,
    });
    expect((await pair.get('/merchant')).status).toBe(200);
    // Refused: an unknown key, a floor that is not 2 or 3 (written any other way), no floor at all. Run together: each is a process.
    const refused = await Promise.all([
      admin('credentials:require-version', '--api-key', 'pk_nobody', '--min', '2'),
      ...['1', '4', '0x3'].map((min) => admin('credentials:require-version', '--api-key', business.apiKey, '--min', min)),
      admin('credentials:require-version', '--api-key', business.apiKey),
    ]);
    expect(refused.map((run) => run.status)).toEqual([1, 1, 1, 1, 1]);
  }, 120_000);

  it('creates a restricted credential limited to its scopes (credentials:create-restricted), audited, and refuses bad scopes', async () => {
    const business = (await admin('business:create', '--name', 'Restricted business')).json as { businessId: string };
    const created = await admin(
      'credentials:create-restricted',
      '--business',
      business.businessId,
      '--scope',
      'read',
      '--scope',
      'payments:write,read',
    );
    expect(created.status).toBe(0);
    expect(created.json).toEqual({
      businessId: business.businessId,
      apiKey: expect.stringMatching(/^pk_/),
      apiSecret: expect.stringMatching(/^sk_/),
      scopes: ['read', 'payments:write'],
    });
    const restricted = clientFor(app, created.json as { apiKey: string; apiSecret: string });
    expect((await restricted.get('/merchant')).status).toBe(200);
    const merchant = (await admin('merchant:create', '--business', business.businessId, '--name', 'Scoped shop')).json as {
      merchantId: string;
    };
    const renamed = await restricted.patch(`/merchant/${merchant.merchantId}`, { merchantName: 'Not mine to rename' });
    expect(renamed.status).toBe(403);
    expect(renamed.body).toMatchObject({ errorId: 'Auth:FORBIDDEN' });
    const listed = (await admin('credentials:list', '--business', business.businessId)).json as {
      credentials: { apiKey: string; scopes: string[] | null }[];
    };
    expect(listed.credentials.find((c) => c.apiKey === created.json.apiKey)?.scopes).toEqual(['read', 'payments:write']);
    // The business's own credential and its merchant's are full ones.
    expect(listed.credentials.filter((c) => c.scopes === null)).toHaveLength(2);
    const [entry] = await bed.dataSource.query(
      `SELECT action, target, detail FROM dashboard_audit WHERE business_id = $1 AND action = 'credentials:create-restricted'`,
      [business.businessId],
    );
    expect(entry).toMatchObject({ target: created.json.apiKey, detail: { scopes: ['read', 'payments:write'] } });
    expect(JSON.stringify(entry)).not.toContain(String(created.json.apiSecret));
    // Refused: no scope, an unknown one, a business that does not exist. Run together: each is a process.
    const refused = await Promise.all([
      admin('credentials:create-restricted', '--business', business.businessId),
      admin('credentials:create-restricted', '--business', business.businessId, '--scope', 'admin'),
      admin('credentials:create-restricted', '--business', business.businessId, '--scope', 'read,'),
      admin('credentials:create-restricted', '--business', crypto.randomUUID(), '--scope', 'read'),
    ]);
    expect(refused.map((run) => run.status)).toEqual([1, 1, 1, 1]);
    expect(refused[1].stderr).toContain('--scope admin is not one of read, payments:write, merchants:write, money:write, secrets:read');
  }, 120_000);

  it('disables, enables and re-roles a person (user:disable, user:enable, user:set-role), never the last enabled admin', async () => {
    const business = (await admin('business:create', '--name', 'Staff business')).json as { businessId: string };
    const email = `staff-${crypto.randomUUID().slice(0, 8)}@example.uy`;
    const boss = `boss-${email}`;
    expect((await admin('user:create', '--business', business.businessId, '--email', boss, '--role', 'admin')).status).toBe(0);
    expect((await admin('user:create', '--business', business.businessId, '--email', email, '--role', 'operator')).status).toBe(0);
    expect((await admin('user:disable', '--email', email)).json).toMatchObject({ email, disabled: true });
    expect((await admin('user:enable', '--email', email)).json).toMatchObject({ email, disabled: false });
    expect((await admin('user:set-role', '--email', email, '--role', 'viewer')).json).toMatchObject({ email, role: 'viewer' });
    expect((await admin('user:set-role', '--email', email, '--role', 'owner')).status).toBe(1);
    const last = await admin('user:disable', '--email', boss);
    expect(last.status).toBe(1);
    expect(last.stderr).toContain('last enabled admin');
    expect((await admin('user:set-role', '--email', boss, '--role', 'operator')).status).toBe(1);
    const audit = await bed.dataSource.query(
      `SELECT email, action, result FROM dashboard_audit WHERE business_id = $1 AND action IN ('user:disable', 'user:enable', 'user:set-role') ORDER BY audit_id`,
      [business.businessId],
    );
    expect(audit.map((a: Record<string, string>) => [a.email, a.action, a.result])).toEqual([
      ['operator:ana.ops', 'user:disable', 'succeeded'],
      ['operator:ana.ops', 'user:enable', 'succeeded'],
      ['operator:ana.ops', 'user:set-role', 'succeeded'],
      ['operator:ana.ops', 'user:disable', 'refused'],
      ['operator:ana.ops', 'user:set-role', 'refused'],
    ]);
  }, 120_000);

  it('creates dashboard users (user:create) with a password shown once, scoped to a merchant of the business, and resets it', async () => {
    const business = (await admin('business:create', '--name', 'Dashboard business')).json as { businessId: string; apiKey: string };
    const other = (await admin('business:create', '--name', 'Another business')).json as { businessId: string };
    const merchant = (await admin('merchant:create', '--business', business.businessId, '--name', 'Shop', '--approve')).json as {
      merchantId: string;
      apiKey: string;
    };
    const email = `ops-${Date.now()}@example.uy`;
    const admin1 = await admin('user:create', '--business', business.businessId, '--email', email, '--role', 'admin');
    expect(admin1.status).toBe(0);
    expect(admin1.json).toEqual({ userId: expect.any(String), email, role: 'admin', password: expect.stringMatching(/^\w{20}$/) });
    const scoped = await admin(
      'user:create',
      '--business',
      business.businessId,
      '--email',
      `shop-${email}`,
      '--role',
      'viewer',
      '--merchant',
      merchant.merchantId,
    );
    expect(scoped.json).toMatchObject({ role: 'viewer', merchantId: merchant.merchantId });
    const [row] = await bed.dataSource.query('SELECT business_id, merchant_id, password_hash FROM dashboard_user WHERE user_id = $1', [
      scoped.json.userId,
    ]);
    expect(row).toMatchObject({ business_id: business.businessId, merchant_id: merchant.merchantId });
    expect(row.password_hash).not.toContain(scoped.json.password as string);

    const reset = await admin('user:reset-password', '--email', email);
    expect(reset.json).toEqual({ userId: admin1.json.userId, email, password: expect.stringMatching(/^\w{20}$/) });
    expect(reset.json.password).not.toBe(admin1.json.password);

    for (const [args, reason] of [
      [['--business', business.businessId, '--email', email, '--role', 'admin'], 'already exists'],
      [['--business', business.businessId, '--email', `x-${email}`, '--role', 'root'], '--role'],
      [
        ['--business', other.businessId, '--email', `y-${email}`, '--role', 'viewer', '--merchant', merchant.merchantId],
        'not of that business',
      ],
      [['--business', '00000000-0000-4000-8000-000000000000', '--email', `z-${email}`, '--role', 'viewer'], 'no business'],
    ] as const) {
      const refused = await admin('user:create', ...args);
      expect(refused.status).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(reason);
    }
    expect((await admin('user:reset-password', '--email', 'nobody@example.uy')).stderr).toContain('no user has that email');

    // Locked out and lost phone (contract §22): the operator unlocks and makes the person enrol again.
    await bed.dataSource.query(
      `UPDATE dashboard_user SET failed_attempts = 10, locked_until = now() + interval '30 minutes', mfa_enrolled_at = now(), mfa_secret = 'x'
        WHERE user_id = $1`,
      [admin1.json.userId],
    );
    await bed.dataSource.query(`INSERT INTO dashboard_recovery_code (user_id, code_hash) VALUES ($1, repeat('a', 64))`, [
      admin1.json.userId,
    ]);
    expect((await admin('user:unlock', '--email', email)).json).toEqual({ userId: admin1.json.userId, email, unlocked: true });
    expect((await admin('user:reset-mfa', '--email', email)).json).toEqual({ userId: admin1.json.userId, email, mfaReset: true });
    const [person] = await bed.dataSource.query(
      `SELECT failed_attempts, locked_until, mfa_secret, mfa_enrolled_at,
              (SELECT count(*)::int FROM dashboard_recovery_code c WHERE c.user_id = u.user_id) AS codes
         FROM dashboard_user u WHERE user_id = $1`,
      [admin1.json.userId],
    );
    expect(person).toEqual({ failed_attempts: 0, locked_until: null, mfa_secret: null, mfa_enrolled_at: null, codes: 0 });
    expect((await admin('user:unlock', '--email', 'nobody@example.uy')).stderr).toContain('no user has that email');
    // Each change to a person is in the business's audit log, the operator its actor, never a password.
    const audit = await bed.dataSource.query(
      `SELECT email, action, target, detail FROM dashboard_audit WHERE business_id = $1 ORDER BY audit_id`,
      [business.businessId],
    );
    expect(audit.map((a: Record<string, string>) => [a.email, a.action, a.target])).toEqual([
      ['operator:ana.ops', 'business:create', business.apiKey],
      ['operator:ana.ops', 'merchant:create', merchant.apiKey],
      ['operator:ana.ops', 'user:create', email],
      ['operator:ana.ops', 'user:create', `shop-${email}`],
      ['operator:ana.ops', 'user:reset-password', email],
      ['operator:ana.ops', 'user:unlock', email],
      ['operator:ana.ops', 'user:reset-mfa', email],
    ]);
    expect(JSON.stringify(audit)).not.toContain(reset.json.password as string);
    // Eight commands, each with scrypt at 128 MiB: a busy machine needs more than the default 30 s.
  }, 120_000);

  it('fails with a non-zero exit, nothing on stdout and a reason on stderr', async () => {
    const missing = await admin('merchant:create', '--name', 'No business');
    expect(missing.status).not.toBe(0);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('--business');
    const unknown = await admin('merchant:approve', '--merchant', '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(1);
    expect(unknown.stdout).toBe('');
    expect((await admin('no:such-command')).status).toBe(2);
  });

  it('exits with its status as a process of its own: 1 refused, 2 not understood (0 and its JSON: `npm run admin` above)', async () => {
    // The others run the command in this process (test/operator-cli.ts); the built file's own exit and streams, here.
    const unknown = await adminBinary('merchant:approve', '--merchant', '00000000-0000-4000-8000-000000000000');
    expect(unknown).toMatchObject({ status: 1, stdout: '' });
    expect(unknown.stderr).toContain('The merchant was not found.');
    const notUnderstood = await adminBinary('merchant:create', '--nme', 'Typo');
    expect(notUnderstood).toMatchObject({ status: 2, stdout: '' });
    expect(notUnderstood.stderr).toContain('usage: npm run admin -- merchant:create');
  });
});
