import { NestExpressApplication } from '@nestjs/platform-express';
import { CredentialService } from '@pcs/businesses';
import { clientFor, createTenant, errorShape, eventually, hmacHex, TestTenant } from '@pcs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { startB2bApi } from './payins-app';
import { Testbed, testbed } from './testbed';

describe('request signing (contract §5)', () => {
  let bed: Testbed;
  let app: NestExpressApplication;
  let tenant: TestTenant;
  let merchantPath: string;

  beforeAll(async () => {
    bed = await testbed({});
    ({ app, tenant } = bed);
    merchantPath = `/merchant/${tenant.merchants[0].merchantId}`;
  });
  afterAll(() => bed.close());

  const key = () => tenant.business.apiKey;
  const secret = () => tenant.business.apiSecret;
  const expectUnauthorized = (response: request.Response) => {
    expect(response.status).toBe(401);
    expect(response.body).toEqual(errorShape('Auth:UNAUTHORIZED'));
  };

  it('accepts a GET signed over {}', async () => {
    const response = await request(app.getHttpServer()).get(merchantPath).set('api-key', key()).set('signature', hmacHex(secret(), '{}'));
    expect(response.status).toBe(200);
    expect(response.body.merchantId).toBe(tenant.merchants[0].merchantId);
  });

  it('accepts a GET signed over the empty string', async () => {
    const response = await request(app.getHttpServer()).get(merchantPath).set('api-key', key()).set('signature', hmacHex(secret(), ''));
    expect(response.status).toBe(200);
  });

  it('accepts a body sent with other whitespace, signed as the compact serialization', async () => {
    const body = { merchantName: 'Spaced out' };
    const response = await request(app.getHttpServer())
      .patch(merchantPath)
      .set('api-key', key())
      .set('signature', hmacHex(secret(), JSON.stringify(body)))
      .set('content-type', 'application/json')
      .send('{\n  "merchantName" :   "Spaced out"\n}');
    expect(response.status).toBe(200);
    expect(response.body.merchantName).toBe('Spaced out');
  });

  it('accepts a body signed over its raw bytes as sent', async () => {
    const raw = '{ "merchantName": "Raw bytes" }';
    const response = await request(app.getHttpServer())
      .patch(merchantPath)
      .set('api-key', key())
      .set('signature', hmacHex(secret(), raw))
      .set('content-type', 'application/json')
      .send(raw);
    expect(response.status).toBe(200);
    expect(response.body.merchantName).toBe('Raw bytes');
  });

  it('refuses a tampered body and changes nothing', async () => {
    const signed = JSON.stringify({ merchantName: 'Signed name' });
    const response = await request(app.getHttpServer())
      .patch(merchantPath)
      .set('api-key', key())
      .set('signature', hmacHex(secret(), signed))
      .set('content-type', 'application/json')
      .send(JSON.stringify({ merchantName: 'Tampered name' }));
    expectUnauthorized(response);
    const after = await clientFor(app, tenant.business).get(merchantPath);
    expect(after.body.merchantName).not.toBe('Tampered name');
  });

  it('refuses a signature made with the wrong secret', async () => {
    expectUnauthorized(
      await request(app.getHttpServer()).get(merchantPath).set('api-key', key()).set('signature', hmacHex('not-the-secret', '{}')),
    );
  });

  it('refuses an unknown api key', async () => {
    expectUnauthorized(
      await request(app.getHttpServer()).get(merchantPath).set('api-key', 'pk_unknown').set('signature', hmacHex(secret(), '{}')),
    );
  });

  it('refuses missing headers', async () => {
    expectUnauthorized(await request(app.getHttpServer()).get(merchantPath));
    expectUnauthorized(await request(app.getHttpServer()).get(merchantPath).set('api-key', key()));
    expectUnauthorized(await request(app.getHttpServer()).get(merchantPath).set('signature', hmacHex(secret(), '{}')));
  });

  it('refuses a revoked key at once', async () => {
    const other = await createTenant(app);
    const client = clientFor(app, other.business);
    expect((await client.get('/merchant')).status).toBe(200);
    await app.get(CredentialService).revoke(other.business.apiKey);
    expectUnauthorized(await client.get('/merchant'));
  });

  it('keeps a rotated key working during its grace period, and never after', async () => {
    const other = await createTenant(app);
    const credentials = app.get(CredentialService);
    const rotated = await credentials.rotate({ businessId: other.business.businessId, merchantId: null }, 30);
    expect((await clientFor(app, other.business).get('/merchant')).status).toBe(200);
    expect((await clientFor(app, rotated).get('/merchant')).status).toBe(200);

    // End the grace period as the clock would: the old pair's expiry passes. Written behind the service's back, the cached pair
    // keeps its old expiry until the change feed's notice of the row arrives (asynchronously, as in every other process).
    await app
      .get<DataSource>(getDataSourceToken())
      .query(`UPDATE api_credential SET expires_at = now() - interval '1 second' WHERE api_key = $1`, [other.business.apiKey]);
    expectUnauthorized(
      await eventually(
        () => clientFor(app, other.business).get('/merchant'),
        (response) => response.status !== 200,
        5,
      ),
    );
    expect((await clientFor(app, rotated).get('/merchant')).status).toBe(200);
  });

  it('rotating with no grace stops the old pair immediately', async () => {
    const other = await createTenant(app);
    const rotated = await app.get(CredentialService).rotate({ businessId: other.business.businessId, merchantId: null }, 0);
    expectUnauthorized(await clientFor(app, other.business).get('/merchant'));
    expect((await clientFor(app, rotated).get('/merchant')).status).toBe(200);
  });

  it('leaves /health and /docs public', async () => {
    expect((await request(app.getHttpServer()).get('/health')).body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
    expect((await request(app.getHttpServer()).get('/metrics')).status).toBe(200);
    const docs = await request(app.getHttpServer()).get('/docs-json');
    expect(docs.status).toBe(200);
    expect(docs.body.info.title).toBe('Payins API');
    // Served by the API itself, the document points "Try it out" at the address it was opened at.
    expect(docs.body.servers).toEqual([{ url: '/', description: 'this API' }]);
    expect((await request(app.getHttpServer()).get('/docs')).status).toBe(200);
  });

  it('guards the B2B API the same way', async () => {
    const b2b = await startB2bApi();
    try {
      expect((await request(b2b.getHttpServer()).get('/health')).status).toBe(200);
      expect((await request(b2b.getHttpServer()).get('/docs-json')).body.info.title).toBe('B2B API');
      const unknown = await request(b2b.getHttpServer()).get('/nowhere');
      expect(unknown.status).toBe(404);
      expect(unknown.body.errorId).toBe('B2B:ROUTE_NOT_FOUND');
    } finally {
      await b2b.close();
    }
  });
});
