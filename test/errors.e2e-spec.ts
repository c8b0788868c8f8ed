import { errorShape, hmacHex, TestTenant } from '@pcs/testing/http';
import request from 'supertest';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

describe('error contract (contract §6)', () => {
  let bed: HttpTestbed;
  let tenant: TestTenant;

  beforeAll(async () => {
    bed = await sharedTestbed({});
    ({ tenant } = bed);
  });
  afterAll(() => bed.close());

  const signedRaw = (method: 'patch' | 'put', path: string, raw: string, contentType = 'application/json') =>
    request(bed.url)
      [method](path)
      .set('api-key', tenant.business.apiKey)
      .set('signature', hmacHex(tenant.business.apiSecret, raw))
      .set('content-type', contentType)
      .send(raw);

  it('answers an unknown route with a 404 in the error shape', async () => {
    const response = await request(bed.url).get('/no/such/route');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(errorShape('Payins:ROUTE_NOT_FOUND'));
    expect(response.body.showMessage.ES).not.toBe(response.body.showMessage.EN);
  });

  it('answers malformed JSON with a 400', async () => {
    const response = await signedRaw('patch', `/merchant/${tenant.merchants[0].merchantId}`, '{"merchantName": ');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorShape('Validation:MALFORMED_JSON'));
  });

  it('answers an oversized body with a 413', async () => {
    const raw = JSON.stringify({ metadata: 'x'.repeat(70 * 1024) });
    const response = await signedRaw('patch', `/merchant/${tenant.merchants[0].merchantId}`, raw);
    expect(response.status).toBe(413);
    expect(response.body).toEqual(errorShape('Validation:PAYLOAD_TOO_LARGE'));
  });

  it('answers a body that is not JSON with a 415', async () => {
    const response = await signedRaw(
      'patch',
      `/merchant/${tenant.merchants[0].merchantId}`,
      'merchantName=x',
      'application/x-www-form-urlencoded',
    );
    expect(response.status).toBe(415);
    expect(response.body).toEqual(errorShape('Validation:UNSUPPORTED_MEDIA_TYPE'));
  });

  it('refuses unknown fields and names every offending field', async () => {
    const response = await bed.client(tenant.business).patch(`/merchant/${tenant.merchants[0].merchantId}`, {
      merchantName: 'x'.repeat(129),
      nickname: 'unknown',
      address: { city: 'Montevideo', planet: 'Earth' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorShape('Validation:INVALID_REQUEST'));
    for (const field of ['merchantName', 'nickname', 'address.planet']) {
      expect(response.body.message).toContain(field);
      expect(response.body.showMessage.EN).toContain(field);
      expect(response.body.showMessage.ES).toContain(field);
    }
  });

  it('refuses a body that is not an object', async () => {
    const response = await signedRaw('patch', `/merchant/${tenant.merchants[0].merchantId}`, '[1,2]');
    expect(response.status).toBe(400);
    expect(response.body.errorId).toBe('Validation:INVALID_REQUEST');
  });

  it('answers a malformed id in the path with a 400 naming it', async () => {
    const response = await bed.client(tenant.business).get('/merchant/not-a-uuid');
    expect(response.status).toBe(400);
    expect(response.body.errorId).toBe('Validation:INVALID_REQUEST');
    expect(response.body.message).toContain('merchantId');
  });

  it('keeps a page size above 100 out', async () => {
    const response = await bed.client(tenant.business).get('/merchant?limit=101');
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('limit');
  });
});
