import { NestExpressApplication } from '@nestjs/platform-express';
import { clientFor, createTenant, errorShape, TestTenant } from '@pcs/testing';
import { startPayinsApi } from './payins-app';
import { Testbed, testbed } from './testbed';

type Method = { name: string; currencies: string[]; options: { networks: string[] } };

/** B5, B6 and B7 over signed HTTP (contract §13), and the same intent in the payins API. */
describe('B2B payment intents (B5–B7)', () => {
  let bed: Testbed;
  let app: NestExpressApplication;
  let payins: NestExpressApplication;
  let tenant: TestTenant;
  let stranger: TestTenant;

  const order = (extra: Record<string, unknown> = {}) => ({
    countryCode: 'URY',
    currency: 'UYU',
    amount: 1220,
    externalReference: 'order-1',
    description: 'Dos cafés',
    redirectUrl: 'https://shop.example/return?cart=7',
    ...extra,
  });

  beforeAll(async () => {
    bed = await testbed({ api: 'b2b', merchants: 2 });
    ({ app, tenant } = bed);
    stranger = await createTenant(app);
    payins = await startPayinsApi();
  });
  afterAll(async () => {
    await payins.close();
    await bed.close();
  });

  it('B6 creates a payment intent waiting for the payer, with the hosted checkout as its next action', async () => {
    const created = await bed.merchant.post(
      '/payment-intent',
      order({ amountDetails: { tip: 50 }, invoiceDetails: { reference: 'F-1', serie: 'A', number: 1001 } }),
    );
    expect(created.status).toBe(200);
    const body = created.body;
    expect(body).toMatchObject({
      merchant: { id: tenant.merchants[0].merchantId, name: expect.stringContaining('Merchant 1') },
      type: 'ECO',
      externalReference: 'order-1',
      description: 'Dos cafés',
      currency: 'UYU',
      amount: 1220,
      amountDetails: { tip: 50, vatAmount: 220 },
      invoiceDetails: { reference: 'F-1', serie: 'A', number: 1001 },
      includeAllPaymentMethods: true,
      paymentMethod: null,
      status: { code: 'PAYMENT_METHOD_PENDING', description: expect.stringMatching(/^The payer/) },
      nextAction: {
        type: 'REDIRECT',
        redirect: { reference: expect.stringMatching(/^http:\/\/localhost:3001\/checkout\/chk_[\w-]{24}$/) },
      },
    });
    expect(Date.parse(body.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    const types = (body.availablePaymentMethods as Method[]).map((m) => m.name);
    expect(types).toEqual([...types].sort());
    expect(body.availablePaymentMethods).toContainEqual({
      name: 'CREDIT_CARD',
      currencies: ['UYU', 'USD'],
      options: { networks: ['AMERICAN_EXPRESS', 'MASTER_CARD', 'OCA', 'VISA'] },
    });
    // B7 says the same.
    expect((await bed.merchant.get(`/payment-intent/${body.paymentIntentId}`)).body).toEqual(body);

    // One aggregate: the payins API shows the same intent (operation 19), total with the tip.
    const same = await clientFor(payins, tenant.merchants[0]).get(`/payment-intent/${body.paymentIntentId}`);
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ paymentIntentStatus: 'REQUIRES_PAYMENT_INSTRUMENT', externalReference: 'order-1' });
  });

  it('narrows the methods to one instrument type and some networks; includeAllPaymentMethods widens again; what the merchant does not offer is a 400', async () => {
    const narrowed = await bed.merchant.post(
      '/payment-intent',
      order({ paymentMethods: { name: 'CREDIT_CARD', options: { networks: ['VISA', 'OCA'] } } }),
    );
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.includeAllPaymentMethods).toBe(false);
    expect(narrowed.body.availablePaymentMethods).toEqual([
      { name: 'CREDIT_CARD', currencies: ['UYU', 'USD'], options: { networks: ['OCA', 'VISA'] } },
    ]);
    // Operation 20 in the payins API honours the same narrowing.
    const methods = await clientFor(payins, tenant.merchants[0]).get(`/payment-intent/${narrowed.body.paymentIntentId}/payment-methods`);
    expect(methods.status).toBe(200);
    expect(JSON.stringify(methods.body)).not.toContain('MASTER_CARD');

    const typeOnly = await bed.merchant.post('/payment-intent', order({ paymentMethods: { name: 'DEBIT_CARD' } }));
    expect((typeOnly.body.availablePaymentMethods as Method[]).map((m) => m.name)).toEqual(['DEBIT_CARD']);

    const all = await bed.merchant.post(
      '/payment-intent',
      order({ includeAllPaymentMethods: true, paymentMethods: { name: 'DEBIT_CARD' } }),
    );
    expect((all.body.availablePaymentMethods as Method[]).length).toBeGreaterThan(1);
    expect(all.body.includeAllPaymentMethods).toBe(true);
    // Nothing narrows it: every method is available, and the answer says so whatever was sent.
    const notNarrowed = await bed.merchant.post('/payment-intent', order({ includeAllPaymentMethods: false }));
    expect(notNarrowed.body.includeAllPaymentMethods).toBe(true);

    for (const paymentMethods of [{ name: 'PIX' }, { name: 'CREDIT_CARD', options: { networks: ['PIX'] } }]) {
      const refused = await bed.merchant.post('/payment-intent', order({ paymentMethods }));
      expect(refused.status).toBe(400);
      expect(refused.body.errorId).toBe('B2B:PAYMENT_METHOD_NOT_AVAILABLE');
    }
  });

  it('records a stated VAT amount, and computes it from the merchant otherwise', async () => {
    const stated = await bed.merchant.post('/payment-intent', order({ amount: 100.01, amountDetails: { vatAmount: 0 } }));
    expect(stated.body.amountDetails).toEqual({ tip: 0, vatAmount: 0 });
    const computed = await bed.merchant.post('/payment-intent', order({ amount: 100.01, currency: 'USD' }));
    expect(computed.body.amountDetails).toEqual({ tip: 0, vatAmount: 18.03 });
  });

  it.each([
    ['no redirectUrl', { redirectUrl: undefined }, 'redirectUrl'],
    ['an http redirectUrl off localhost', { redirectUrl: 'http://shop.example/return' }, 'redirectUrl'],
    ['a relative redirectUrl', { redirectUrl: '/return' }, 'redirectUrl'],
    ['a redirectUrl with credentials', { redirectUrl: 'https://user:pw@shop.example/' }, 'redirectUrl'],
    ['a javascript: redirectUrl', { redirectUrl: 'javascript:alert(1)' }, 'redirectUrl'],
    ['a redirectUrl over 2048 characters', { redirectUrl: `https://shop.example/${'a'.repeat(2030)}` }, 'redirectUrl'],
    ['no amount', { amount: undefined }, 'amount'],
    ['three decimals', { amount: 10.123 }, 'amount'],
    ['a zero amount', { amount: 0 }, 'amount'],
    ['a negative tip', { amountDetails: { tip: -1 } }, 'amountDetails.tip'],
    ['a VAT amount not below the amount', { amountDetails: { vatAmount: 1220 } }, 'amountDetails.vatAmount'],
    ['no countryCode', { countryCode: undefined }, 'countryCode'],
    ['an unknown countryCode', { countryCode: 'CHL' }, 'countryCode'],
    ['an unknown type', { type: 'POS' }, 'type'],
    ['an external reference over 128 characters', { externalReference: 'x'.repeat(129) }, 'externalReference'],
    [
      'an unknown network',
      { paymentMethods: { name: 'CREDIT_CARD', options: { networks: ['DINERS'] } } },
      'paymentMethods.options.networks',
    ],
    ['a null field', { description: null }, 'description'],
    ['an array for an object', { amountDetails: [] }, 'amountDetails'],
    ['an unknown field', { color: 'red' }, 'color'],
    ['a zero invoice number', { invoiceDetails: { number: 0 } }, 'invoiceDetails.number'],
  ])('B6 refuses %s with a 400 naming the field, writing nothing', async (_case, change, field) => {
    const before = await bed.dataSource.query(`SELECT count(*)::int AS n FROM b2b_checkout`);
    const refused = await bed.merchant.post('/payment-intent', order(change));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ ...errorShape('Validation:INVALID_REQUEST'), message: expect.stringContaining(field) });
    expect(await bed.dataSource.query(`SELECT count(*)::int AS n FROM b2b_checkout`)).toEqual(before);
  });

  it('refuses a currency the country does not accept, and a business with several merchants must name one', async () => {
    const brl = await bed.merchant.post('/payment-intent', order({ currency: 'BRL' }));
    expect(brl.status).toBe(400);
    expect(brl.body.errorId).toBe('B2B:CURRENCY_NOT_ACCEPTED');
    expect((await bed.business.post('/payment-intent', order())).body.errorId).toBe('B2B:MERCHANT_REQUIRED');
    const named = await bed.business.post('/payment-intent', order({ merchantId: tenant.merchants[1].merchantId }));
    expect(named.body.merchant.id).toBe(tenant.merchants[1].merchantId);
    const foreign = await bed.business.post('/payment-intent', order({ merchantId: stranger.merchants[0].merchantId }));
    expect(foreign.status).toBe(404);
    expect(foreign.body.errorId).toBe('B2B:MERCHANT_NOT_FOUND');
  });

  it('takes Brazil (BRA, BRL, PIX) wherever the merchant offers it', async () => {
    const brazil = await testbed({ api: 'b2b', country: 'BRA' });
    try {
      const created = await brazil.merchant.post('/payment-intent', {
        countryCode: 'BRA',
        currency: 'BRL',
        amount: 99.9,
        paymentMethods: { name: 'PIX' },
        redirectUrl: 'https://loja.example/retorno',
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({
        currency: 'BRL',
        amount: 99.9,
        amountDetails: { vatAmount: 0 },
        availablePaymentMethods: [{ name: 'PIX', currencies: expect.arrayContaining(['BRL']), options: { networks: ['PIX'] } }],
      });
    } finally {
      await brazil.close();
    }
  });

  it('B7 and B5 keep tenants apart: another business and another merchant of the same business get 404', async () => {
    const mine = (await bed.merchant.post('/payment-intent', order({ externalReference: 'private' }))).body;
    for (const intruder of [stranger.business, stranger.merchants[0], tenant.merchants[1]]) {
      const response = await clientFor(app, intruder).get(`/payment-intent/${mine.paymentIntentId}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(errorShape('B2B:PAYMENT_INTENT_NOT_FOUND'));
      const listed = await clientFor(app, intruder).get('/payment-intent?externalReference=private');
      expect(listed.body.data).toEqual([]);
    }
    // Nor can they create one for this merchant.
    for (const intruder of [stranger.business, stranger.merchants[0], tenant.merchants[1]]) {
      const created = await clientFor(app, intruder).post('/payment-intent', order({ merchantId: tenant.merchants[0].merchantId }));
      expect(created.status).toBe(404);
      expect(created.body.errorId).toBe('B2B:MERCHANT_NOT_FOUND');
    }
    // The business sees its merchants' intents; an unknown id and a payins-API intent are 404 here.
    expect((await bed.business.get(`/payment-intent/${mine.paymentIntentId}`)).status).toBe(200);
    expect((await bed.merchant.get('/payment-intent/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await bed.merchant.get('/payment-intent/not-a-uuid')).status).toBe(400);
    const fromPayins = await clientFor(payins, tenant.merchants[0]).post('/payment-intent', {
      currency: 'UYU',
      amount: 10,
      payinType: 'DEFAULT',
      externalReference: 'payins',
      offSession: false,
      invoiceNumber: 1,
      country: 'URY',
      payerData: { firstName: 'Ana', lastName: 'Pérez' },
    });
    expect(fromPayins.status).toBe(200);
    const notB2b = await bed.merchant.get(`/payment-intent/${fromPayins.body.paymentIntent.paymentIntentId}`);
    expect(notB2b.body).toEqual(errorShape('B2B:PAYMENT_INTENT_NOT_FOUND'));
  });

  it('B5 pages newest first in the B2B envelope, with its filters', async () => {
    const merchant = clientFor(app, tenant.merchants[1]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await merchant.post('/payment-intent', order({ externalReference: `page-${i}` }))).body.paymentIntentId);
    const first = await merchant.get('/payment-intent?pageSize=2');
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ currentPage: 1, pageSize: 2, totalItems: expect.any(Number), totalPages: expect.any(Number) });
    const total = first.body.pagination.totalItems as number;
    expect(total).toBeGreaterThanOrEqual(3);
    expect(first.body.pagination.totalPages).toBe(Math.ceil(total / 2));
    expect(first.body.data.map((d: { paymentIntentId: string }) => d.paymentIntentId)).toEqual([ids[2], ids[1]]);
    expect(
      (await merchant.get('/payment-intent?externalReference=page-0')).body.data.map((d: { paymentIntentId: string }) => d.paymentIntentId),
    ).toEqual([ids[0]]);
    expect((await merchant.get('/payment-intent?status=PAYMENT_METHOD_PENDING&externalReference=page-1')).body.data).toHaveLength(1);
    expect((await merchant.get('/payment-intent?status=APPROVED&externalReference=page-1')).body.data).toHaveLength(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await merchant.get(`/payment-intent?dateFrom=${today}&externalReference=page-2`)).body.data).toHaveLength(1);
    expect((await merchant.get(`/payment-intent?dateUntil=2000-01-01&externalReference=page-2`)).body.data).toHaveLength(0);
    const byMerchant = await bed.business.get(`/payment-intent?merchantId=${tenant.merchants[1].merchantId}&pageSize=100`);
    expect((byMerchant.body.data as { merchant: { id: string } }[]).every((d) => d.merchant.id === tenant.merchants[1].merchantId)).toBe(
      true,
    );
    for (const bad of [
      'pageSize=101',
      'page=0',
      'status=PAID',
      'dateFrom=yesterday',
      'merchantId=x',
      'dateFrom=2026-02-01&dateUntil=2026-01-01',
    ])
      expect([bad, (await merchant.get(`/payment-intent?${bad}`)).status]).toEqual([bad, 400]);
    expect((await bed.business.get(`/payment-intent?merchantId=${stranger.merchants[0].merchantId}`)).status).toBe(404);
  });

  it('Idempotency-Key on B6: the same request answers the same intent, another body is a 422, ten at once make one intent', async () => {
    const send = (body: Record<string, unknown>, key: string) => bed.merchant.post('/payment-intent', body).set('Idempotency-Key', key);
    const first = await send(order({ externalReference: 'idem' }), 'b6-key');
    const again = await send(order({ externalReference: 'idem' }), 'b6-key');
    expect(again.status).toBe(200);
    expect(again.body.paymentIntentId).toBe(first.body.paymentIntentId);
    const other = await send(order({ externalReference: 'other' }), 'b6-key');
    expect(other.status).toBe(422);
    expect(other.body.errorId).toBe('B2B:IDEMPOTENCY_KEY_REUSED');

    const answers = await Promise.all(Array.from({ length: 10 }, () => send(order({ externalReference: 'burst' }), 'b6-burst')));
    const created = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.paymentIntentId));
    expect(created.size).toBe(1);
    expect(answers.every((a) => a.status === 200 || (a.status === 409 && a.body.errorId === 'B2B:IDEMPOTENCY_REQUEST_IN_PROGRESS'))).toBe(
      true,
    );
    const stored = await bed.dataSource.query(`SELECT count(*)::int AS n FROM payment_intent WHERE external_reference = 'burst'`);
    expect(stored).toEqual([{ n: 1 }]);
  });
});
