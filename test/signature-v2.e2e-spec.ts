import { NestExpressApplication } from '@nestjs/platform-express';
import { CredentialService } from '@pcs/businesses';
import { ApiCredentials, errorShape, hmacHex, TestTenant } from '@pcs/testing';
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
    unauthorized(await signed(app, 'get', '/payer?limit=1', undefined, now() + 301));
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
    await credentials.requireTimestamp(merchant.apiKey, true);
    try {
      unauthorized(await bed.merchant.get('/payer?limit=1'));
      expect((await signed(app, 'get', '/payer?limit=1')).status).toBe(200);
      expect((await bed.business.get('/payer?limit=1')).status).toBe(200);
    } finally {
      await credentials.requireTimestamp(merchant.apiKey, false);
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

/** Version 2 for money and secrets beyond the specification (contract §27). */
describe('version 2 required for money and secrets', () => {
  let bed: Testbed;
  beforeAll(async () => {
    bed = await testbed({});
  });
  afterAll(() => bed.close());

  const someId = '00000000-0000-4000-8000-00000000abcd';
  // A version-2 signature covers timestamp and body, not the path: bodyless changes take a second each.
  let lastAt = 0;
  const v1 = (
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    body?: unknown,
    credentials: ApiCredentials = bed.tenant.merchants[0],
  ) => {
    const payload = body === undefined ? '{}' : JSON.stringify(body);
    const test = request(bed.app.getHttpServer())
      [method](path)
      .set('api-key', credentials.apiKey)
      .set('signature', hmacHex(credentials.apiSecret, payload));
    return body === undefined ? test : test.set('content-type', 'application/json').send(payload);
  };
  const v2 = (
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    body?: unknown,
    credentials: ApiCredentials = bed.tenant.merchants[0],
  ) => {
    const payload = body === undefined ? '{}' : JSON.stringify(body);
    const at = Math.max(Math.floor(Date.now() / 1000), lastAt + 1);
    lastAt = at;
    const test = request(bed.app.getHttpServer())
      [method](path)
      .set('api-key', credentials.apiKey)
      .set('timestamp', String(at))
      .set('signature', hmacHex(credentials.apiSecret, `${at}.${payload}`));
    return body === undefined ? test : test.set('content-type', 'application/json').send(payload);
  };
  const versionRequired = (response: request.Response) => {
    expect(response.status).toBe(401);
    expect(response.body).toEqual(errorShape('Auth:SIGNATURE_VERSION_REQUIRED'));
    expect(response.body.showMessage.ES).toMatch(/versión 2/);
  };

  it('refuses a version-1 signature on every change of payouts, settlement accounts, gateway accounts, webhook secrets and disputes, and takes version 2', async () => {
    const merchantId = bed.tenant.merchants[0].merchantId;
    const changes: ['post' | 'put' | 'delete', string, unknown][] = [
      ['post', `/merchant/${merchantId}/payout`, { currency: 'UYU' }],
      ['post', `/payout/${someId}/cancel`, undefined],
      ['put', `/merchant/${merchantId}/settlement-account/UYU`, { bankId: someId, accountNumber: '001234567', accountType: 'CHECKING' }],
      ['post', `/merchant/${merchantId}/settlement-account/UYU/confirm`, { email: 'admin@example.uy', code: '123456' }],
      ['put', `/merchant/${merchantId}/gateway-account/mercado-pago`, { accessToken: 'APP_USR-1', fundsFlow: 'PLATFORM' }],
      ['delete', `/merchant/${merchantId}/gateway-account/mercado-pago`, undefined],
      ['put', `/merchant/${merchantId}/gateway-account/dlocal`, { xLogin: 'x', xTransKey: 'y', secretKey: 'z' }],
      ['delete', `/merchant/${merchantId}/gateway-account/dlocal`, undefined],
      ['post', `/webhook-endpoint/${someId}/rotate-secret`, undefined],
      ['post', `/dispute/${someId}/submit`, undefined],
      ['post', `/dispute/${someId}/accept`, undefined],
    ];
    for (const [method, path, body] of changes) {
      const refused = await v1(method, path, body);
      expect([method, path, refused.status]).toEqual([method, path, 401]);
      versionRequired(refused);
      // The same change signed with version 2 passes the signature (whatever the route then says of it).
      const answer = await v2(method, path, body);
      expect([method, path, answer.status]).not.toEqual([method, path, 401]);
    }
    // The upload too, signed over its bytes with version 1.
    const upload = Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4\r\n--b--\r\n');
    versionRequired(
      await request(bed.app.getHttpServer())
        .post(`/dispute/${someId}/evidence`)
        .set('api-key', bed.tenant.merchants[0].apiKey)
        .set('signature', hmacHex(bed.tenant.merchants[0].apiSecret, upload))
        .set('content-type', 'multipart/form-data; boundary=b')
        .send(upload),
    );
  });

  it("keeps version 1 for the reads of those routes and for the specification's own changes; PATCH /merchant takes version 2 only with account.settlementBank", async () => {
    const merchantId = bed.tenant.merchants[0].merchantId;
    for (const path of [`/merchant/${merchantId}/settlement-account`, `/merchant/${merchantId}/balance`, '/dispute'])
      expect([path, (await v1('get', path)).status]).toEqual([path, 200]);
    const business = bed.tenant.business;
    expect((await v1('patch', `/merchant/${merchantId}`, { merchantName: 'Renamed by v1' }, business)).status).toBe(200);
    const settlementBank = { account: { settlementBank: { bankId: someId, accountNumber: '001234567', currency: 'UYU' } } };
    versionRequired(await v1('patch', `/merchant/${merchantId}`, settlementBank, business));
    expect((await v2('patch', `/merchant/${merchantId}`, settlementBank, business)).status).not.toBe(401);
    // The specification's own operations: version 1 as ever.
    expect((await v1('post', '/payer', { firstName: 'Still', lastName: 'Version-one' })).status).toBe(200);
  });
});
