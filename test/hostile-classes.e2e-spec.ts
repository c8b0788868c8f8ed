import { errorShape, hmacHex, SignedClient, TestTenant } from '@pcs/testing/http';
import * as http from 'node:http';
import request from 'supertest';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

/**
 * Each class of hostile input found by the probe of issue 7, answered with the
 * error contract and a precise 4xx, changing nothing.
 */
describe('hostile input, class by class', () => {
  let bed: HttpTestbed;
  let tenant: TestTenant;
  let business: SignedClient;
  let merchant: SignedClient;
  let merchantId: string;
  let payerId: string;

  beforeAll(async () => {
    bed = await sharedTestbed({});
    ({ tenant, business, merchant } = bed);
    merchantId = tenant.merchants[0].merchantId;
    const payer = await merchant.post('/payer', {
      firstName: 'Hostile',
      lastName: 'Probe',
      address: { city: 'Montevideo', street: 'Rambla' },
    });
    payerId = payer.body.payerId;
  });
  afterAll(() => bed.close());

  const expect400 = (response: request.Response, errorId: string | RegExp, field?: string) => {
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorShape(errorId));
    if (field) expect(response.body.message).toContain(field);
  };

  it('refuses JSON nested 1,300 levels deep on any route, signed or not, known or not, with 400 JSON_TOO_DEEP', async () => {
    const deep = `${'{"a":'.repeat(1300)}1${'}'.repeat(1300)}`;
    for (const path of ['/payer', '/payment-intent', '/no-such-route']) {
      const signed = await request(bed.url)
        .post(path)
        .set('content-type', 'application/json')
        .set('api-key', tenant.merchants[0].apiKey)
        .set('signature', hmacHex(tenant.merchants[0].apiSecret, deep))
        .send(deep);
      expect400(signed, 'Validation:JSON_TOO_DEEP');
      const unsigned = await request(bed.url).patch(path).set('content-type', 'application/json').send(`[${deep}]`);
      expect400(unsigned, 'Validation:JSON_TOO_DEEP');
    }
    // Brackets inside strings do not count; 32 levels are accepted as far as nesting goes.
    const text = await merchant.post('/payer', { firstName: '{{{{[[[[', lastName: 'x' });
    expect(text.status).toBe(200);
  });

  it('refuses NUL characters and unpaired surrogates, in bodies and queries, naming the field', async () => {
    expect400(await merchant.post('/payer', { firstName: 'a\u0000b' }), 'Validation:INVALID_REQUEST', 'firstName');
    expect400(await merchant.post('/payer', { email: '\ud800' }), 'Validation:INVALID_REQUEST', 'email');
    expect400(await merchant.post('/payer', { address: { city: 'x\udc00' } }), 'Validation:INVALID_REQUEST', 'address.city');
    expect400(await merchant.get('/payer?searchTerm=%00'), 'Validation:INVALID_REQUEST', 'query.searchTerm');
    expect400(await merchant.get('/payin?currency=%ED%A0%80'), /^Validation:/);
  });

  it('validates null as a value: every field the probe sent null is a 400, the configuration with its own errorId', async () => {
    expect400(await business.patch(`/merchant/${merchantId}`, { merchantName: null }), 'Validation:INVALID_REQUEST', 'merchantName');
    expect400(
      await business.put(`/merchant/${merchantId}/configuration`, { fastPaymentsEnabled: null }),
      'Payins:ERROR_IN_UPDATE_MERCHANT_CONFIGURATION',
    );
    expect400(await merchant.post('/payer', { documentType: 'DNI', document: null }), 'Validation:INVALID_REQUEST', 'document');
    expect400(await merchant.patch(`/payer/${payerId}`, { address: null }), 'Validation:INVALID_REQUEST', 'address');
    const [relation] = (await business.get(`/merchant-country-processor?merchantId=${merchantId}`)).body;
    expect400(
      await business.patch(`/merchant-country-processor/${relation.merchantCountryProcessorId}`, { active: null }),
      'Validation:INVALID_REQUEST',
      'active',
    );
    expect400(
      await merchant.post(`/payment-intent/${payerId}/refund`, { requestedRefundAmount: null }),
      'Validation:INVALID_REQUEST',
      'requestedRefundAmount',
    );
  });

  it('bounds page numbers: a page past any bigint is a 400, not a database error', async () => {
    for (const path of ['/merchant', '/payer', '/payin'])
      expect400(await business.get(`${path}?page=99999999999999999999`), 'Validation:INVALID_REQUEST', 'page');
    expect((await business.get('/payin?page=1000000')).status).toBe(200);
  });

  it('refuses arrays where objects are expected, and leaves the stored data as it was', async () => {
    const before = (await merchant.get(`/payer/${payerId}`)).body;
    for (const address of [[], [{}]])
      expect400(await merchant.patch(`/payer/${payerId}`, { address }), 'Validation:INVALID_REQUEST', 'address');
    expect((await merchant.get(`/payer/${payerId}`)).body).toEqual(before);
    expect400(await business.patch(`/merchant/${merchantId}`, { account: [] }), 'Validation:INVALID_REQUEST', 'account');
    expect400(
      await business.patch(`/merchant/${merchantId}`, { account: { settlementBank: [{}] } }),
      'Validation:INVALID_REQUEST',
      'settlementBank',
    );
    const intent = {
      currency: 'UYU',
      amount: 10,
      payinType: 'DEFAULT',
      externalReference: 'arr',
      offSession: false,
      invoiceNumber: 1,
      country: 'URY',
    };
    expect400(await merchant.post('/payment-intent', { ...intent, payerData: [{}] }), 'Validation:INVALID_REQUEST', 'payerData');
    expect400(await merchant.post('/payment-intent', { ...intent, payerId, metadata: [] }), 'Validation:INVALID_REQUEST', 'metadata');
    expect400(
      await merchant.post('/payment-instrument', { payerId, paymentMethodName: 'VISA', country: 'URY', metadata: [1] }),
      'Validation:INVALID_REQUEST',
      'metadata',
    );
    expect400(
      await merchant.post('/payment-intent/fast', {
        amount: 10,
        currency: 'UYU',
        merchantShortName: 'nobody',
        countryCode: 'URY',
        paymentIntentAdditionalInfo: [],
      }),
      'Validation:INVALID_REQUEST',
      'paymentIntentAdditionalInfo',
    );
  });

  it('refuses the keys of the object machinery, whether or not they carry a prototype', async () => {
    expect400(await merchant.post('/payer', JSON.parse('{"constructor":{"name":"x"}}')), 'Validation:INVALID_REQUEST', 'constructor');
    const poisoned = '{"firstName":"a","__proto__":{"isAdmin":true}}';
    const response = await request(bed.url)
      .post('/payer')
      .set('content-type', 'application/json')
      .set('api-key', tenant.merchants[0].apiKey)
      .set('signature', hmacHex(tenant.merchants[0].apiSecret, poisoned))
      .send(poisoned);
    expect400(response, 'Validation:INVALID_REQUEST', '__proto__');
    expect400(
      await merchant.patch(`/payer/${payerId}`, JSON.parse('{"address":{"prototype":{}}}')),
      'Validation:INVALID_REQUEST',
      'address.prototype',
    );
  });

  it('answers oversized headers with 431 in the error shape', async () => {
    const port = Number(new URL(bed.url).port);
    const response = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/merchant', headers: { 'x-padding': 'x'.repeat(20_000) } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(response.status).toBe(431);
    expect(response.type).toContain('application/json');
    expect(JSON.parse(response.body)).toEqual(errorShape('Validation:HEADERS_TOO_LARGE'));
  });

  it('gives ten concurrent creations for one payer with paymentInstrumentData ten intents, mixed with instrument creations, never a 500', async () => {
    const body = (i: number) => ({
      currency: 'UYU',
      amount: 100 + i,
      payinType: 'DEFAULT',
      externalReference: `race-${i}`,
      payerId,
      offSession: false,
      invoiceNumber: i + 1,
      country: 'URY',
      paymentInstrumentData: { paymentMethodName: 'VISA', paymentInstrumentTypeName: 'CREDIT_CARD' },
    });
    const responses = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => merchant.post('/payment-intent', body(i))),
      ...Array.from({ length: 4 }, () =>
        merchant.post('/payment-instrument', { payerId, payerData: { firstName: 'Hostile' }, paymentMethodName: 'VISA', country: 'URY' }),
      ),
    ]);
    expect(responses.map((r) => r.status)).toEqual(Array(14).fill(200));
    const intents = responses.slice(0, 10).map((r) => r.body.paymentIntent);
    expect(new Set(intents.map((i) => i.paymentIntentId)).size).toBe(10);
    // One instrument for the payer, method and country: every creation found the same one.
    expect(new Set(intents.map((i) => i.paymentInstrumentId)).size).toBe(1);
    const [{ count }] = await bed.query(
      `SELECT count(*)::int AS count FROM payment_intent WHERE payer_id = $1 AND external_reference LIKE 'race-%'`,
      [payerId],
    );
    expect(count).toBe(10);
  });
});
