import { errorShape, SignedClient, TestTenant } from '@pcs/testing/http';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

type Relationship = {
  merchantCountryProcessorId: string;
  countryProcessor: {
    countryProcessorId: string;
    paymentMethod: { paymentMethodName: string };
    paymentInstrumentType: { paymentInstrumentTypeName: string };
  };
};

/** Payment links over signed HTTP (operations 24, 29–33, 35; contract §12 and §9). */
describe('payment links', () => {
  let bed: HttpTestbed;
  let merchant: SignedClient;
  let visa: Relationship;
  let oca: Relationship;
  let otherMerchants: Relationship;

  const DAY = 24 * 3600 * 1000;
  const body = (extra: Record<string, unknown> = {}) => ({
    amount: 1220,
    vatPercentage: 22,
    currency: 'UYU',
    merchantCountryProcessors: [visa.merchantCountryProcessorId, oca.merchantCountryProcessorId],
    country: 'URY',
    description: 'Two coffees',
    reference: 'order-77',
    ...extra,
  });
  const newLink = async (extra: Record<string, unknown> = {}) => {
    const created = await merchant.post('/link', body(extra));
    expect(created.status).toBe(200);
    return created.body as { linkId: string; status: string; url: string; expirationDate: string; used: boolean };
  };
  const relationships = async (client: SignedClient, merchantId: string) =>
    (await client.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Relationship[];
  const find = (list: Relationship[], method: string, type?: string) =>
    list.find(
      (r) =>
        r.countryProcessor.paymentMethod.paymentMethodName === method &&
        (!type || r.countryProcessor.paymentInstrumentType.paymentInstrumentTypeName === type),
    )!;

  beforeAll(async () => {
    bed = await sharedTestbed({ merchants: 2 });
    merchant = bed.merchant;
    const mine = await relationships(bed.business, bed.tenant.merchants[0].merchantId);
    visa = find(mine, 'VISA', 'CREDIT_CARD');
    oca = find(mine, 'OCA');
    otherMerchants = find(await relationships(bed.business, bed.tenant.merchants[1].merchantId), 'OCA');
  });
  afterAll(() => bed.close());

  it('creates a link with its reference, status, url, processors and a 7-day expiry by default', async () => {
    const before = Date.now();
    const created = await merchant.post('/link', body());
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      description: 'Two coffees',
      currency: 'UYU',
      amount: 1220,
      vatPercentage: 22,
      merchantId: bed.tenant.merchants[0].merchantId,
      used: false,
      paymentIntentId: null,
      usedAt: null,
      reference: 'order-77',
      status: 'ACTIVE',
      url: `http://localhost:3000/pay/${created.body.linkId}`,
    });
    const expiry = new Date(created.body.expirationDate).getTime();
    expect(expiry).toBeGreaterThanOrEqual(before + 7 * DAY);
    expect(expiry).toBeLessThan(Date.now() + 7 * DAY + 1000);
    expect(created.body.linkCountryProcessors.map((p: { countryProcessorId: string }) => p.countryProcessorId).sort()).toEqual(
      [visa.countryProcessor.countryProcessorId, oca.countryProcessor.countryProcessorId].sort(),
    );
    expect((await merchant.get(`/link/${created.body.linkId}`)).body).toEqual(created.body);
  });

  it('refuses what §12 refuses: expiry in the past or past a year, foreign or mixed processors, currencies, VAT, amounts', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ expirationDate: new Date(Date.now() - 1000).toISOString() }, 'Validation:INVALID_REQUEST', 'expirationDate'],
      [{ expirationDate: new Date(Date.now() + 366 * DAY).toISOString() }, 'Validation:INVALID_REQUEST', 'expirationDate'],
      [{ merchantCountryProcessors: [] }, 'Validation:INVALID_REQUEST', 'merchantCountryProcessors'],
      [
        { merchantCountryProcessors: [visa.merchantCountryProcessorId, otherMerchants.merchantCountryProcessorId] },
        'Validation:INVALID_REQUEST',
        'merchantCountryProcessors',
      ],
      [{ merchantCountryProcessors: ['00000000-0000-4000-8000-000000000000'] }, 'Validation:INVALID_REQUEST', 'merchantCountryProcessors'],
      [{ merchantId: bed.tenant.merchants[1].merchantId }, 'Validation:INVALID_REQUEST', 'merchantId'],
      [{ country: 'ARG' }, 'Validation:INVALID_REQUEST', 'merchantCountryProcessors'],
      [{ currency: 'BRL' }, 'Validation:INVALID_REQUEST', 'merchantCountryProcessors'],
      [{ vatPercentage: 21 }, 'Payins:VAT_RATE_NOT_ALLOWED', ''],
      [{ amount: 10.123 }, 'Validation:INVALID_REQUEST', 'amount'],
      [{ amount: 0 }, 'Validation:INVALID_REQUEST', 'amount'],
      [{ description: 'x'.repeat(256) }, 'Validation:INVALID_REQUEST', 'description'],
      [{ reference: 'x'.repeat(129) }, 'Validation:INVALID_REQUEST', 'reference'],
    ];
    for (const [extra, errorId, field] of cases) {
      const response = await merchant.post('/link', body(extra));
      expect({ extra, status: response.status, body: response.body }).toEqual({ extra, status: 400, body: errorShape(errorId) });
      if (field) expect(response.body.message).toContain(field);
    }
    // The other merchant's credentials cannot use this merchant's processors.
    const other = bed.client(bed.tenant.merchants[1]);
    expect((await other.post('/link', body())).status).toBe(400);
  });

  it('updates an ACTIVE link under the same rules, and lists links newest first, by status', async () => {
    const link = await newLink();
    const updated = await merchant.patch(`/link/${link.linkId}`, {
      amount: 2440,
      description: 'Four coffees',
      merchantCountryProcessors: [oca.merchantCountryProcessorId],
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ amount: 2440, description: 'Four coffees', reference: 'order-77', status: 'ACTIVE' });
    expect(updated.body.linkCountryProcessors).toHaveLength(1);
    expect((await merchant.patch(`/link/${link.linkId}`, { vatPercentage: 21 })).body.errorId).toBe('Payins:VAT_RATE_NOT_ALLOWED');
    expect((await merchant.patch(`/link/${link.linkId}`, { expirationDate: '2020-01-01T00:00:00Z' })).status).toBe(400);
    const newest = await newLink({ reference: 'newest' });
    const listed = (await merchant.get('/link?status=ACTIVE&limit=2')).body as { linkId: string }[];
    expect(listed.map((l) => l.linkId)).toEqual([newest.linkId, link.linkId]);
    expect((await merchant.get('/link?limit=101')).status).toBe(400);
    expect((await merchant.get('/link?status=PAID')).status).toBe(400);
  });

  it('pays from a link exactly once under twenty concurrent attempts; the link is then USED everywhere', async () => {
    const link = await newLink();
    const pay = { paymentInstrumentTypeName: 'CREDIT_CARD', paymentMethodName: 'VISA', amount: 1220 };
    const attempts = await Promise.all(Array.from({ length: 20 }, () => merchant.post(`/link/${link.linkId}/payment-intent`, pay)));
    const winners = attempts.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of attempts.filter((r) => r.status !== 200)) expect(loser.body).toEqual(errorShape('Payins:LINK_ALREADY_USED'));
    const intent = winners[0].body.paymentIntent;
    expect(winners[0].body).toMatchObject({ status: 'REQUIRES_PAYMENT_INSTRUMENT', nextAction: 'INITIALIZE_WITH_PAYMENT_METHOD' });
    expect(intent).toMatchObject({
      linkId: link.linkId,
      currency: 'UYU',
      subtotalAmount: 1000,
      taxAmount: 220,
      totalAmount: 1220,
      description: 'Two coffees',
      externalReference: 'order-77',
    });
    // Only the chosen method is offered for the intent (operation 20).
    const methods = (await merchant.get(`/payment-intent/${intent.paymentIntentId}/payment-methods`)).body
      .paymentIntentAvailablePaymentMethods;
    expect(methods.map((m: { countryProcessorId: string }) => m.countryProcessorId)).toEqual([visa.countryProcessor.countryProcessorId]);

    const used = (await merchant.get(`/link/${link.linkId}`)).body;
    expect(used).toMatchObject({ status: 'USED', used: true, paymentIntentId: intent.paymentIntentId, usedAt: expect.any(String) });
    expect((await merchant.get(`/link/${link.linkId}/validate`)).body).toEqual(errorShape('Payins:LINK_ALREADY_USED'));
    expect((await merchant.patch(`/link/${link.linkId}`, { description: 'late' })).body).toEqual(errorShape('Payins:LINK_ALREADY_USED'));
    expect((await merchant.delete(`/link/${link.linkId}`)).body).toEqual(errorShape('Payins:ERROR_DELETING_LINK'));
    expect((await merchant.get('/link?status=USED')).body.map((l: { linkId: string }) => l.linkId)).toContain(link.linkId);
  });

  it("refuses a method the link does not offer and an amount that is not the link's, changing nothing", async () => {
    const link = await newLink({ merchantCountryProcessors: [oca.merchantCountryProcessorId] });
    const wrongMethod = await merchant.post(`/link/${link.linkId}/payment-intent`, {
      paymentInstrumentTypeName: 'CREDIT_CARD',
      paymentMethodName: 'VISA',
    });
    expect(wrongMethod.body).toEqual(errorShape('Payins:PAYMENT_METHOD_NOT_AVAILABLE'));
    const type = oca.countryProcessor.paymentInstrumentType.paymentInstrumentTypeName;
    const wrongAmount = await merchant.post(`/link/${link.linkId}/payment-intent`, {
      paymentInstrumentTypeName: type,
      paymentMethodName: 'OCA',
      amount: 1000,
    });
    expect(wrongAmount.body).toEqual(errorShape('Validation:INVALID_REQUEST'));
    expect(wrongAmount.body.message).toContain('amount');
    expect((await merchant.get(`/link/${link.linkId}/validate`)).status).toBe(200);
  });

  it('expires a link when its date passes, with no sweep: validate, get, list and pay all say so', async () => {
    const link = await newLink({ expirationDate: new Date(Date.now() + 1500).toISOString() });
    expect((await merchant.get(`/link/${link.linkId}/validate`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await merchant.get(`/link/${link.linkId}/validate`)).body).toEqual(errorShape('Payins:LINK_EXPIRED'));
    expect((await merchant.get(`/link/${link.linkId}`)).body.status).toBe('EXPIRED');
    expect((await merchant.get('/link?status=EXPIRED')).body.map((l: { linkId: string }) => l.linkId)).toContain(link.linkId);
    expect((await merchant.get('/link?status=ACTIVE')).body.map((l: { linkId: string }) => l.linkId)).not.toContain(link.linkId);
    const pay = await merchant.post(`/link/${link.linkId}/payment-intent`, {
      paymentInstrumentTypeName: 'CREDIT_CARD',
      paymentMethodName: 'VISA',
    });
    expect(pay.body).toEqual(errorShape('Payins:LINK_EXPIRED'));
  });

  it('deletes softly: the link is a 404 everywhere afterwards', async () => {
    const link = await newLink();
    expect((await merchant.delete(`/link/${link.linkId}`)).body).toEqual({ success: true, linkId: link.linkId });
    for (const response of [
      await merchant.get(`/link/${link.linkId}`),
      await merchant.get(`/link/${link.linkId}/validate`),
      await merchant.patch(`/link/${link.linkId}`, { description: 'x' }),
      await merchant.delete(`/link/${link.linkId}`),
      await merchant.post(`/link/${link.linkId}/payment-intent`, { paymentInstrumentTypeName: 'CREDIT_CARD', paymentMethodName: 'VISA' }),
      await merchant.post(`/link/${link.linkId}/share`, { receiverEmail: 'ana@example.uy', receiverName: 'Ana' }),
    ]) {
      expect(response.body).toEqual(errorShape('Payins:LINK_NOT_FOUND'));
    }
    expect((await merchant.get('/link?limit=100')).body.map((l: { linkId: string }) => l.linkId)).not.toContain(link.linkId);
  });

  describe('tenancy', () => {
    let stranger: TestTenant;

    beforeAll(async () => {
      stranger = await bed.newTenant();
    });

    it('answers 404 to another business and to another merchant of the same business on every link route', async () => {
      const link = await newLink();
      for (const client of [bed.client(stranger.business), bed.client(stranger.merchants[0]), bed.client(bed.tenant.merchants[1])]) {
        for (const response of [
          await client.get(`/link/${link.linkId}`),
          await client.get(`/link/${link.linkId}/validate`),
          await client.patch(`/link/${link.linkId}`, { description: 'mine now' }),
          await client.delete(`/link/${link.linkId}`),
          await client.post(`/link/${link.linkId}/payment-intent`, { paymentInstrumentTypeName: 'CREDIT_CARD', paymentMethodName: 'VISA' }),
          await client.post(`/link/${link.linkId}/share`, { receiverEmail: 'intruder@example.uy', receiverName: 'Intruder' }),
        ]) {
          expect(response.status).toBe(404);
        }
        expect((await client.get('/link')).body.map((l: { linkId: string }) => l.linkId)).not.toContain(link.linkId);
      }
      expect((await bed.client(stranger.business).get(`/link?merchantId=${bed.tenant.merchants[0].merchantId}`)).status).toBe(404);
      expect((await merchant.get(`/link/${link.linkId}`)).body.status).toBe('ACTIVE');
      expect(await bed.query(`SELECT 1 FROM mail_message WHERE to_address = 'intruder@example.uy'`)).toEqual([]);
    });
  });
});
