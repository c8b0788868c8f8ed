import { RuntimeSettings } from '@pcs/config';
import { jpegFile, MercadoPagoStandIn, multipartBody, pdfFile } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { ReconciliationService } from '@pcs/payments';
import request from 'supertest';
import { Testbed, testbed } from './testbed';

const TOKEN = 'TEST-8412345678901234-112408-a1b2c3d4e5f6-777000111';
const SECRET = 'mp-webhook-secret-of-the-shop';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * A merchant collects through Mercado Pago (contract §16), over signed HTTP
 * against the stand-in Mercado Pago: the preference, the payer's decision at
 * its page, its signed notifications, reconciliation and refunds.
 */
describe('Mercado Pago behind the gateway port', () => {
  let bed: Testbed;
  const mp = new MercadoPagoStandIn().account(TOKEN, SECRET).account('TEST-other-merchant-token-000', 'other-secret');
  let account: string;

  beforeAll(async () => {
    await mp.start();
    bed = await testbed({
      merchants: 2,
      reachable: true, // notifications and back URLs reach this very server
      payer: { firstName: 'Lucía', lastName: 'Gómez', email: 'lucia@example.uy' },
      gateway: { processorApis: { MERCADO_PAGO: { url: mp.url, timeoutMs: 4000 } }, reconcileAfterSeconds: 1 },
    });
    account = `/merchant/${bed.tenant.merchants[0].merchantId}/gateway-account/mercado-pago`;
    expect((await bed.business.put(account, { accessToken: TOKEN, webhookSecret: SECRET })).status).toBe(200);
  });
  afterAll(async () => {
    // No attempt left waiting for reconciliation with a Mercado Pago that stops here (later suites share the database).
    await mp.rejectOpen();
    await bed.close();
    await mp.stop();
  });
  afterEach(() => {
    mp.notifications = { mode: 'send', delayMs: 0, repeat: 1 };
    mp.refundStatus = 'approved';
  });

  let order = 0;
  /** An intent of 1,220.50 UYU initialized with the MERCADO_PAGO method: the preference it opened. */
  const initialized = async (key?: string) => {
    order += 1;
    const created = await bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount: 1220.5,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: `mp-order-${order}`,
      description: 'Mesa 4',
      invoiceNumber: order,
      payerId: bed.payerId,
    });
    expect(created.status).toBe(200);
    const intentId = created.body.paymentIntent.paymentIntentId as string;
    const methods = (await bed.merchant.get(`/payment-intent/${intentId}/payment-methods`)).body
      .paymentIntentAvailablePaymentMethods as Json[];
    const wallet = methods.find((m) => m.paymentMethod.paymentMethodName === 'MERCADO_PAGO')!;
    const initialize = bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: wallet.countryProcessorId });
    const started = await (key ? initialize.set('Idempotency-Key', key) : initialize);
    return { intentId, started, wallet };
  };
  const intent = async (id: string) => (await bed.merchant.get(`/payment-intent/${id}`)).body as Json;
  const eventually = async (id: string, status: string) => {
    for (let i = 0; i < 100 && (await intent(id)).paymentIntentStatus !== status; i++) await new Promise((r) => setTimeout(r, 100));
    return intent(id);
  };
  const payinsOf = (intentId: string): Promise<Json[]> =>
    bed.dataSource.query(`SELECT * FROM payin WHERE payment_intent_id = $1 ORDER BY created_at`, [intentId]);

  it('opens a Checkout Pro preference as Mercado Pago documents it, and an approval arrives by its signed notification', async () => {
    const { intentId, started } = await initialized();
    expect(started.status).toBe(200);
    expect(started.body.gatewayUrl).toMatch(new RegExp(`^${mp.url}/checkout/v1/redirect\\?pref_id=`));
    const [attempt] = await payinsOf(intentId);
    expect(attempt).toMatchObject({ gateway: 'MERCADO_PAGO', external_id: started.body.gatewayReferenceId, status: 'PENDING' });
    const sent = mp.requests.filter((r) => r.method === 'POST' && r.path === '/checkout/preferences').at(-1)!;
    expect(sent.idempotencyKey).toBe(attempt.transaction_id);

    const payment = await mp.decide(started.body.gatewayReferenceId, 'approve');
    const paid = await eventually(intentId, 'SUCCEEDED');
    expect(paid).toMatchObject({ paymentIntentStatus: 'SUCCEEDED', receivedAmount: 1220.5 });
    expect(payment.transaction_amount).toBe(1220.5);
    expect(payment.external_reference).toBe(attempt.transaction_id);
    expect((await payinsOf(intentId))[0]).toMatchObject({ status: 'APPROVED' });
  });

  it('shows a rejection with its reason, and lets the payer try again', async () => {
    const { intentId, started } = await initialized();
    await mp.decide(started.body.gatewayReferenceId, 'reject');
    const failed = await eventually(intentId, 'REQUIRES_PAYMENT_INSTRUMENT');
    expect(failed.lastPaymentError).toContain('cc_rejected_insufficient_amount');
  });

  it('keeps a pending payment processing until Mercado Pago approves it later', async () => {
    const { intentId, started } = await initialized();
    const payment = await mp.decide(started.body.gatewayReferenceId, 'pending');
    expect((await eventually(intentId, 'PROCESSING')).paymentIntentStatus).toBe('PROCESSING');
    await mp.settle(payment.id, 'approved');
    expect((await eventually(intentId, 'SUCCEEDED')).paymentIntentStatus).toBe('SUCCEEDED');
  });

  it('settles a payment whose notification was lost through reconciliation (payments search by external_reference)', async () => {
    mp.notifications.mode = 'drop';
    const { intentId, started } = await initialized();
    await mp.decide(started.body.gatewayReferenceId, 'approve');
    await new Promise((r) => setTimeout(r, 300));
    expect((await intent(intentId)).paymentIntentStatus).toBe('REQUIRES_ACTION');
    await bed.app.get(ReconciliationService).reconcileDue(new Date(Date.now() + 5_000));
    expect((await intent(intentId)).paymentIntentStatus).toBe('SUCCEEDED');
    expect(mp.requests.some((r) => r.path === '/v1/payments/search')).toBe(true);
  });

  it('applies the same news once, whatever the order and however often it comes', async () => {
    mp.notifications.mode = 'hold';
    const { intentId, started } = await initialized();
    const payment = await mp.decide(started.body.gatewayReferenceId, 'pending');
    await mp.settle(payment.id, 'approved');
    const [pending, approved] = mp.held.splice(0);
    // Each notification makes the service read the payment as it is now: approved, three times, then the stale one.
    for (const notification of [approved, approved, pending, approved]) expect(await notification.send()).toBe(200);
    expect((await intent(intentId)).paymentIntentStatus).toBe('SUCCEEDED');
    const events = (await bed.merchant.get(`/event?type=payment_intent.succeeded&limit=100`)).body[0].results as Json[];
    expect(events.filter((e) => e.data.object.paymentIntentId === intentId)).toHaveLength(1);
  });

  it('refuses a forged, stale or foreign notification with a 401 and changes nothing', async () => {
    mp.notifications.mode = 'drop';
    const { intentId, started } = await initialized();
    const payment = await mp.decide(started.body.gatewayReferenceId, 'approve');
    const merchantId = bed.tenant.merchants[0].merchantId;
    const post = (headers: Record<string, string>, merchant = merchantId) =>
      request(bed.app.getHttpServer())
        .post(`/gateways/mercado-pago/notifications/${merchant}?data.id=${payment.id}&type=payment`)
        .set(headers)
        .send({ type: 'payment', data: { id: String(payment.id) } });
    const stale = String(Math.floor(Date.now() / 1000) - 3600);
    for (const headers of [
      {},
      mp.signedHeaders('not-the-secret', String(payment.id)),
      mp.signedHeaders(SECRET, String(payment.id), stale),
      { ...mp.signedHeaders(SECRET, String(payment.id)), 'x-request-id': 'another-request' },
      mp.signedHeaders(SECRET, String(payment.id + 1)),
    ]) {
      const refused = await post(headers);
      expect(refused.status).toBe(401);
      expect(refused.body.errorId).toBe('Payins:GATEWAY_CALLBACK_REJECTED');
    }
    // Signed for a merchant without an account (the other merchant): refused too.
    expect((await post(mp.signedHeaders(SECRET, String(payment.id)), bed.tenant.merchants[1].merchantId)).status).toBe(401);
    expect((await intent(intentId)).paymentIntentStatus).toBe('REQUIRES_ACTION');
    // The genuine one applies.
    const accepted = await post(mp.signedHeaders(SECRET, String(payment.id)));
    expect(accepted.body).toEqual({ received: true, result: 'applied' });
    expect((await intent(intentId)).paymentIntentStatus).toBe('SUCCEEDED');
  });

  it("changes nothing when a merchant's notification names another merchant's attempt", async () => {
    mp.notifications.mode = 'drop';
    const { intentId, started } = await initialized();
    await mp.decide(started.body.gatewayReferenceId, 'approve');
    // The second merchant connects its own account; a payment of its account names the first merchant's attempt.
    const second = bed.tenant.merchants[1].merchantId;
    expect(
      (
        await bed.business.put(`/merchant/${second}/gateway-account/mercado-pago`, {
          accessToken: 'TEST-other-merchant-token-000',
          webhookSecret: 'other-secret',
        })
      ).status,
    ).toBe(200);
    const attempt = (await payinsOf(intentId))[0];
    const forged = {
      id: 999_000_111,
      status: 'approved' as const,
      status_detail: 'accredited',
      external_reference: attempt.transaction_id as string,
      transaction_amount: 1220.5,
      currency_id: 'UYU',
      date_created: new Date().toISOString(),
      payment_method_id: 'visa',
      card: { first_six_digits: '450995', last_four_digits: '4242', expiration_month: 11, expiration_year: 2030 },
      installments: 1,
      transaction_details: { total_paid_amount: 1220.5, installment_amount: 1220.5, net_received_amount: 1220.5 },
      transaction_amount_refunded: 0,
      refunds: [],
      token: 'TEST-other-merchant-token-000',
      notificationUrl: null,
    };
    mp.payments.set(forged.id, forged);
    const answer = await request(bed.app.getHttpServer())
      .post(`/gateways/mercado-pago/notifications/${second}?data.id=${forged.id}&type=payment`)
      .set(mp.signedHeaders('other-secret', String(forged.id)))
      .send({ type: 'payment', data: { id: String(forged.id) } });
    expect(answer.body).toEqual({ received: true, result: 'unknown' });
    expect((await intent(intentId)).paymentIntentStatus).toBe('REQUIRES_ACTION');
    await bed.business.delete(`/merchant/${second}/gateway-account/mercado-pago`);
  });

  it('refunds part, then the rest, through Mercado Pago; a refund Mercado Pago refuses releases its amount', async () => {
    const { intentId, started } = await initialized();
    const payment = await mp.decide(started.body.gatewayReferenceId, 'approve');
    await eventually(intentId, 'SUCCEEDED');

    const partial = await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 200.25 });
    expect(partial.status).toBe(200);
    expect(partial.body.paymentIntentStatus).toBe('PARTIALLY_REFUNDED');
    expect(payment.refunds.map((r) => r.amount)).toEqual([200.25]);
    const refundRequest = mp.requests.filter((r) => r.path === `/v1/payments/${payment.id}/refunds` && r.method === 'POST').at(-1)!;
    const refundRows = (await payinsOf(intentId)).filter((p) => p.transaction_type === 'REFUND');
    expect(refundRequest.idempotencyKey).toBe(refundRows[0].transaction_id);

    mp.refundStatus = 'rejected';
    const refused = await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 100 });
    expect(refused.body.paymentIntentStatus).toBe('PARTIALLY_REFUNDED');
    const failedRefund = (await payinsOf(intentId)).filter((p) => p.transaction_type === 'REFUND').at(-1)!;
    expect(failedRefund.status).toBe('REJECTED');

    mp.refundStatus = 'approved';
    const rest = await bed.merchant.post(`/payment-intent/${intentId}/refund`);
    expect(rest.status).toBe(200);
    expect(rest.body.paymentIntentStatus).toBe('REFUNDED');
    expect(payment.refunds.filter((r) => r.status === 'approved').map((r) => r.amount)).toEqual([200.25, 1020.25]);
    expect(payment.status).toBe('refunded');
  });

  it('sends a confirmed manual refund through Mercado Pago: pending reserves, confirmation refunds there, once', async () => {
    const { intentId, started } = await initialized();
    const payment = await mp.decide(started.body.gatewayReferenceId, 'approve');
    await eventually(intentId, 'SUCCEEDED');
    const pending = await bed.merchant.post(`/payment-intent/${intentId}/manual-refund`, {
      status: 'MANUAL_REFUND_PENDING',
      requestedRefundAmount: 120.5,
    });
    expect(pending.status).toBe(200);
    expect(payment.refunds).toEqual([]); // reserved only: nothing returned yet

    const confirm = () =>
      bed.merchant
        .post(`/payment-intent/${intentId}/manual-refund`, { status: 'MANUAL_REFUND_CONFIRMED', requestedRefundAmount: 120.5 })
        .set('Idempotency-Key', `confirm-${intentId}`);
    const confirmed = await confirm();
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.paymentIntentStatus).toBe('PARTIALLY_REFUNDED');
    expect(payment.refunds.map((r) => [r.amount, r.status])).toEqual([[120.5, 'approved']]);
    const manual = (await payinsOf(intentId)).filter((p) => p.concept_code === 'MANUAL_REFUND');
    expect(manual).toHaveLength(1);
    expect(manual[0]).toMatchObject({ status: 'APPROVED', manual_refund_status: 'MANUAL_REFUND_CONFIRMED' });
    // The same confirmation again refunds nothing more.
    expect((await confirm()).status).toBe(200);
    expect(payment.refunds).toHaveLength(1);

    // Confirmed at once (nothing pending): refunded at Mercado Pago too, the rest of it.
    const rest = await bed.merchant.post(`/payment-intent/${intentId}/manual-refund`, { status: 'MANUAL_REFUND_CONFIRMED' });
    expect(rest.body.paymentIntentStatus).toBe('REFUNDED');
    expect(payment.refunds.map((r) => r.amount)).toEqual([120.5, 1100]);
  });

  it("settles a refund whose answer timed out by listing the payment's refunds, never refunding twice", async () => {
    const { intentId, started } = await initialized();
    const payment = await mp.decide(started.body.gatewayReferenceId, 'approve');
    await eventually(intentId, 'SUCCEEDED');
    // Mercado Pago makes the refund, but answers after our 4 s bound.
    mp.faults.push({ method: 'POST', pathPrefix: `/v1/payments/${payment.id}/refunds`, answer: 'late', lateMs: 5000, times: 1 });
    const refunded = await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 300 });
    expect(refunded.status).toBe(200);
    const [refund] = (await payinsOf(intentId)).filter((p) => p.transaction_type === 'REFUND');
    expect(refund.status).toBe('PENDING'); // its amount stays reserved meanwhile
    for (let i = 0; i < 100 && payment.refunds.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    await bed.app.get(ReconciliationService).reconcileDue(new Date(Date.now() + 5_000));
    expect((await payinsOf(intentId)).find((p) => p.transaction_id === refund.transaction_id)).toMatchObject({ status: 'APPROVED' });
    expect(payment.refunds.map((r) => r.amount)).toEqual([300]);
    expect(mp.requests.some((r) => r.method === 'GET' && r.path === `/v1/payments/${payment.id}/refunds`)).toBe(true);
  });

  it('answers a preference that timed out with a 503, and its retry with the same Idempotency-Key opens no second preference', async () => {
    mp.faults.push({ method: 'POST', pathPrefix: '/checkout/preferences', answer: 'hang', times: 1 });
    const before = mp.requests.filter((r) => r.path === '/checkout/preferences').length;
    const { intentId, started, wallet } = await initialized('init-timeout-1');
    expect(started.status).toBe(503);
    expect(started.body.errorId).toBe('Payins:GATEWAY_UNREACHABLE');
    // The try is listed, failed for PROCESSOR_UNAVAILABLE (contract §26); the preference charges nothing, so nothing waits.
    expect((await payinsOf(intentId)).map((p) => [p.status, p.external_status.split(':')[0]])).toEqual([
      ['REJECTED', 'PROCESSOR_UNAVAILABLE'],
    ]);
    const retried = await bed.merchant
      .post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: wallet.countryProcessorId })
      .set('Idempotency-Key', 'init-timeout-1');
    expect(retried.status).toBe(200);
    const sent = mp.requests.filter((r) => r.path === '/checkout/preferences').slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[0].idempotencyKey).toBe(sent[1].idempotencyKey);
    expect((await payinsOf(intentId)).map((p) => p.status)).toEqual(['REJECTED', 'PENDING']);
  });

  it('refuses an off-session charge of an instrument Mercado Pago does not keep with a 400, writing nothing', async () => {
    const instrument = await bed.merchant.post('/payment-instrument', { payerId: bed.payerId, paymentMethodName: 'VISA', country: 'URY' });
    expect(instrument.status).toBe(200);
    await bed.business.put(account, { accessToken: TOKEN, webhookSecret: SECRET, paymentMethods: ['MERCADO_PAGO', 'VISA'] });
    const charge = {
      currency: 'UYU',
      amount: 300,
      payinType: 'DEFAULT',
      offSession: true,
      country: 'URY',
      externalReference: 'mp-off-session',
      invoiceNumber: 77,
      payerId: bed.payerId,
      paymentInstrumentId: instrument.body.paymentInstrumentId,
      confirm: true,
    };
    try {
      const refused = await bed.merchant.post('/payment-intent', charge);
      expect(refused.status).toBe(400);
      expect(refused.body.errorId).toBe('Payins:OFF_SESSION_NOT_SUPPORTED');
      expect(await bed.dataSource.query(`SELECT 1 FROM payment_intent WHERE external_reference = 'mp-off-session'`)).toEqual([]);
    } finally {
      await bed.business.put(account, { accessToken: TOKEN, webhookSecret: SECRET });
    }
    // Routed back to the sandbox, the same charge goes through.
    expect((await bed.merchant.post('/payment-intent', charge)).status).toBe(200);
  });

  it('answers hostile notifications and return addresses with clear refusals, never a 500', async () => {
    const merchantId = bed.tenant.merchants[0].merchantId;
    const server = bed.app.getHttpServer();
    const route = `/gateways/mercado-pago/notifications/${merchantId}`;
    const signed = mp.signedHeaders(SECRET, '1');
    const answers = [
      await request(server).post(`${route}?data.id=1&type=payment`).set(signed).set('content-type', 'application/json').send('null'),
      await request(server).post(`${route}?data.id=1&data.id=2&type=payment`).set(signed).send({}),
      await request(server)
        .post(`${route}?type=payment`)
        .set(signed)
        .send({ data: { id: { $gt: '' } } }),
      await request(server).post('/gateways/mercado-pago/notifications/not-a-merchant?data.id=1').set(signed).send({}),
      await request(server).post(`${route}?data.id=%00%27`).set({ 'x-signature': 'ts=,v1=', 'x-request-id': '<script>' }).send({}),
    ];
    for (const answer of answers) {
      expect([400, 401]).toContain(answer.status);
      expect(answer.body.errorId).toMatch(/^(Payins:GATEWAY_CALLBACK_REJECTED|Validation:[A-Z_]+)$/);
    }
    // Signed by Mercado Pago for a payment it does not know: acknowledged, nothing changes (the body is not what is read).
    const odd = await request(server).post(`${route}?data.id=1&type=payment`).set(signed).send([1, 2]);
    expect(odd.status).toBe(200);
    expect(odd.body).toEqual({ received: true, result: 'unknown' });
    for (const id of ['not-a-uuid', '%2e%2e', 'A'.repeat(300)]) {
      const page = await request(server).get(`/gateways/mercado-pago/return/${id}`);
      expect(page.status).toBe(404);
      expect(page.text).not.toMatch(/Error|stack/);
    }
  });

  it('quotes installments from Mercado Pago’s offer for the card (contract §25): its promotion interest-free, the rest with the payer’s rate, within the policy', async () => {
    const { wallet } = await initialized();
    const merchantId = bed.tenant.merchants[0].merchantId;
    expect(
      (
        await bed.business.put(`/merchant/${merchantId}/configuration`, {
          installments: { URY: { maxInstallments: 9, interestFreeUpTo: 3 } },
        })
      ).status,
    ).toBe(200);
    mp.interestFreeUpTo = 3;
    const quote = (query: Record<string, string>) => bed.merchant.get(`/installments?${new URLSearchParams(query).toString()}`);
    const answer = await quote({
      countryProcessorId: wallet.countryProcessorId as string,
      bin: '45099500',
      amount: '1220.50',
      currency: 'UYU',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { installments: 1, installmentAmount: 1220.5, totalAmount: 1220.5, interestFree: true, payerRate: 0, merchantFinancingFee: null },
      { installments: 3, installmentAmount: 406.83, totalAmount: 1220.5, interestFree: true, payerRate: 0, merchantFinancingFee: null },
      {
        installments: 6,
        installmentAmount: 275.59,
        totalAmount: 1653.53,
        interestFree: false,
        payerRate: 35.48,
        merchantFinancingFee: null,
      },
      {
        installments: 9,
        installmentAmount: 207.04,
        totalAmount: 1863.34,
        interestFree: false,
        payerRate: 52.67,
        merchantFinancingFee: null,
      },
    ]);
    expect(mp.requests.filter((r) => r.path === '/v1/payment_methods/installments')).toHaveLength(1);
    // Checkout Pro takes any card, so its quote needs the card's first digits.
    const saved = await bed.merchant.post('/payment-instrument', {
      payerId: bed.payerId,
      paymentMethodName: 'MERCADO_PAGO',
      country: 'URY',
    });
    if (saved.status === 200) {
      const byCard = await quote({ paymentInstrumentId: saved.body.paymentInstrumentId as string, amount: '1220.50', currency: 'UYU' });
      expect(byCard.status).toBe(400);
      expect(byCard.body.errorId).toBe('Payins:INSTALLMENTS_NOT_QUOTED');
    }
    // Slow or down: 503 in the contract's shape, within the client's bound, never a hang.
    mp.faults.push({ method: 'GET', pathPrefix: '/v1/payment_methods/installments', answer: 'hang', times: 1 });
    const started = Date.now();
    const slow = await quote({
      countryProcessorId: wallet.countryProcessorId as string,
      bin: '450995',
      amount: '1220.50',
      currency: 'UYU',
    });
    expect(slow.status).toBe(503);
    expect(slow.body.errorId).toBe('Payins:GATEWAY_UNREACHABLE');
    expect(Date.now() - started).toBeLessThan(10_000);
    mp.faults.push({ method: 'GET', pathPrefix: '/v1/payment_methods/installments', answer: 500, times: 1 });
    expect(
      (await quote({ countryProcessorId: wallet.countryProcessorId as string, bin: '450995', amount: '1220.50', currency: 'UYU' })).status,
    ).toBe(503);
    mp.interestFreeUpTo = 1;
  });

  it('counts its requests to Mercado Pago in /metrics by operation and outcome, without tenants or tokens', async () => {
    const text = (await request(bed.app.getHttpServer()).get('/metrics')).text;
    expect(text).toMatch(
      /pcs_gateway_request_duration_seconds_count\{provider="MERCADO_PAGO",operation="create_preference",outcome="ok"\} [1-9]/,
    );
    expect(text).toMatch(
      /pcs_gateway_request_duration_seconds_count\{provider="MERCADO_PAGO",operation="create_preference",outcome="timeout"\} [1-9]/,
    );
    expect(text).toMatch(/operation="refund",outcome="ok"/);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(bed.tenant.merchants[0].merchantId);
  });

  it('sends the payer back from Checkout Pro to where the attempt was opened, or thanks them', async () => {
    const { started } = await initialized();
    const [attempt] = await bed.dataSource.query(`SELECT payin_id FROM mercado_pago_checkout WHERE preference_id = $1`, [
      started.body.gatewayReferenceId,
    ]);
    const back = await request(bed.app.getHttpServer()).get(`/gateways/mercado-pago/return/${attempt.payin_id}?status=approved`);
    expect(back.status).toBe(200);
    expect(back.text).toContain('Mercado Pago está procesando su pago');
    expect((await request(bed.app.getHttpServer()).get(`/gateways/mercado-pago/return/${crypto.randomUUID()}`)).status).toBe(404);
  });

  describe('chargebacks (contract §21)', () => {
    let merchantId: string;
    beforeAll(async () => {
      // The business's own Mercado Pago account: its chargebacks move the balance (in the merchant's own, none: docs/money.md).
      expect((await bed.business.put(account, { accessToken: TOKEN, webhookSecret: SECRET, fundsFlow: 'PLATFORM' })).body.fundsFlow).toBe(
        'PLATFORM',
      );
      merchantId = bed.tenant.merchants[0].merchantId;
      // Chargebacks go to the application's webhook URL, configured at Mercado Pago: the README tells merchants to set our route there.
      mp.webhook(TOKEN, `${bed.app.get(RuntimeSettings).publicBaseUrl}/gateways/mercado-pago/notifications/${merchantId}`);
    });

    /** A payment approved at Mercado Pago and its intent. */
    const paid = async () => {
      const { intentId, started } = await initialized();
      const payment = await mp.decide(started.body.gatewayReferenceId, 'approve');
      await eventually(intentId, 'SUCCEEDED');
      return { intentId, payment };
    };
    const disputeOf = async (caseId: string): Promise<Json | undefined> =>
      ((await bed.merchant.get(`/dispute?merchantId=${merchantId}&limit=100`)).body[0].results as Json[]).find(
        (d) => d.processorReference === caseId,
      );
    const settled = async (caseId: string, status: string): Promise<Json> => {
      for (let i = 0; i < 100; i++) {
        const dispute = await disputeOf(caseId);
        if (dispute?.status === status) return dispute;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`dispute of case ${caseId} never became ${status}`);
    };
    const movements = async (disputeId: string): Promise<string[]> =>
      (await bed.dataSource.query(`SELECT type FROM balance_transaction WHERE source_id = $1 ORDER BY created_at`, [disputeId])).map(
        (r: Json) => r.type,
      );
    /** An 18-digit case id that passes the Luhn check, as one Mercado Pago case id in ten does. */
    const luhnValidCaseId = (): string => {
      const body = `23${String(crypto.randomInt(1e7, 1e8))}${String(crypto.randomInt(1e6, 1e7))}`;
      const sum = [...body].reverse().reduce((total, digit, i) => {
        const d = Number(digit) * (i % 2 === 0 ? 2 : 1);
        return total + (d > 9 ? d - 9 : d);
      }, 0);
      return `${body}${(10 - (sum % 10)) % 10}`;
    };

    it('opens one dispute from a verified notification of a Luhn-valid 18-digit case, however often it comes', async () => {
      const { intentId, payment } = await paid();
      const caseId = luhnValidCaseId();
      expect(caseId).toMatch(/^\d{18}$/);
      const deadline = new Date(Date.now() + 9 * 86_400_000);
      const chargeback = await mp.chargeback(payment.id, { id: caseId, reason: 'fraud', deadline });
      const dispute = await settled(caseId, 'NEEDS_RESPONSE');
      expect(dispute).toMatchObject({
        paymentIntentId: intentId,
        merchantId,
        amount: 1220.5,
        currency: 'UYU',
        reason: 'FRAUDULENT',
        processor: 'MERCADO_PAGO',
        evidenceDueBy: deadline.toISOString(),
      });
      expect(mp.requests.some((r) => r.method === 'GET' && r.path === `/v1/chargebacks/${caseId}`)).toBe(true);
      // Sent again (as Mercado Pago does until answered, and on every change): still one dispute, one debit.
      expect(await mp.notifyChargeback(chargeback)).toBe(200);
      expect(await mp.notifyChargeback(chargeback)).toBe(200);
      expect(
        ((await bed.merchant.get(`/dispute?merchantId=${merchantId}&limit=100`)).body[0].results as Json[]).filter(
          (d) => d.processorReference === caseId,
        ),
      ).toHaveLength(1);
      expect(await movements(dispute.disputeId)).toEqual(['CHARGEBACK']);
      expect((await intent(intentId)).disputes).toEqual([{ disputeId: dispute.disputeId, status: 'NEEDS_RESPONSE', amount: 1220.5 }]);
    });

    it('sends the evidence as Mercado Pago documentation (files[]) and follows its decision: covered is WON, the money back once', async () => {
      const { payment } = await paid();
      const chargeback = await mp.chargeback(payment.id);
      const { disputeId } = await settled(chargeback.id, 'NEEDS_RESPONSE');
      const { body, contentType } = multipartBody([
        { fileName: 'factura.pdf', contentType: 'application/pdf', content: pdfFile('Factura 0001-00000042') },
        { fileName: 'entrega.jpg', contentType: 'image/jpeg', content: jpegFile() },
      ]);
      expect((await bed.merchant.upload(`/dispute/${disputeId}/evidence`, body, contentType)).status).toBe(200);
      const submitted = await bed.merchant.post(`/dispute/${disputeId}/submit`);
      expect(submitted.status).toBe(200);
      expect(submitted.body.status).toBe('UNDER_REVIEW');
      expect(mp.chargebacks.get(chargeback.id)).toMatchObject({
        documentation_status: 'review_pending',
        documentation: [
          { type: 'application/pdf', description: `File: factura.pdf, Size: ${pdfFile('Factura 0001-00000042').length}` },
          { type: 'image/jpeg', description: `File: entrega.jpg, Size: ${jpegFile().length}` },
        ],
      });
      await mp.decideChargeback(chargeback.id, true);
      await settled(chargeback.id, 'WON');
      expect(await movements(disputeId)).toEqual(['CHARGEBACK', 'CHARGEBACK_REVERSAL']);
      await mp.notifyChargeback(chargeback);
      expect(await movements(disputeId)).toEqual(['CHARGEBACK', 'CHARGEBACK_REVERSAL']);
    });

    it('lets Mercado Pago’s later decision win over an acceptance, and keeps the money debited when it is lost', async () => {
      const accepted = await mp.chargeback((await paid()).payment.id);
      const first = await settled(accepted.id, 'NEEDS_RESPONSE');
      expect((await bed.merchant.post(`/dispute/${first.disputeId}/accept`)).body.status).toBe('ACCEPTED');
      await mp.decideChargeback(accepted.id, true);
      await settled(accepted.id, 'WON');
      expect(await movements(first.disputeId)).toEqual(['CHARGEBACK', 'CHARGEBACK_REVERSAL']);

      const lost = await mp.chargeback((await paid()).payment.id);
      const second = await settled(lost.id, 'NEEDS_RESPONSE');
      await mp.decideChargeback(lost.id, false);
      await settled(lost.id, 'LOST');
      expect(await movements(second.disputeId)).toEqual(['CHARGEBACK']);
    });

    it('answers a refusal of the files with a 422 and an unreachable Mercado Pago with a 503, the dispute still waiting', async () => {
      const chargeback = await mp.chargeback((await paid()).payment.id, { deadline: null });
      const { disputeId, evidenceDueBy } = await settled(chargeback.id, 'NEEDS_RESPONSE');
      expect(evidenceDueBy).toBeNull();
      const { body, contentType } = multipartBody([{ fileName: 'recibo.pdf', contentType: 'application/pdf', content: pdfFile() }]);
      expect((await bed.merchant.upload(`/dispute/${disputeId}/evidence`, body, contentType)).status).toBe(200);
      mp.faults.push({ method: 'POST', pathPrefix: `/v1/chargebacks/${chargeback.id}/documentation`, answer: 500, times: 1 });
      const unreachable = await bed.merchant.post(`/dispute/${disputeId}/submit`);
      expect(unreachable.status).toBe(503);
      expect(unreachable.body.errorId).toBe('Payins:GATEWAY_UNREACHABLE');
      // Mercado Pago's own deadline passed (it told us none): it refuses the files.
      mp.chargebacks.get(chargeback.id)!.date_documentation_deadline = new Date(Date.now() - 60_000).toISOString();
      const refused = await bed.merchant.post(`/dispute/${disputeId}/submit`);
      expect(refused.status).toBe(422);
      expect(refused.body.errorId).toBe('Payins:DISPUTE_EVIDENCE_REFUSED');
      expect(refused.body.showMessage.EN).toContain('Mercado Pago refused the evidence (it answered 400)');
      expect((await bed.merchant.get(`/dispute/${disputeId}`)).body.status).toBe('NEEDS_RESPONSE');
      mp.chargebacks.get(chargeback.id)!.date_documentation_deadline = null;
      expect((await bed.merchant.post(`/dispute/${disputeId}/submit`)).body.status).toBe('UNDER_REVIEW');
    });

    it('refuses a chargeback notification that is unsigned or signed with another secret (401), and one for another merchant’s payment', async () => {
      const chargeback = await mp.chargeback((await paid()).payment.id, { id: luhnValidCaseId() });
      await settled(chargeback.id, 'NEEDS_RESPONSE');
      expect(await mp.notifyChargeback(chargeback, 'not-the-secret')).toBe(401);
      const unsigned = await request(bed.app.getHttpServer())
        .post(`/gateways/mercado-pago/notifications/${merchantId}?data.id=${chargeback.id}&type=topic_chargebacks_wh`)
        .send({ type: 'topic_chargebacks_wh', data: { id: chargeback.id } });
      expect(unsigned.status).toBe(401);
      // The other merchant's account, naming a case of this merchant's payment: Mercado Pago answers 404 to its token, nothing opens.
      const other = bed.tenant.merchants[1].merchantId;
      const otherAccount = `/merchant/${other}/gateway-account/mercado-pago`;
      expect(
        (await bed.business.put(otherAccount, { accessToken: 'TEST-other-merchant-token-000', webhookSecret: 'other-secret' })).status,
      ).toBe(200);
      const foreign = await request(bed.app.getHttpServer())
        .post(`/gateways/mercado-pago/notifications/${other}?data.id=${chargeback.id}&type=topic_chargebacks_wh`)
        .set(mp.signedHeaders('other-secret', chargeback.id))
        .send({ type: 'topic_chargebacks_wh' });
      expect(foreign.status).toBe(200);
      expect(foreign.body.result).toBe('unknown');
    });
  });
});
