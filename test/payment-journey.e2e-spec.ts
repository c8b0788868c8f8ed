import { SignedClient, TestTenant } from '@pcs/testing/http';
import request from 'supertest';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

type Processor = {
  countryProcessorId: string;
  paymentMethod: { paymentMethodName: string };
  paymentInstrumentType: { paymentInstrumentTypeName: string };
};

/** The whole sandbox journey over signed HTTP (issue 4, item 12). */
describe('a payment from creation to refund through the sandbox gateway', () => {
  let bed: HttpTestbed;
  let tenant: TestTenant;
  let merchant: SignedClient;
  let payerId: string;

  beforeAll(async () => {
    bed = await sharedTestbed({ payer: { firstName: 'Lucía', lastName: 'Gómez', email: 'lucia@example.uy' } });
    ({ tenant, merchant, payerId } = bed);
  });
  afterAll(() => bed.close());

  const gatewayPath = (url: string) => new URL(url).pathname;

  it('creates, lists methods, initializes, approves at the sandbox page, and refunds partially then totally', async () => {
    const created = await merchant.post('/payment-intent', {
      currency: 'UYU',
      amount: 1220,
      payinType: 'DEFAULT',
      externalReference: 'order-1001',
      payerId,
      offSession: false,
      invoiceNumber: 1001,
      country: 'URY',
      description: 'Two coffees',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      status: 'REQUIRES_PAYMENT_INSTRUMENT',
      confirmationMethod: 'MANUAL',
      nextAction: 'INITIALIZE_WITH_PAYMENT_METHOD',
    });
    const intent = created.body.paymentIntent;
    expect(intent).toMatchObject({
      paymentIntentStatus: 'REQUIRES_PAYMENT_INSTRUMENT',
      currency: 'UYU',
      subtotalAmount: 1000,
      taxAmount: 220,
      tipAmount: 0,
      totalAmount: 1220,
      receivedAmount: 0,
      exchangeRate: 1,
      externalReference: 'order-1001',
      externalInvoiceId: '1001',
      invoiceEmail: 'lucia@example.uy',
      payerId,
    });

    const methods = await merchant.get(`/payment-intent/${intent.paymentIntentId}/payment-methods`);
    expect(methods.status).toBe(200);
    expect(methods.body.paymentData).toMatchObject({
      reference: 'order-1001',
      description: 'Two coffees',
      currency: 'UYU',
      amount: 1220,
      vatAmount: 220,
    });
    const visa = (methods.body.paymentIntentAvailablePaymentMethods as Processor[]).find(
      (p) => p.paymentMethod.paymentMethodName === 'VISA' && p.paymentInstrumentType.paymentInstrumentTypeName === 'CREDIT_CARD',
    )!;
    expect(visa).toBeDefined();

    const initialized = await merchant.post(`/payment-intent/${intent.paymentIntentId}/initialize`, {
      countryProcessorId: visa.countryProcessorId,
    });
    expect(initialized.status).toBe(200);
    expect(initialized.body.paymentIntent.paymentIntentStatus).toBe('REQUIRES_ACTION');
    expect(initialized.body.gatewayUrl).toBe(`http://localhost:3000/sandbox/gateway/${initialized.body.gatewayReferenceId}`);
    const pending = (await merchant.get(`/payin?status=PENDING`)).body[0].results;
    expect(pending.map((p: { paymentIntentId: string }) => p.paymentIntentId)).toContain(intent.paymentIntentId);

    const page = await request(bed.url).get(gatewayPath(initialized.body.gatewayUrl));
    expect(page.status).toBe(200);
    // Spanish unless the browser prefers English; every decimal of the currency, grouped for the language.
    expect(page.text).toContain('1.220,00 UYU');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const inEnglish = await request(bed.url).get(gatewayPath(initialized.body.gatewayUrl)).set('accept-language', 'en-US,en;q=0.9');
    expect(inEnglish.text).toContain('1,220.00 UYU');
    expect(inEnglish.text).toContain('Approve');
    expect(page.text).toContain('VISA');
    expect(page.text).toContain(`Merchant 1 of ${tenant.business.name}`);

    const approved = await request(bed.url).post(gatewayPath(initialized.body.gatewayUrl)).type('form').send({ outcome: 'approve' });
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('data-status="APPROVED"');

    const succeeded = (await merchant.get(`/payment-intent/${intent.paymentIntentId}`)).body;
    expect(succeeded).toMatchObject({
      paymentIntentStatus: 'SUCCEEDED',
      receivedAmount: 1220,
      externalChargeId: initialized.body.gatewayReferenceId,
    });

    const ledger = (await merchant.get(`/payin?status=APPROVED`)).body[0];
    const payin = ledger.results.find((p: { paymentIntentId: string }) => p.paymentIntentId === intent.paymentIntentId);
    expect(payin).toMatchObject({
      transactionType: 'PAYIN',
      conceptCode: 'PAYIN',
      status: 'APPROVED',
      amount: 1220,
      subtotalAmount: 1000,
      taxAmount: 220,
      receivedAmount: 1220,
      externalId: initialized.body.gatewayReferenceId,
      externalStatus: 'approved',
      person: { firstName: 'Lucía', lastName: 'Gómez' },
      paymentInstrumentData: { maskedPan: expect.stringMatching(/^\*{12}\d{4}$/), cardType: 'VISA' },
      paymentIntentInitiator: 'PAYER',
      merchantName: `Merchant 1 of ${tenant.business.name}`,
    });
    expect(new Date(payin.liquidationDate).getTime()).toBeGreaterThan(new Date(payin.createdAt).getTime());

    const partial = await merchant.post(`/payment-intent/${intent.paymentIntentId}/refund`, { requestedRefundAmount: 200.5 });
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ paymentIntentStatus: 'PARTIALLY_REFUNDED', receivedAmount: 1220 });

    const total = await merchant.post(`/payment-intent/${intent.paymentIntentId}/refund`);
    expect(total.status).toBe(200);
    expect(total.body.paymentIntentStatus).toBe('REFUNDED');

    const refunds = (await merchant.get(`/payin?sort=AMOUNT&order=ASC`)).body[0].results.filter(
      (p: { paymentIntentId: string; transactionType: string }) =>
        p.paymentIntentId === intent.paymentIntentId && p.transactionType === 'REFUND',
    );
    expect(refunds.map((r: { amount: number; status: string; conceptCode: string }) => [r.amount, r.status, r.conceptCode])).toEqual([
      [200.5, 'APPROVED', 'REFUND'],
      [1019.5, 'APPROVED', 'REFUND'],
    ]);

    const again = await merchant.post(`/payment-intent/${intent.paymentIntentId}/refund`);
    expect(again.status).toBe(409);
    expect(again.body.errorId).toBe('Payins:PAYMENT_INTENT_INVALID_STATE');
  });
});
