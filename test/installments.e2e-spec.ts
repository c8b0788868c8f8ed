import { errorShape, eventually } from '@pcs/testing/http';
import request from 'supertest';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * Installment quotes (contract §25) over signed HTTP, at the sandbox: its published table limited by
 * the merchant's policy (the most installments, the least installment), the same plans on the payins
 * API (by BIN or a saved card) and on the B2B API (by the method), and every refusal in the
 * contract's error shape. Mercado Pago's and dLocal's quotes: test/mercado-pago.e2e-spec.ts,
 * test/dlocal.e2e-spec.ts.
 */
describe('installment quotes (contract §25)', () => {
  let bed: HttpTestbed;
  let b2b: HttpTestbed;
  let merchantId: string;
  let visa: string;

  beforeAll(async () => {
    bed = await sharedTestbed({ merchants: 2, payer: { firstName: 'Cuota', lastName: 'Pagador' } });
    merchantId = bed.tenant.merchants[0].merchantId;
    const intent = await bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount: 100,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: 'quote-methods',
      invoiceNumber: 1,
      payerId: bed.payerId,
    });
    const methods = (await bed.merchant.get(`/payment-intent/${intent.body.paymentIntent.paymentIntentId}/payment-methods`)).body
      .paymentIntentAvailablePaymentMethods as Json[];
    visa = methods.find(
      (m) => m.paymentMethod.paymentMethodName === 'VISA' && m.paymentInstrumentType.paymentInstrumentTypeName === 'CREDIT_CARD',
    )!.countryProcessorId;
    const policy = await bed.business.put(`/merchant/${merchantId}/configuration`, {
      installments: { URY: { maxInstallments: 6, interestFreeUpTo: 3, minInstallmentAmount: { UYU: 500 } } },
    });
    expect(policy.status).toBe(200);
    b2b = await sharedTestbed({ api: 'b2b' });
  });
  afterAll(async () => {
    await bed.close();
    await b2b.close();
  });

  const quote = (query: Record<string, string>, client = bed.merchant) =>
    client.get(`/installments?${new URLSearchParams(query).toString()}`);

  it('quotes the sandbox’s table within the policy: interest-free up to 3 with the merchant’s financing fee, then the payer’s interest, no more than 6', async () => {
    const answer = await quote({ countryProcessorId: visa, bin: '45099500', amount: '12000', currency: 'UYU' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { installments: 1, installmentAmount: 12000, totalAmount: 12000, interestFree: true, payerRate: 0, merchantFinancingFee: 0 },
      { installments: 2, installmentAmount: 6000, totalAmount: 12000, interestFree: true, payerRate: 0, merchantFinancingFee: 180 },
      { installments: 3, installmentAmount: 4000, totalAmount: 12000, interestFree: true, payerRate: 0, merchantFinancingFee: 360 },
      { installments: 6, installmentAmount: 2250, totalAmount: 13500, interestFree: false, payerRate: 12.5, merchantFinancingFee: null },
    ]);
  });

  it('leaves out plans whose installment is below the policy’s least, and offers one payment where there is no policy', async () => {
    const small = await quote({ countryProcessorId: visa, bin: '450995', amount: '1000', currency: 'UYU' });
    expect(small.body.map((p: Json) => p.installments)).toEqual([1, 2]);
    const sibling = bed.client(bed.tenant.merchants[1]);
    const none = await quote({ countryProcessorId: visa, bin: '450995', amount: '12000', currency: 'UYU' }, sibling);
    expect(none.status).toBe(200);
    expect(none.body.map((p: Json) => p.installments)).toEqual([1]);
  });

  it('quotes a saved card of the merchant’s payer by its id instead of a BIN', async () => {
    const card = await bed.merchant.post('/payment-instrument', {
      payerId: bed.payerId,
      paymentMethodName: 'VISA',
      country: 'URY',
    });
    expect(card.status).toBe(200);
    const saved = await quote({ paymentInstrumentId: card.body.paymentInstrumentId, amount: '12000', currency: 'UYU' });
    expect(saved.status).toBe(200);
    expect(saved.body.map((p: Json) => p.installments)).toEqual([1, 2, 3, 6]);
    // Another merchant's card is not found, even for its own business.
    const stranger = await bed.newTenant();
    const theirs = await quote(
      { paymentInstrumentId: card.body.paymentInstrumentId, amount: '12000', currency: 'UYU' },
      bed.client(stranger.merchants[0]),
    );
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(errorShape('Payins:PAYMENT_INSTRUMENT_NOT_FOUND'));
  });

  it('answers the same plans on the B2B API for the method', async () => {
    const policy = await b2b.business.put(`/merchant/${b2b.tenant.merchants[0].merchantId}/configuration`, {
      installments: { URY: { maxInstallments: 6, interestFreeUpTo: 3, minInstallmentAmount: { UYU: 500 } } },
    });
    // The configuration is the payins API's: the B2B API has none.
    expect(policy.status).toBe(404);
    const payinsView = bed.client(b2b.tenant.business);
    expect(
      (
        await payinsView.put(`/merchant/${b2b.tenant.merchants[0].merchantId}/configuration`, {
          installments: { URY: { maxInstallments: 6, interestFreeUpTo: 3, minInstallmentAmount: { UYU: 500 } } },
        })
      ).status,
    ).toBe(200);
    const answer = await quote({ paymentMethod: 'VISA', bin: '45099500', amount: '12000', currency: 'UYU' }, b2b.merchant);
    expect(answer.status).toBe(200);
    const payins = await quote({ countryProcessorId: visa, bin: '45099500', amount: '12000', currency: 'UYU' });
    expect(answer.body).toEqual(payins.body);
    const unknown = await quote({ paymentMethod: 'NARANJA', bin: '45099500', amount: '12000', currency: 'UYU' }, b2b.merchant);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(errorShape('B2B:COUNTRY_PROCESSOR_NOT_AVAILABLE'));
  });

  it('refuses a BIN that is not 6 or 8 digits, a missing card, both a BIN and a card, and an amount that is no amount, naming the field', async () => {
    const base = { countryProcessorId: visa, bin: '450995', amount: '12000', currency: 'UYU' };
    const cases: [Record<string, string>, string][] = [
      [{ ...base, bin: '45099' }, 'bin'],
      [{ ...base, bin: '4509950' }, 'bin'],
      [{ ...base, bin: '45O995' }, 'bin'],
      [{ countryProcessorId: visa, amount: '12000', currency: 'UYU' }, 'bin'],
      [{ bin: '450995', amount: '12000', currency: 'UYU' }, 'countryProcessorId'],
      [{ ...base, paymentInstrumentId: '6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b' }, 'paymentInstrumentId'],
      [{ ...base, amount: '0' }, 'amount'],
      [{ ...base, amount: '12.345' }, 'amount'],
      [{ ...base, amount: '-5' }, 'amount'],
      [{ ...base, currency: 'XYZ' }, 'currency'],
    ];
    for (const [query, field] of cases) {
      const answer = await quote(query);
      expect([query, answer.status]).toEqual([query, 400]);
      expect(answer.body.errorId).toMatch(/^(Validation|Payins):INVALID_REQUEST$/);
      expect([query, JSON.stringify(answer.body)]).toEqual([query, expect.stringContaining(field)]);
    }
  });

  it('refuses a processor the merchant does not offer, or in a currency it does not take', async () => {
    for (const query of [
      { countryProcessorId: '00000000-0000-4000-8000-000000000000', bin: '450995', amount: '12000', currency: 'UYU' },
      { countryProcessorId: visa, bin: '450995', amount: '12000', currency: 'BRL' },
    ]) {
      const answer = await quote(query);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(errorShape('Payins:COUNTRY_PROCESSOR_NOT_AVAILABLE'));
    }
  });

  it('answers another business’s merchant as not found', async () => {
    const stranger = await bed.newTenant();
    const answer = await quote(
      { merchantId, countryProcessorId: visa, bin: '450995', amount: '12000', currency: 'UYU' },
      bed.client(stranger.business),
    );
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(errorShape('Payins:MERCHANT_NOT_FOUND'));
  });

  describe('paying in installments at the sandbox', () => {
    let order = 100;
    const intentOf = async (amount = 12000) => {
      order += 1;
      const created = await bed.merchant.post('/payment-intent', {
        currency: 'UYU',
        amount,
        payinType: 'DEFAULT',
        offSession: false,
        country: 'URY',
        externalReference: `cuotas-${order}`,
        invoiceNumber: order,
        payerId: bed.payerId,
      });
      expect(created.status).toBe(200);
      return created.body.paymentIntent.paymentIntentId as string;
    };
    const pagePath = (gatewayUrl: string) => new URL(gatewayUrl).pathname;
    const attemptOf = async (intentId: string) => {
      const rows = (await bed.merchant.get(`/payin?paymentIntentId=${intentId}`)).body[0].results as Json[];
      return rows.find((r) => r.transactionType === 'PAYIN')!;
    };
    const approvedAttempt = (intentId: string) =>
      eventually(
        () => attemptOf(intentId),
        (row) => row.status === 'APPROVED',
      );

    it('pays an interest-free plan: the payer pays the amount, the merchant the financing fee, which lowers its net', async () => {
      const intentId = await intentOf();
      const started = await bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: visa, installments: 3 });
      expect(started.status).toBe(200);
      const page = await request(bed.url).get(pagePath(started.body.gatewayUrl as string));
      expect(page.text).toContain('name="installments" value="3" checked');
      expect(page.text).not.toContain('value="9"');
      const approved = await request(bed.url)
        .post(pagePath(started.body.gatewayUrl as string))
        .type('form')
        .send({ outcome: 'approve', installments: '3' });
      expect(approved.status).toBe(200);
      const row = await approvedAttempt(intentId);
      expect(row).toMatchObject({
        installments: 3,
        installmentAmount: 4000,
        payerTotalAmount: 12000,
        financingFeeAmount: 360,
        receivedAmount: 12000,
        fundsFlow: 'PLATFORM',
      });
      expect(row.netAmount).toBeCloseTo(12000 - row.feeAmount - row.feeTaxAmount - 360, 2);
      const movements = await bed.merchant.get(`/balance-transaction?merchantId=${merchantId}&type=PAYIN`);
      expect([movements.status, movements.body]).toEqual([200, expect.any(Array)]);
      const movement = (movements.body[0].results as Json[]).find((t) => t.sourceId === row.transactionId)!;
      expect(movement).toMatchObject({ amount: 12000, financingFee: 360, net: row.netAmount });
      expect(movement.fee).toBeCloseTo(row.feeAmount + row.feeTaxAmount + 360, 2);
      // The intent shows the plan, and payment_intent.succeeded carries it.
      const plan = { installments: 3, installmentAmount: 4000, payerTotalAmount: 12000, financingFeeAmount: 360 };
      expect((await bed.merchant.get(`/payment-intent/${intentId}`)).body.installmentPlan).toEqual(plan);
      const events = (await bed.merchant.get('/event?type=payment_intent.succeeded&limit=100')).body[0].results as Json[];
      expect(events.filter((e) => e.data.object.paymentIntentId === intentId).map((e) => e.data.object.installmentPlan)).toEqual([plan]);
    });

    it('pays a plan with the payer’s interest, chosen on the page: the payer pays more, the merchant receives the sale, no financing fee', async () => {
      const intentId = await intentOf();
      const started = await bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: visa });
      const path = pagePath(started.body.gatewayUrl as string);
      expect((await request(bed.url).get(path)).text).toContain('name="installments" value="1" checked');
      await request(bed.url).post(path).type('form').send({ outcome: 'approve', installments: '6' });
      const row = await approvedAttempt(intentId);
      expect(row).toMatchObject({
        installments: 6,
        installmentAmount: 2250,
        payerTotalAmount: 13500,
        financingFeeAmount: 0,
        receivedAmount: 12000,
      });
      expect(row.netAmount).toBeCloseTo(12000 - row.feeAmount - row.feeTaxAmount, 2);
    });

    it('refunds an installment payment in part, then the rest: never beyond the sale, whatever the payer paid with interest', async () => {
      const intentId = await intentOf();
      const started = await bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: visa, installments: 6 });
      await request(bed.url)
        .post(pagePath(started.body.gatewayUrl as string))
        .type('form')
        .send({ outcome: 'approve', installments: '6' });
      expect(await approvedAttempt(intentId)).toMatchObject({ installments: 6, payerTotalAmount: 13500, receivedAmount: 12000 });
      // The payer's interest (1,500.00) is not the merchant's money: it cannot be refunded by the merchant.
      const beyond = await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 13500 });
      expect(beyond.status).toBe(400);
      expect(beyond.body).toEqual(errorShape('Payins:REFUND_AMOUNT_EXCEEDS_AVAILABLE'));
      const part = await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 2000 });
      expect([part.status, part.body.paymentIntentStatus]).toEqual([200, 'PARTIALLY_REFUNDED']);
      const rest = await bed.merchant.post(`/payment-intent/${intentId}/refund`);
      expect([rest.status, rest.body.paymentIntentStatus]).toEqual([200, 'REFUNDED']);
      const refunds = ((await bed.merchant.get(`/payin?paymentIntentId=${intentId}`)).body[0].results as Json[])
        .filter((r) => r.transactionType === 'REFUND')
        .map((r) => [r.status, r.amount]);
      expect(refunds.sort()).toEqual([
        ['APPROVED', 10000],
        ['APPROVED', 2000],
      ]);
      // The plan stays what was paid.
      expect((await bed.merchant.get(`/payment-intent/${intentId}`)).body.installmentPlan).toMatchObject({ installments: 6 });
    });

    it('records a single payment when the payer changes the preselected plan to one payment on the page', async () => {
      const intentId = await intentOf();
      const started = await bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: visa, installments: 3 });
      await request(bed.url)
        .post(pagePath(started.body.gatewayUrl as string))
        .type('form')
        .send({ outcome: 'approve', installments: '1' });
      const row = await approvedAttempt(intentId);
      expect(row).toMatchObject({ installments: 1, installmentAmount: null, payerTotalAmount: null, financingFeeAmount: 0 });
      expect((await bed.merchant.get(`/payment-intent/${intentId}`)).body.installmentPlan).toBeNull();
    });

    it('refuses a plan beyond the policy at initialize and on the page, changing nothing', async () => {
      const intentId = await intentOf();
      const beyond = await bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: visa, installments: 9 });
      expect(beyond.status).toBe(400);
      expect(beyond.body).toEqual(errorShape('Payins:INSTALLMENT_PLAN_NOT_OFFERED'));
      expect((await bed.merchant.get(`/payment-intent/${intentId}`)).body.paymentIntentStatus).toBe('REQUIRES_PAYMENT_INSTRUMENT');
      const started = await bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: visa, installments: 2 });
      const onPage = await request(bed.url)
        .post(pagePath(started.body.gatewayUrl as string))
        .type('form')
        .send({ outcome: 'approve', installments: '9' });
      expect(onPage.status).toBe(400);
      expect((await attemptOf(intentId)).status).toBe('PENDING');
    });

    it('charges a saved card off-session in installments, and refuses installments without confirm', async () => {
      order += 1;
      const body = {
        currency: 'UYU',
        amount: 12000,
        payinType: 'DEFAULT',
        offSession: true,
        country: 'URY',
        externalReference: `cuotas-off-${order}`,
        invoiceNumber: order,
        payerId: bed.payerId,
        paymentInstrumentData: { paymentMethodName: 'VISA', paymentInstrumentTypeName: 'CREDIT_CARD' },
        confirm: true,
        installments: 2,
      };
      const charged = await bed.merchant.post('/payment-intent', body);
      expect(charged.status).toBe(200);
      expect(charged.body.status).toBe('SUCCEEDED');
      const row = await attemptOf(charged.body.paymentIntent.paymentIntentId as string);
      expect(row).toMatchObject({ installments: 2, installmentAmount: 6000, payerTotalAmount: 12000, financingFeeAmount: 180 });
      const unconfirmed = await bed.merchant.post('/payment-intent', { ...body, externalReference: 'cuotas-unconfirmed', confirm: false });
      expect(unconfirmed.status).toBe(400);
      expect(JSON.stringify(unconfirmed.body)).toContain('installments');
      const beyond = await bed.merchant.post('/payment-intent', { ...body, externalReference: 'cuotas-beyond', installments: 12 });
      expect(beyond.status).toBe(400);
      expect(beyond.body).toEqual(errorShape('Payins:INSTALLMENT_PLAN_NOT_OFFERED'));
    });
  });
});
