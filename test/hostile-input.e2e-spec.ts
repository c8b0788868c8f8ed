import { sandboxCallbackKey, signCallback } from '@pcs/gateways';
import { errorShape, hmacHex, TestTenant } from '@pcs/testing/http';
import request from 'supertest';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

/** Bad input gets the specification's error body, never a 500. */
describe('hostile input on the payment routes', () => {
  let bed: HttpTestbed;
  let tenant: TestTenant;

  beforeAll(async () => {
    bed = await sharedTestbed({});
    ({ tenant } = bed);
  });
  afterAll(() => bed.close());

  const expectClientError = (response: request.Response) => {
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body).toEqual(errorShape(/^(Payins|Validation|Auth):[A-Z_]+$/));
  };

  it('answers odd JSON bodies on signed routes with 4xx', async () => {
    const merchant = bed.client(tenant.merchants[0]);
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [path, body] of [
      [
        '/payment-intent',
        {
          amount: 1e308,
          currency: 'UYU',
          payinType: 'DEFAULT',
          externalReference: 'x',
          payerId: id,
          offSession: false,
          invoiceNumber: 1,
          country: 'URY',
        },
      ],
      ['/payment-intent', { payerData: 'not an object', currency: 'UYU' }],
      ['/payment-intent', { paymentInstrumentData: { paymentMethodName: 'VISA', countries: ['x'] } }],
      ['/payment-intent/fast', { amount: 'NaN', merchantShortName: {}, countryCode: 'URY', currency: 'UYU' }],
      [`/payment-intent/${id}/refund`, { requestedRefundAmount: null }],
      [`/payment-intent/${id}/refund`, { requestedRefundAmount: 1, extra: true }],
      [`/payment-intent/${id}/manual-refund`, { status: 'MANUAL_REFUND_MAYBE' }],
      [`/payment-intent/${id}/initialize`, {}],
    ] as const) {
      expectClientError(await merchant.post(path, body));
    }
    for (const path of [
      '/payin?page=0',
      '/payin?limit=abc',
      '/payin?minAmount=-1',
      '/payin?dateFrom=2026-13-45',
      '/payment-intent/not-a-uuid',
    ]) {
      expectClientError(await merchant.get(path));
    }
  });

  it('answers odd callbacks and sandbox posts with 4xx', async () => {
    const key = sandboxCallbackKey(Buffer.from(process.env.TEST_SECRETS_MASTER_KEY as string, 'base64'));
    for (const raw of [
      'null',
      '[]',
      '"text"',
      '{"eventId":1,"reference":"r","outcome":"APPROVED"}',
      '{"eventId":"e","reference":"r","outcome":"MAYBE"}',
    ]) {
      const response = await request(bed.url)
        .post('/gateway/callbacks/sandbox')
        .set('content-type', 'application/json')
        .set('x-sandbox-signature', signCallback(key, raw))
        .send(raw);
      expectClientError(response);
    }
    // A person at an unknown address gets a page saying so (404), never JSON.
    for (const response of [
      await request(bed.url).post('/sandbox/gateway/unknown-reference').type('form').send({ outcome: 'approve' }),
      await request(bed.url).get('/sandbox/gateway/unknown-reference'),
    ]) {
      expect(response.status).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.text).toContain('Pago no encontrado');
      expect(response.text).not.toContain('errorId');
    }
    expectClientError(await request(bed.url).post('/sandbox/gateway/unknown-reference').type('form').send({ outcome: 'steal' }));
    const json = await request(bed.url).post('/sandbox/gateway/x').set('content-type', 'application/json').send('{"outcome":"approve"}');
    expect(json.status).toBe(404);
    expect(json.headers['content-type']).toMatch(/^text\/html/);
    expectClientError(
      await request(bed.url).post('/sandbox/gateway/x').set('content-type', 'application/json').send('{"outcome":["approve"]}'),
    );
  });

  it('refuses an unsigned refund whatever its body', async () => {
    const response = await request(bed.url)
      .post('/payment-intent/00000000-0000-4000-8000-000000000000/refund')
      .set('api-key', tenant.merchants[0].apiKey)
      .set('signature', hmacHex('wrong', '{}'));
    expect(response.status).toBe(401);
  });
});
