import { NestExpressApplication } from '@nestjs/platform-express';
import { CredentialService } from '@pcs/businesses';
import { errorShape, hmacHex, TestTenant } from '@pcs/testing';
import request from 'supertest';
import { startPayinsApi } from './payins-app';
import { Testbed, testbed } from './testbed';

/** Signing version 2 (contract §17): a timestamp bound into the HMAC, and each mutation accepted once. */
describe('replay-proof signing (version 2)', () => {
  let bed: Testbed;
  let app: NestExpressApplication;
  let tenant: TestTenant;

  beforeAll(async () => {
    bed = await testbed({});
    ({ app, tenant } = bed);
  });
  afterAll(() => bed.close());

  const now = () => Math.floor(Date.now() / 1000);
  /** A v2 request: signature = HMAC(secret, `<timestamp>.<body or {}>`). */
  const signed = (
    server: NestExpressApplication,
    method: 'get' | 'post' | 'patch',
    path: string,
    body?: unknown,
    at = now(),
    credentials = tenant.merchants[0],
  ) => {
    const payload = body === undefined ? '{}' : JSON.stringify(body);
    const test = request(server.getHttpServer())
      [method](path)
      .set('api-key', credentials.apiKey)
      .set('timestamp', String(at))
      .set('signature', hmacHex(credentials.apiSecret, `${at}.${payload}`));
    return body === undefined ? test : test.set('content-type', 'application/json').send(payload);
  };
  const unauthorized = (response: request.Response) => {
    expect(response.status).toBe(401);
    expect(response.body).toEqual(errorShape('Auth:UNAUTHORIZED'));
  };

  it('accepts a v2 read and a v2 change; a read may be repeated, a change is accepted once, and its replay changes nothing', async () => {
    const at = now();
    expect((await signed(app, 'get', '/payer?limit=1', undefined, at)).status).toBe(200);
    expect((await signed(app, 'get', '/payer?limit=1', undefined, at)).status).toBe(200);

    const created = await signed(app, 'post', '/payer', { firstName: 'Once', lastName: 'Only' }, at);
    expect(created.status).toBe(200);
    unauthorized(await signed(app, 'post', '/payer', { firstName: 'Once', lastName: 'Only' }, at));
    const payers = await bed.dataSource.query(`SELECT count(*)::int AS n FROM payer WHERE first_name = 'Once' AND merchant_id = $1`, [
      tenant.merchants[0].merchantId,
    ]);
    expect(payers[0].n).toBe(1);

    // Corrected, then the captured correction replayed: refused, the correction stays.
    const wrong = { email: 'wrong@example.uy' };
    expect((await signed(app, 'patch', `/payer/${created.body.payerId}`, wrong, at)).status).toBe(200);
    expect((await signed(app, 'patch', `/payer/${created.body.payerId}`, { email: 'right@example.uy' }, at)).status).toBe(200);
    unauthorized(await signed(app, 'patch', `/payer/${created.body.payerId}`, wrong, at));
    expect((await bed.merchant.get(`/payer/${created.body.payerId}`)).body.email).toBe('right@example.uy');
  });

  it('refuses a replay that reaches another API process on the same database', async () => {
    const other = await startPayinsApi();
    try {
      const at = now();
      const body = { firstName: 'Elsewhere', lastName: 'Replay' };
      expect((await signed(app, 'post', '/payer', body, at)).status).toBe(200);
      unauthorized(await signed(other, 'post', '/payer', body, at));
    } finally {
      await other.close();
    }
  });

  it('refuses a timestamp more than 300 s away, past or future, and one that is not Unix seconds', async () => {
    unauthorized(await signed(app, 'get', '/payer?limit=1', undefined, now() - 301));
    // Ahead by 305, not 301: the server reads its clock a moment after this one, across a second's
    // turn at worst, so 301 ahead here can be 300 ahead there (a clean-clone run saw it accepted).
    unauthorized(await signed(app, 'get', '/payer?limit=1', undefined, now() + 305));
    expect((await signed(app, 'get', '/payer?limit=1', undefined, now() - 290)).status).toBe(200);
    const odd = request(app.getHttpServer())
      .get('/payer?limit=1')
      .set('api-key', tenant.merchants[0].apiKey)
      .set('timestamp', '17954e5')
      .set('signature', hmacHex(tenant.merchants[0].apiSecret, '17954e5.{}'));
    unauthorized(await odd);
    // A v1 signature sent with a timestamp is not a v2 signature.
    const mixed = request(app.getHttpServer())
      .get('/payer?limit=1')
      .set('api-key', tenant.merchants[0].apiKey)
      .set('timestamp', String(now()))
      .set('signature', hmacHex(tenant.merchants[0].apiSecret, '{}'));
    unauthorized(await mixed);
  });

  it('lets a credential require version 2: v1 is then refused for it, and keeps working for others', async () => {
    const credentials = app.get(CredentialService);
    const merchant = tenant.merchants[0];
    await credentials.requireVersion(merchant.apiKey, 2);
    try {
      unauthorized(await bed.merchant.get('/payer?limit=1'));
      expect((await signed(app, 'get', '/payer?limit=1')).status).toBe(200);
      expect((await bed.business.get('/payer?limit=1')).status).toBe(200);
    } finally {
      await credentials.requireVersion(merchant.apiKey, 1);
    }
    expect((await bed.merchant.get('/payer?limit=1')).status).toBe(200);
  });

  it('counts refusals by reason in /metrics, never by tenant', async () => {
    unauthorized(await signed(app, 'get', '/payer?limit=1', undefined, now() - 1000));
    const text = (await request(app.getHttpServer()).get('/metrics')).text;
    expect(text).toMatch(/pcs_auth_refusals_total\{reason="stale"\} [1-9]/);
    expect(text).toMatch(/pcs_auth_refusals_total\{reason="replay"\} [1-9]/);
    expect(text).not.toContain(tenant.merchants[0].apiKey);
  });
});
