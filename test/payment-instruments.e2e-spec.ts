import { hmacHex, SignedClient, TestTenant } from '@pcs/testing/http';
import request from 'supertest';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

describe('payment instruments (operations 16, 25–28)', () => {
  let bed: HttpTestbed;
  let tenant: TestTenant;
  let merchant: SignedClient;
  let payerId: string;

  beforeAll(async () => {
    bed = await sharedTestbed({ payer: { firstName: 'Lucía', lastName: 'Gómez' } });
    ({ tenant, merchant, payerId } = bed);
  });
  afterAll(() => bed.close());

  it('creates an instrument for a method the merchant offers, and uses it again for the same method and country', async () => {
    const created = await merchant.post('/payment-instrument', {
      payerId,
      paymentMethodName: 'OCA',
      country: 'URY',
      metadata: { label: 'personal card' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      paymentInstrumentId: expect.any(String),
      merchantId: tenant.merchants[0].merchantId,
      payerId,
      paymentInstrumentStatus: 'ACTIVE',
      paymentMethodId: expect.any(String),
      externalId: null,
      active: true,
      validated: false,
      countries: 'URY',
      metadata: { label: 'personal card' },
      nextAction: 'REQUIRES_FIRST_PAYMENT',
      // Only a card saved by a setup page holds its parts (test/card-setup.e2e-spec.ts), only a Pix Automático
      // authorisation its terms (test/pix-automatico.e2e-spec.ts).
      card: null,
      pixAutomatico: null,
    });
    const again = await merchant.post('/payment-instrument', { payerId, paymentMethodName: 'OCA', country: 'URY' });
    expect(again.body.paymentInstrumentId).toBe(created.body.paymentInstrumentId);
    const other = await merchant.post('/payment-instrument', {
      payerId,
      paymentMethodName: 'BROU',
      country: 'URY',
      countries: ['URY', 'ARG'],
    });
    expect(other.body.paymentInstrumentId).not.toBe(created.body.paymentInstrumentId);
    expect(other.body.countries).toBe('URY,ARG');
  });

  it('refuses a method the merchant has no active processor for in that country', async () => {
    for (const body of [
      { payerId, paymentMethodName: 'PIX', country: 'URY' },
      { payerId, paymentMethodName: 'VISA', country: 'ARG' },
    ]) {
      const response = await merchant.post('/payment-instrument', body);
      expect(response.status).toBe(400);
      expect(response.body.errorId).toBe('Payins:PAYMENT_METHOD_NOT_AVAILABLE');
      expect(response.body.message).toContain(body.paymentMethodName);
    }
    const business = bed.client(tenant.business);
    const relationships = (await business.get('/merchant-country-processor')).body;
    const amex = relationships.find(
      (r: { countryProcessor: { paymentMethod: { paymentMethodName: string } } }) =>
        r.countryProcessor.paymentMethod.paymentMethodName === 'AMERICAN_EXPRESS',
    );
    await business.patch(`/merchant-country-processor/${amex.merchantCountryProcessorId}`, { active: false });
    expect((await merchant.post('/payment-instrument', { payerId, paymentMethodName: 'AMERICAN_EXPRESS', country: 'URY' })).status).toBe(
      400,
    );
    await business.patch(`/merchant-country-processor/${amex.merchantCountryProcessorId}`, { active: true });
    expect((await merchant.post('/payment-instrument', { payerId, paymentMethodName: 'AMERICAN_EXPRESS', country: 'URY' })).status).toBe(
      200,
    );
  });

  it('validates the request, naming the fields', async () => {
    const response = await merchant.post('/payment-instrument', {
      paymentMethodName: 'DINERS',
      country: 'CHL',
      countries: ['XX'],
      metadata: 'text',
    });
    expect(response.status).toBe(400);
    for (const field of ['payerId', 'paymentMethodName', 'country', 'countries', 'metadata'])
      expect(response.body.showMessage.EN).toContain(field);
    const unknownCountry = await merchant.post('/payment-instrument', {
      payerId,
      paymentMethodName: 'VISA',
      country: 'URY',
      countries: ['CHL'],
    });
    expect(unknownCountry.status).toBe(400);
    expect(unknownCountry.body.message).toContain('countries');
    const big = await merchant.post('/payment-instrument', {
      payerId,
      paymentMethodName: 'VISA',
      country: 'URY',
      metadata: { blob: 'x'.repeat(5000) },
    });
    expect(big.status).toBe(400);
    expect(big.body.message).toContain('metadata');
  });

  it('completes the payer with payerData without overwriting it', async () => {
    const payer = (await merchant.post('/payer', { firstName: 'Original' })).body;
    const response = await merchant.post('/payment-instrument', {
      payerId: payer.payerId,
      paymentMethodName: 'VISA',
      country: 'URY',
      payerData: { firstName: 'Replaced', email: 'new@payer.uy', documentType: 'IDENTITY_DOCUMENT', document: '4.567.890-5' }, // 4567890 → Σ = 225 → check digit 5
    });
    expect(response.status).toBe(200);
    expect((await merchant.get(`/payer/${payer.payerId}`)).body).toMatchObject({
      firstName: 'Original',
      email: 'new@payer.uy',
      documentNumber: '45678905',
    });
    const mismatch = await merchant.post('/payment-instrument', {
      payerId: payer.payerId,
      paymentMethodName: 'VISA',
      country: 'URY',
      payerData: { documentType: 'IDENTITY_DOCUMENT', document: '1.234.567-2' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errorId).toBe('Payins:PAYER_DOCUMENT_MISMATCH');
    const badDocument = await merchant.post('/payment-instrument', {
      payerId: payer.payerId,
      paymentMethodName: 'VISA',
      country: 'URY',
      payerData: { documentType: 'DNI', document: '1' },
    });
    expect(badDocument.status).toBe(400);
    expect(badDocument.body.message).toContain('document');
  });

  it("lists a payer's instruments two ways, all of them, and one", async () => {
    const first = await merchant.get(`/payer/${payerId}/payment-instruments`);
    const second = await merchant.get(`/payment-instrument/payer/${payerId}`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual(second.body);
    expect(first.body.map((i: { paymentMethodId: string }) => i.paymentMethodId)).toHaveLength(3);
    const all = await merchant.get('/payment-instrument');
    expect(all.body.map((i: { paymentInstrumentId: string }) => i.paymentInstrumentId)).toEqual(
      expect.arrayContaining(first.body.map((i: { paymentInstrumentId: string }) => i.paymentInstrumentId)),
    );
    const one = await merchant.get(`/payment-instrument/${first.body[0].paymentInstrumentId}`);
    expect(one.body).toEqual(first.body[0]);
    expect((await merchant.get('/payment-instrument/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  describe('card data never enters', () => {
    const count = async () => (await bed.query('SELECT count(*)::int AS n FROM payment_instrument'))[0].n as number;

    it('refuses a card number anywhere, metadata included, stores nothing and never echoes it', async () => {
      const before = await count();
      for (const body of [
        { payerId, paymentMethodName: 'VISA', country: 'URY', metadata: { note: 'card 4111 1111 1111 1111' } },
        { payerId, paymentMethodName: 'VISA', country: 'URY', metadata: { nested: [{ pan: 5500005555555559 }] } },
        { payerId, paymentMethodName: 'VISA', country: 'URY', metadata: { cvv: '123' } },
        { payerId, paymentMethodName: 'VISA', country: 'URY', payerData: { firstName: '4111-1111-1111-1111' } },
      ]) {
        const response = await merchant.post('/payment-instrument', body);
        expect(response.status).toBe(400);
        expect(response.body.errorId).toBe('Validation:CARD_DATA_NOT_ACCEPTED');
        expect(JSON.stringify(response.body)).not.toMatch(/4111|5500005555555559/);
      }
      const named = await merchant.post('/payment-instrument', {
        payerId,
        paymentMethodName: 'VISA',
        country: 'URY',
        metadata: { note: '4111111111111111' },
      });
      expect(named.body.message).toContain('metadata.note');
      expect(named.body.showMessage.ES).toContain('metadata.note');
      expect(await count()).toBe(before);
    });

    it('refuses card numbers in payer fields and in query strings, even before authentication', async () => {
      const payer = await merchant.post('/payer', { firstName: 'Ana', lastName: '4111111111111111' });
      expect(payer.status).toBe(400);
      expect(payer.body.message).toContain('lastName');
      const search = await merchant.get('/payer?searchTerm=4111111111111111');
      expect(search.status).toBe(400);
      expect(search.body.message).toContain('query.searchTerm');
      const unsigned = await request(bed.url)
        .post('/payer')
        .set('content-type', 'application/json')
        .send({ firstName: '4111111111111111' });
      expect(unsigned.status).toBe(400);
      expect(unsigned.body.errorId).toBe('Validation:CARD_DATA_NOT_ACCEPTED');
    });

    it('lets through numbers that are not card numbers', async () => {
      const body = {
        payerId,
        paymentMethodName: 'VISA',
        country: 'URY',
        metadata: { order: '4111111111111112', reference: 2026112200001 },
      };
      const response = await request(bed.url)
        .post('/payment-instrument')
        .set('api-key', tenant.merchants[0].apiKey)
        .set('signature', hmacHex(tenant.merchants[0].apiSecret, JSON.stringify(body)))
        .set('content-type', 'application/json')
        .send(JSON.stringify(body));
      expect(response.status).toBe(200);
    });
  });
});
