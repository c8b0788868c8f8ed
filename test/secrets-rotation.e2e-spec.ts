import { SecretBox } from '@pcs/config';
import { auditKeyId, auditKeyOf, dashboardIdentityOn, mfaSealedFor, totpCodeOf } from '@pcs/dashboard-identity';
import { freePort } from '@pcs/database';
import { sealedFor } from '@pcs/gateway-accounts';
import { signV3 } from '@pcs/testing';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiProcess } from './api-process';
import { adminWith } from './operator-cli';
import { scratchDatabase } from './scratch-database';

type Json = Record<string, string>;
/** The master key and its earlier generations (SECRETS_MASTER_KEY_PREVIOUS, newest first). */
type Keys = { current: Buffer; previous?: Buffer | Buffer[] };

/**
 * The master key rotated without downtime (contract §22), in a database of the
 * test's own: every process with the new key and the previous one, the
 * operator's `secrets:rotate-master-key`, then a restart with the new key
 * alone — and API secrets, gateway credentials, webhook secrets, second
 * factors and the audit chain all still work.
 */
describe('the master key, rotated', () => {
  const oldKey = crypto.randomBytes(32);
  const newKey = crypto.randomBytes(32);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-rotation-'));
  let url: string;
  let drop: (() => Promise<void>) | undefined;
  let dataSource: DataSource;
  let api: ApiProcess | undefined;

  const env = (keys: Keys): NodeJS.ProcessEnv => ({
    DATABASE_URL: url,
    SECRETS_MASTER_KEY: keys.current.toString('base64'),
    SECRETS_MASTER_KEY_PREVIOUS: [keys.previous ?? []]
      .flat()
      .map((key) => key.toString('base64'))
      .join(','),
    DATA_DIR: dataDir,
    MAIL_DIRECTORY: path.join(dataDir, 'mail'),
    LOG_LEVEL: 'error',
  });
  const adminRun = async (keys: Keys, ...args: string[]) => {
    const result = await adminWith(env(keys), ...args);
    return { status: result.status, stderr: result.stderr, json: result.json as Record<string, unknown> };
  };
  const admin = async (keys: Keys, ...args: string[]) => {
    const result = await adminRun(keys, ...args);
    if (result.status !== 0) throw new Error(`admin ${args[0]}: ${result.stderr}`);
    return result.json;
  };
  const startApi = async (keys: Keys) => {
    api = new ApiProcess('payins-api', await freePort(), env(keys));
    await api.start();
    return `http://127.0.0.1:${api.port}`;
  };

  beforeAll(async () => {
    ({ url, drop } = await scratchDatabase('pcs_rotation'));
    dataSource = new DataSource({ type: 'postgres', url, poolSize: 2 });
    await dataSource.initialize();
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    await dataSource?.destroy();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('re-seals every secret in one go; after a restart with the new key alone, each still works', async () => {
    // Before: everything sealed under the old key, by the real services.
    const old = { current: oldKey };
    const business = (await admin(old, 'business:create', '--name', 'Rotation business')) as Json;
    const merchant = (await admin(
      old,
      'merchant:create',
      '--business',
      business.businessId,
      '--name',
      'Rotation shop',
      '--approve',
    )) as Json;
    let base = await startApi(old);
    // Signed as a client signs (version 3, RFC 9421, which money, secrets and webhook endpoints require), over real HTTP
    // to the API's process, each request with a nonce of its own.
    const signed = (credentials: Json) => {
      const send = (method: 'get' | 'post' | 'put', route: string, body?: unknown) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const call = request(base)
          [method](route)
          .set(signV3({ apiKey: credentials.apiKey, apiSecret: credentials.apiSecret }, method, route, payload));
        return payload === undefined ? call : call.set('content-type', 'application/json').send(payload);
      };
      return {
        get: (route: string) => send('get', route),
        post: (route: string, body: unknown) => send('post', route, body),
        put: (route: string, body: unknown) => send('put', route, body),
      };
    };
    const TOKEN = 'TEST-5417539263426117-112408-8c3d0f2b5e1a4d7e-123456789';
    const WEBHOOK_SECRET = 'whsec-of-the-merchant-app-7c1f';
    const account = await signed(business).put(`/merchant/${merchant.merchantId}/gateway-account/mercado-pago`, {
      accessToken: TOKEN,
      webhookSecret: WEBHOOK_SECRET,
    });
    expect(account.status).toBe(200);
    const endpoint = await signed(business).post('/webhook-endpoint', { url: 'https://hooks.example.com/pcs' });
    expect(endpoint.status).toBe(200);
    const oldIdentity = dashboardIdentityOn(dataSource, new SecretBox(oldKey), { auditKeys: [auditKeyOf(oldKey)] });
    const person = await oldIdentity.createUser({
      businessId: business.businessId,
      merchantId: null,
      email: 'rota@example.uy',
      role: 'admin',
    });
    const first = await oldIdentity.signIn(person.email, person.password, '192.0.2.1', business.businessId);
    if (first.outcome !== 'next') throw new Error(first.outcome);
    const seed = (await oldIdentity.enrolment(first.token))!.secret;
    expect((await oldIdentity.confirmEnrolment(first.token, totpCodeOf(seed), '192.0.2.1')).outcome).toBe('enrolled');
    await api!.stop();

    // During: every process with both keys (the API answers throughout), then the operator's command.
    const both = { current: newKey, previous: oldKey };
    base = await startApi(both);
    expect((await signed(business).get('/merchant')).status).toBe(200);
    const rotated = await admin(both, 'secrets:rotate-master-key');
    expect(rotated).toEqual({ resealed: { apiCredentials: 2, gatewayAccounts: 1, webhookEndpoints: 1, secondFactors: 1 } });
    expect((await signed(merchant).get('/merchant')).status).toBe(200);
    await api!.stop();

    // After: a restart with the new key alone.
    base = await startApi({ current: newKey });
    expect((await signed(business).get('/merchant')).status).toBe(200);
    expect((await signed(merchant).get('/merchant')).status).toBe(200);
    expect(
      (
        await request(base)
          .get('/merchant')
          .set({ 'api-key': business.apiKey, signature: 'x'.repeat(64) })
      ).status,
    ).toBe(401);
    // Gateway credentials and webhook secrets open under the new key alone, and no longer under the old one.
    const onlyNew = new SecretBox(newKey);
    const onlyOld = new SecretBox(oldKey);
    const [gateway] = await dataSource.query('SELECT secrets_sealed FROM gateway_account WHERE merchant_id = $1', [merchant.merchantId]);
    const tokenAd = sealedFor(merchant.merchantId, 'MERCADO_PAGO', 'accessToken');
    expect(onlyNew.open(gateway.secrets_sealed.accessToken, tokenAd)).toBe(TOKEN);
    expect(onlyNew.open(gateway.secrets_sealed.webhookSecret, sealedFor(merchant.merchantId, 'MERCADO_PAGO', 'webhookSecret'))).toBe(
      WEBHOOK_SECRET,
    );
    expect(() => onlyOld.open(gateway.secrets_sealed.accessToken, tokenAd)).toThrow();
    const [hook] = await dataSource.query('SELECT webhook_endpoint_id, secret_ciphertext FROM webhook_endpoint');
    expect(onlyNew.open(hook.secret_ciphertext, hook.webhook_endpoint_id)).toBe(endpoint.body.secret);
    // The second factor: a code of the same seed signs the person in with the new key alone.
    const [user] = await dataSource.query('SELECT mfa_secret FROM dashboard_user WHERE user_id = $1', [person.userId]);
    expect(onlyNew.open(user.mfa_secret, mfaSealedFor(person.userId))).toBe(seed);
    const newIdentity = dashboardIdentityOn(dataSource, onlyNew, { auditKeys: [auditKeyOf(newKey), auditKeyOf(oldKey)] });
    const again = await newIdentity.signIn(person.email, person.password, '192.0.2.2', business.businessId);
    if (again.outcome !== 'next') throw new Error(again.outcome);
    const later = Date.now() + 30_000;
    expect(await newIdentity.verifyCode(again.token, totpCodeOf(seed, later), '192.0.2.2')).toMatchObject({ outcome: 'next' });
    // The audit chain spans both keys: verified with the new key and the previous one, as the command does during a rotation.
    expect(await admin(both, 'audit:verify')).toMatchObject({ ok: true });
    await api!.stop();

    // A second rotation (contract §29): the ring keeps every generation, newest first. Secrets sealed two generations ago
    // still open, and the audit verifies across the three keys, each entry under the generation that sealed it.
    const thirdKey = crypto.randomBytes(32);
    const ring = { current: thirdKey, previous: [newKey, oldKey] };
    base = await startApi(ring);
    expect((await signed(business).get('/merchant')).status).toBe(200);
    expect((await signed(business).post('/webhook-endpoint', { url: 'https://hooks.example.com/third' })).status).toBe(200);
    expect(await admin(ring, 'audit:seal')).toMatchObject({ sealed: expect.any(Number) });
    const verified = (await admin(ring, 'audit:verify')) as { ok: boolean; generations: Record<string, number> };
    expect(verified.ok).toBe(true);
    const idOf = (key: Buffer) => auditKeyId(auditKeyOf(key));
    expect(Object.keys(verified.generations).sort()).toEqual([idOf(oldKey), idOf(newKey), idOf(thirdKey)].sort());
    expect(Object.values(verified.generations).every((count) => count > 0)).toBe(true);
    // A ring missing a generation cannot vouch for its entries, and says which key it lacks.
    const missing = await adminRun({ current: thirdKey, previous: [newKey] }, 'audit:verify');
    expect(missing.status).toBe(1);
    expect(missing.json).toMatchObject({ ok: false, firstBroken: { reason: expect.stringContaining(`no key of id ${idOf(oldKey)}`) } });
    // A secret sealed under the first generation and never resealed opens with the ring (any number of rotations back).
    const ringBox = new SecretBox(thirdKey, [newKey, oldKey]);
    expect(ringBox.open(new SecretBox(oldKey).seal('sealed-two-rotations-ago', 'ad'), 'ad')).toBe('sealed-two-rotations-ago');
  }, 240_000);
});
