import { CheckoutOutcomeUnknownError, GatewayRegistry } from '@pcs/gateways';
import { ReconciliationService, RefundsService } from '@pcs/payments';
import { RuntimeSettings } from '@pcs/config';
import { clientFor, createTenant, DLocalStandIn, MercadoPagoStandIn, multipartBody, pdfFile } from '@pcs/testing';
import * as crypto from 'node:crypto';
import request from 'supertest';
import { Testbed, testbed, URUGUAYAN_PAYER } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const LOGIN = 'dl-login-shop-0001';
const TRANS_KEY = 'dl-trans-key-shop-0001';
const SECRET_KEY = 'dl-secret-key-of-the-shop-0001';

/**
 * A merchant collects through dLocal (contract §20), over signed HTTP against
 * the stand-in dLocal written from dLocal's documentation: the payment in the
 * REDIRECT flow, the payer's decision at its page, its signed notifications,
 * reconciliation through the order, and refunds without an idempotency key.
 */
describe('dLocal behind the gateway port', () => {
  let bed: Testbed;
  const dl = new DLocalStandIn()
    .merchant(LOGIN, TRANS_KEY, SECRET_KEY)
    .merchant('dl-login-other-0002', 'dl-trans-other', 'dl-secret-other-0002');
  const mp = new MercadoPagoStandIn().account('TEST-mp-token-for-the-dlocal-shop', 'mp-secret');
  let merchantId: string;
  let account: string;

  beforeAll(async () => {
    await dl.start();
    await mp.start();
    bed = await testbed({
      merchants: 2,
      reachable: true, // notifications and the payer's return reach this very server
      payer: URUGUAYAN_PAYER,
      gateway: {
        processorApis: { MERCADO_PAGO: { url: mp.url, timeoutMs: 2000 }, DLOCAL: { url: dl.url, timeoutMs: 2000 } },
        // Reconciled by hand below, payin by payin: nothing of this suite comes due under another suite's sweep.
        reconcileAfterSeconds: 600,
      },
    });
    merchantId = bed.tenant.merchants[0].merchantId;
    account = `/merchant/${merchantId}/gateway-account/dlocal`;
    const connected = await bed.business.put(account, {
      xLogin: LOGIN,
      xTransKey: TRANS_KEY,
      secretKey: SECRET_KEY,
      paymentMethods: ['VISA'],
    });
    expect(connected.status).toBe(200);
  });
  afterAll(async () => {
    // No attempt left waiting for reconciliation with a dLocal that stops here (later suites share the database).
    await dl.rejectOpen();
    await mp.rejectOpen();
    await bed.close();
    await dl.stop();
    await mp.stop();
  });
  afterEach(() => {
    dl.notifications = { mode: 'send', delayMs: 0, repeat: 1 };
    dl.refundStatus = 'SUCCESS';
  });

  let order = 0;
  const intent = async (id: string) => (await bed.merchant.get(`/payment-intent/${id}`)).body as Json;
  const eventually = async (id: string, status: string) => {
    for (let i = 0; i < 100 && (await intent(id)).paymentIntentStatus !== status; i++) await new Promise((r) => setTimeout(r, 100));
    return intent(id);
  };
  const payinsOf = (intentId: string): Promise<Json[]> =>
    bed.dataSource.query(`SELECT * FROM payin WHERE payment_intent_id = $1 ORDER BY created_at`, [intentId]);
  const methodOf = async (intentId: string, method: string, type: string) =>
    ((await bed.merchant.get(`/payment-intent/${intentId}/payment-methods`)).body.paymentIntentAvailablePaymentMethods as Json[]).find(
      (m) => m.paymentMethod.paymentMethodName === method && m.paymentInstrumentType.paymentInstrumentTypeName === type,
    )!;
  /** An intent of 1,220.50 UYU initialized with a method (a Visa credit card unless said): what dLocal was asked. */
  const initialized = async (options: { method?: string; type?: string; key?: string; payerId?: string } = {}) => {
    order += 1;
    const created = await bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount: 1220.5,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: `dl-order-${order}`,
      description: 'Mesa 4',
      invoiceNumber: order,
      payerId: options.payerId ?? bed.payerId,
    });
    expect(created.status).toBe(200);
    const intentId = created.body.paymentIntent.paymentIntentId as string;
    const method = await methodOf(intentId, options.method ?? 'VISA', options.type ?? 'CREDIT_CARD');
    const initialize = bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: method.countryProcessorId });
    const started = await (options.key ? initialize.set('Idempotency-Key', options.key) : initialize);
    return { intentId, started, method };
  };
  const notify = (body: unknown, headers: Record<string, string>, merchant = merchantId) =>
    request(bed.app.getHttpServer()).post(`/gateways/dlocal/notifications/${merchant}`).set(headers).send(JSON.stringify(body));

  it('connects an account with hints only, and refuses methods dLocal does not collect there or another processor has', async () => {
    const shown = (await bed.business.get(account)).body;
    expect(shown).toEqual({
      provider: 'DLOCAL',
      merchantId,
      paymentMethods: ['VISA'],
      fundsFlow: 'MERCHANT',
      xLoginHint: '…0001',
      xTransKeyHint: '…0001',
      secretKeyHint: '…0001',
      // No Smart Fields key yet: its card fields cannot be on the setup page (contract §31).
      smartFieldsKey: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(shown)).not.toContain(SECRET_KEY);
    // Uruguayan bank transfers are not among dLocal's methods in Uruguay.
    const brou = await bed.business.put(account, {
      xLogin: LOGIN,
      xTransKey: TRANS_KEY,
      secretKey: SECRET_KEY,
      paymentMethods: ['VISA', 'BROU'],
    });
    expect(brou.status).toBe(400);
    expect(brou.body.message).toContain('dLocal does not collect BROU in URY');
    // A method Mercado Pago already collects for the merchant.
    const mpAccount = `/merchant/${merchantId}/gateway-account/mercado-pago`;
    expect(
      (
        await bed.business.put(mpAccount, {
          accessToken: 'TEST-mp-token-for-the-dlocal-shop',
          webhookSecret: 'mp-secret',
          paymentMethods: ['MASTER_CARD'],
        })
      ).status,
    ).toBe(200);
    const taken = await bed.business.put(account, {
      xLogin: LOGIN,
      xTransKey: TRANS_KEY,
      secretKey: SECRET_KEY,
      paymentMethods: ['VISA', 'MASTER_CARD'],
    });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toContain('MASTER_CARD (MERCADO_PAGO)');
    expect((await bed.business.delete(mpAccount)).status).toBe(200);
    // Another business's merchant is not found; nothing about the account leaks.
    expect((await bed.client(bed.tenant.merchants[1]).get(account)).status).toBe(404);
    expect((await bed.business.get(account)).body.paymentMethods).toEqual(['VISA']);
  });

  it('opens a REDIRECT payment signed as dLocal documents it, and an approval arrives by its signed notification', async () => {
    const { intentId, started } = await initialized();
    expect(started.status).toBe(200);
    expect(started.body.gatewayUrl).toMatch(new RegExp(`^${dl.url}/collect/pay/D-4-`));
    const [attempt] = await payinsOf(intentId);
    expect(attempt).toMatchObject({ gateway: 'DLOCAL', external_id: started.body.gatewayReferenceId, status: 'PENDING' });
    const sent = dl.requests.filter((r) => r.method === 'POST' && r.path === '/payments').at(-1)!;
    expect(JSON.parse(sent.body)).toEqual({
      amount: 1220.5,
      currency: 'UYU',
      country: 'UY',
      payment_method_id: 'CARD',
      payment_method_flow: 'REDIRECT',
      payer: { name: 'Lucía Gómez', email: 'lucia@example.uy', document: '12345672' },
      order_id: attempt.transaction_id,
      description: 'Mesa 4',
      notification_url: expect.stringMatching(new RegExp(`^http://[^/]+/gateways/dlocal/notifications/${merchantId}$`)),
      callback_url: expect.stringContaining(`/gateways/dlocal/return/${attempt.transaction_id}`),
    });

    await dl.decide(started.body.gatewayReferenceId, 'pay');
    const paid = await eventually(intentId, 'SUCCEEDED');
    expect(paid).toMatchObject({ paymentIntentStatus: 'SUCCEEDED', receivedAmount: 1220.5 });
    // The ledger, its fees and the availability date are the same whatever the processor (VISA credit: 4.49% + 22% VAT on it).
    const [row] = (await bed.merchant.get(`/payin?paymentIntentId=${intentId}`)).body[0].results;
    expect(row).toMatchObject({ status: 'APPROVED', feeAmount: 54.8, feeTaxAmount: 12.06, netAmount: 1153.64, processorFeeAmount: null });
    expect(row.liquidationDate).toEqual(expect.any(String));
    const events = (await bed.merchant.get(`/event?type=payment_intent.succeeded&limit=100`)).body[0].results as Json[];
    expect(events.filter((e) => e.data.object.paymentIntentId === intentId)).toHaveLength(1);
  });

  it('collects an Argentine bank transfer (IO) and cash voucher (RP) with the payer’s DNI', async () => {
    const argentina = await createTenant(bed.app, { country: 'ARG' });
    const shop = bed.client(argentina.merchants[0]);
    const argMerchant = argentina.merchants[0].merchantId;
    const connected = await clientFor(bed.app, argentina.business).put(`/merchant/${argMerchant}/gateway-account/dlocal`, {
      xLogin: LOGIN,
      xTransKey: TRANS_KEY,
      secretKey: SECRET_KEY,
    });
    expect(connected.status).toBe(200);
    expect(connected.body.paymentMethods).toEqual(expect.arrayContaining(['BBVA', 'MERCADO_PAGO', 'VISA']));
    const payer = await shop.post('/payer', {
      firstName: 'Juan',
      lastName: 'Pérez',
      email: 'juan@example.com.ar',
      documentType: 'DNI',
      document: '30.123.456',
    });
    expect(payer.status).toBe(200);
    for (const [method, type, code] of [
      ['BBVA', 'BANK_TRANSFER', 'IO'],
      ['MERCADO_PAGO', 'CASH', 'RP'],
    ]) {
      const created = await shop.post('/payment-intent', {
        currency: 'ARS',
        amount: 15000,
        payinType: 'DEFAULT',
        offSession: false,
        country: 'ARG',
        externalReference: `ar-${code}`,
        invoiceNumber: 1,
        payerId: payer.body.payerId,
      });
      expect(created.status).toBe(200);
      const intentId = created.body.paymentIntent.paymentIntentId as string;
      const choice = (
        (await shop.get(`/payment-intent/${intentId}/payment-methods`)).body.paymentIntentAvailablePaymentMethods as Json[]
      ).find((m) => m.paymentMethod.paymentMethodName === method && m.paymentInstrumentType.paymentInstrumentTypeName === type)!;
      const started = await shop.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: choice.countryProcessorId });
      expect(started.status).toBe(200);
      const sent = JSON.parse(dl.requests.filter((r) => r.method === 'POST' && r.path === '/payments').at(-1)!.body);
      expect(sent).toMatchObject({
        country: 'AR',
        currency: 'ARS',
        amount: 15000,
        payment_method_id: code,
        payer: { document: '30123456' },
      });
      await dl.settle(started.body.gatewayReferenceId, 'PAID');
      expect((await shop.get(`/payment-intent/${intentId}`)).body.paymentIntentStatus).toBe('SUCCEEDED');
    }
  });

  it('shows a rejection with dLocal’s status detail and code, and lets the payer try again', async () => {
    const { intentId, started } = await initialized();
    await dl.decide(started.body.gatewayReferenceId, 'reject');
    const failed = await eventually(intentId, 'REQUIRES_PAYMENT_INSTRUMENT');
    expect(failed.lastPaymentError).toContain('The payment was rejected. (300)');
    const again = await bed.merchant.post(`/payment-intent/${intentId}/initialize`, {
      countryProcessorId: (await methodOf(intentId, 'VISA', 'CREDIT_CARD')).countryProcessorId,
    });
    expect(again.status).toBe(200);
  });

  it('keeps a pending payment processing until dLocal says it was paid', async () => {
    const { intentId, started } = await initialized();
    await dl.decide(started.body.gatewayReferenceId, 'pending');
    expect((await eventually(intentId, 'PROCESSING')).paymentIntentStatus).toBe('PROCESSING');
    await dl.settle(started.body.gatewayReferenceId, 'PAID');
    expect((await eventually(intentId, 'SUCCEEDED')).paymentIntentStatus).toBe('SUCCEEDED');
  });

  it('settles a payment whose notification was lost through reconciliation (GET /orders/:order_id)', async () => {
    dl.notifications.mode = 'drop';
    const { intentId, started } = await initialized();
    await dl.decide(started.body.gatewayReferenceId, 'pay');
    await new Promise((r) => setTimeout(r, 300));
    expect((await intent(intentId)).paymentIntentStatus).toBe('REQUIRES_ACTION');
    const [attempt] = await payinsOf(intentId);
    await bed.app.get(ReconciliationService).reconcileAttempt(attempt.transaction_id);
    expect((await intent(intentId)).paymentIntentStatus).toBe('SUCCEEDED');
    expect(dl.requests.some((r) => r.method === 'GET' && r.path === `/orders/${attempt.transaction_id}`)).toBe(true);
  });

  it('applies the same news once, whatever the order and however often it comes', async () => {
    dl.notifications.mode = 'hold';
    const { intentId, started } = await initialized();
    await dl.decide(started.body.gatewayReferenceId, 'pending');
    await dl.settle(started.body.gatewayReferenceId, 'PAID');
    const [pending, paid] = dl.held.splice(0);
    // Each notification makes the service read the payment as it is now: paid, three times, then the stale one.
    for (const notification of [paid, paid, pending, paid]) expect(await notification.send()).toBe(200);
    expect((await intent(intentId)).paymentIntentStatus).toBe('SUCCEEDED');
    const events = (await bed.merchant.get(`/event?type=payment_intent.succeeded&limit=100`)).body[0].results as Json[];
    expect(events.filter((e) => e.data.object.paymentIntentId === intentId)).toHaveLength(1);
  });

  it('refuses a forged or foreign notification with a 401 and changes nothing', async () => {
    dl.notifications.mode = 'drop';
    const { intentId, started } = await initialized();
    await dl.decide(started.body.gatewayReferenceId, 'pay');
    const body = { id: started.body.gatewayReferenceId, status: 'PAID' };
    const raw = JSON.stringify(body);
    const genuine = dl.signedHeaders(LOGIN, raw);
    for (const headers of [
      {},
      { ...genuine, authorization: genuine.authorization.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
      dl.signedHeaders('dl-login-other-0002', raw),
      { ...genuine, 'x-date': new Date(Date.now() + 1000).toISOString() },
      { ...genuine, 'x-login': 'dl-login-other-0002' },
      // Signed as dLocal signs, but older than ten minutes, or as far ahead (contract §27): a replay, refused.
      dl.signedHeaders(LOGIN, raw, new Date(Date.now() - 11 * 60_000).toISOString()),
      dl.signedHeaders(LOGIN, raw, new Date(Date.now() + 11 * 60_000).toISOString()),
      dl.signedHeaders(LOGIN, raw, 'not a date'),
    ]) {
      const refused = await notify(body, { 'content-type': 'application/json', ...headers });
      expect(refused.status).toBe(401);
      expect(refused.body.errorId).toBe('Payins:GATEWAY_CALLBACK_REJECTED');
    }
    // Signed for a merchant without an account (the other merchant): refused too.
    expect((await notify(body, genuine, bed.tenant.merchants[1].merchantId)).status).toBe(401);
    expect((await intent(intentId)).paymentIntentStatus).toBe('REQUIRES_ACTION');
    // The genuine one applies (a body that changed would not be signed; the status read is dLocal's own).
    expect((await notify(body, genuine)).body).toEqual({ received: true, result: 'applied' });
    expect((await intent(intentId)).paymentIntentStatus).toBe('SUCCEEDED');
  });

  it("changes nothing when a merchant's notification names another merchant's payment", async () => {
    dl.notifications.mode = 'drop';
    const { intentId, started } = await initialized();
    await dl.decide(started.body.gatewayReferenceId, 'pay');
    // The second merchant connects the same dLocal account (a business with one account for two shops).
    const second = bed.tenant.merchants[1].merchantId;
    const secondAccount = `/merchant/${second}/gateway-account/dlocal`;
    expect(
      (await bed.business.put(secondAccount, { xLogin: LOGIN, xTransKey: TRANS_KEY, secretKey: SECRET_KEY, paymentMethods: ['VISA'] }))
        .status,
    ).toBe(200);
    try {
      const body = { id: started.body.gatewayReferenceId };
      const answer = await notify(body, dl.signedHeaders(LOGIN, JSON.stringify(body)), second);
      expect(answer.body).toEqual({ received: true, result: 'unknown' });
      expect((await intent(intentId)).paymentIntentStatus).toBe('REQUIRES_ACTION');
    } finally {
      await bed.business.delete(secondAccount);
    }
  });

  it('refunds part, then the rest, through dLocal; a refund dLocal rejects releases its amount', async () => {
    const { intentId, started } = await initialized();
    const paymentId = started.body.gatewayReferenceId as string;
    await dl.decide(paymentId, 'pay');
    await eventually(intentId, 'SUCCEEDED');

    const partial = await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 200.25 });
    expect(partial.status).toBe(200);
    expect(partial.body.paymentIntentStatus).toBe('PARTIALLY_REFUNDED');
    const sent = dl.requests.filter((r) => r.method === 'POST' && r.path === '/refunds').at(-1)!;
    const refundRows = (await payinsOf(intentId)).filter((p) => p.transaction_type === 'REFUND');
    expect(JSON.parse(sent.body)).toEqual({
      payment_id: paymentId,
      amount: 200.25,
      currency: 'UYU',
      notification_url: expect.stringMatching(
        new RegExp(`/gateways/dlocal/notifications/${merchantId}\\?refund=${refundRows[0].transaction_id}$`),
      ),
    });
    expect(refundRows[0]).toMatchObject({ status: 'APPROVED', external_id: expect.stringMatching(/^REF-/) });

    dl.refundStatus = 'REJECTED';
    const refused = await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 100 });
    expect(refused.body.paymentIntentStatus).toBe('PARTIALLY_REFUNDED');
    expect((await payinsOf(intentId)).filter((p) => p.transaction_type === 'REFUND').at(-1)!.status).toBe('REJECTED');

    dl.refundStatus = 'SUCCESS';
    const rest = await bed.merchant.post(`/payment-intent/${intentId}/refund`);
    expect(rest.body.paymentIntentStatus).toBe('REFUNDED');
    const payment = dl.payments.get(paymentId)!;
    expect(payment.refunds.filter((r) => r.status === 'SUCCESS').map((r) => r.amount)).toEqual([200.25, 1020.25]);
  });

  it('keeps a pending refund until dLocal’s notification ends it, both ways', async () => {
    const { intentId, started } = await initialized();
    await dl.decide(started.body.gatewayReferenceId, 'pay');
    await eventually(intentId, 'SUCCEEDED');
    dl.refundStatus = 'PENDING';
    expect((await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 20 })).status).toBe(200);
    expect((await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 30 })).status).toBe(200);
    const [first, second] = (await payinsOf(intentId)).filter((p) => p.transaction_type === 'REFUND');
    expect([first.status, second.status]).toEqual(['PENDING', 'PENDING']);
    const paymentRefunds = dl.payments.get(started.body.gatewayReferenceId)!.refunds;
    await dl.settleRefund(paymentRefunds[0].id, 'SUCCESS');
    await dl.settleRefund(paymentRefunds[1].id, 'CANCELLED');
    expect((await payinsOf(intentId)).filter((p) => p.transaction_type === 'REFUND').map((r) => r.status)).toEqual([
      'APPROVED',
      'REJECTED',
    ]);
    // The cancelled refund's 30.00 is refundable again: the rest is 1,200.50.
    dl.refundStatus = 'SUCCESS';
    const rest = await bed.merchant.post(`/payment-intent/${intentId}/refund`);
    expect(rest.body.paymentIntentStatus).toBe('REFUNDED');
    expect(Number((await payinsOf(intentId)).filter((p) => p.transaction_type === 'REFUND').at(-1)!.amount)).toBe(120050);
  });

  it("never refunds twice after a lost answer: asked again, the adapter reads the payment's refunds", async () => {
    const { intentId, started } = await initialized();
    const paymentId = started.body.gatewayReferenceId as string;
    await dl.decide(paymentId, 'pay');
    await eventually(intentId, 'SUCCEEDED');
    // dLocal makes the refund, but answers after our 2 s bound.
    dl.faults.push({ method: 'POST', pathPrefix: '/refunds', answer: 'late', lateMs: 3000, times: 1 });
    const first = await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 300 });
    expect(first.status).toBe(200);
    const [refund] = (await payinsOf(intentId)).filter((p) => p.transaction_type === 'REFUND');
    expect(refund.status).toBe('PENDING'); // its amount stays reserved meanwhile
    for (let i = 0; i < 100 && dl.payments.get(paymentId)!.refunds.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    const posts = () => dl.requests.filter((r) => r.method === 'POST' && r.path === '/refunds').length;
    const sent = posts();
    // Any retry of the same refund (a cut request carried on, a confirmation sent again) asks dLocal, never sends twice.
    const again = await bed.app
      .get(GatewayRegistry)
      .get('DLOCAL')
      .refund({
        refundId: refund.transaction_id,
        merchantId,
        chargeId: (await payinsOf(intentId))[0].transaction_id,
        chargeReference: paymentId,
        merchantName: 'Shop',
        paymentMethod: 'VISA',
        currency: 'UYU' as never,
        amount: 30000,
      });
    expect(again).toMatchObject({ status: 'APPROVED', reference: dl.payments.get(paymentId)!.refunds[0].id });
    expect(posts()).toBe(sent);
    // Reconciliation records it.
    await bed.app.get(RefundsService).reconcileRefund(refund.transaction_id);
    expect((await payinsOf(intentId)).find((p) => p.transaction_id === refund.transaction_id)).toMatchObject({ status: 'APPROVED' });
    expect(dl.payments.get(paymentId)!.refunds.map((r) => r.amount)).toEqual([300]);
    expect(dl.requests.some((r) => r.method === 'GET' && r.path === `/payments/${paymentId}`)).toBe(true);
  });

  it('records a payment whose answer was lost, answers 503, and lets the payer start again at once', async () => {
    dl.faults.push({ method: 'POST', pathPrefix: '/payments', answer: 'late', lateMs: 3000, times: 1 });
    const key = `dl-init-${crypto.randomUUID()}`;
    const { intentId, started, method } = await initialized({ key });
    expect(started.status).toBe(503);
    expect(started.body.errorId).toBe('Payins:GATEWAY_UNREACHABLE');
    const [attempt] = await payinsOf(intentId);
    expect(attempt).toMatchObject({ gateway: 'DLOCAL', status: 'PENDING', external_id: null });
    // The same request again answers the same; no second payment is asked for.
    const retried = await bed.merchant
      .post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: method.countryProcessorId })
      .set('Idempotency-Key', key);
    expect(retried.status).toBe(503);
    // The payer starts again at once: a new order id, the lost attempt replaced.
    const again = await bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: method.countryProcessorId });
    expect(again.status).toBe(200);
    expect((await payinsOf(intentId)).map((r) => r.status)).toEqual(['CANCELLED', 'PENDING']);
    const ordersOfLost = () =>
      dl.requests.filter((r) => r.method === 'POST' && r.path === '/payments' && JSON.parse(r.body).order_id === attempt.transaction_id);
    expect(ordersOfLost()).toHaveLength(1);
    // dLocal made the lost one late; asked by its order, it ends: nobody can reach its page.
    for (let i = 0; i < 50 && ![...dl.payments.values()].some((p) => p.order_id === attempt.transaction_id); i++)
      await new Promise((r) => setTimeout(r, 100));
    const answer = await bed.app.get(GatewayRegistry).get('DLOCAL').lookup(attempt.transaction_id, merchantId);
    expect(answer).toMatchObject({
      status: 'REJECTED',
      reference: expect.stringMatching(/^D-4-/),
      error: expect.stringContaining('never reached'),
    });
  });

  it('knows an order id dLocal already holds (5009) as a lost answer, and tells the payment it names', async () => {
    const gateway = bed.app.get(GatewayRegistry).get('DLOCAL');
    const payinId = crypto.randomUUID();
    const checkout = {
      payinId,
      merchantId,
      title: 'Mesa 9',
      merchantName: 'Shop',
      paymentMethod: 'VISA',
      method: { country: 'URY', instrumentType: 'CREDIT_CARD', paymentMethod: 'VISA' },
      payer: { name: 'Lucía Gómez', email: 'lucia@example.uy', document: '1.234.567-2' },
      currency: 'UYU' as never,
      amount: 1000,
      expiresAt: new Date(Date.now() + 60_000),
    };
    const first = await gateway.openCheckout(checkout);
    const second = await gateway.openCheckout(checkout).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(CheckoutOutcomeUnknownError);
    expect((second as CheckoutOutcomeUnknownError).reference).toBe(first.reference);
  });

  it('refuses a payer without a document dLocal takes, before asking dLocal anything', async () => {
    const passport = await bed.merchant.post('/payer', {
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann@example.com',
      documentType: 'PASSPORT',
      document: 'AB123456',
    });
    const none = await bed.merchant.post('/payer', { firstName: 'Bo', lastName: 'Ruiz', email: 'bo@example.com' });
    const before = dl.requests.length;
    for (const payer of [passport.body.payerId, none.body.payerId]) {
      const { started } = await initialized({ payerId: payer });
      expect(started.status).toBe(400);
      expect(started.body.errorId).toBe('Payins:PAYER_DOCUMENT_REQUIRED');
      expect(started.body.showMessage.EN).toContain('a cédula (CI) or a RUT');
      expect(started.body.showMessage.ES).toContain('una cédula (CI) o un RUT');
    }
    expect(dl.requests.length).toBe(before);
  });

  it('routes each method of a merchant to its own processor: dLocal, Mercado Pago, the sandbox', async () => {
    const mpAccount = `/merchant/${merchantId}/gateway-account/mercado-pago`;
    expect(
      (await bed.business.put(mpAccount, { accessToken: 'TEST-mp-token-for-the-dlocal-shop', webhookSecret: 'mp-secret' })).status,
    ).toBe(200);
    try {
      const gatewayOf = async (method: string, type: string) => {
        const { intentId, started } = await initialized({ method, type });
        expect(started.status).toBe(200);
        return (await payinsOf(intentId))[0].gateway as string;
      };
      expect(await gatewayOf('VISA', 'CREDIT_CARD')).toBe('DLOCAL');
      expect(await gatewayOf('MERCADO_PAGO', 'WALLETS')).toBe('MERCADO_PAGO');
      expect(await gatewayOf('OCA', 'CREDIT_CARD')).toBe('SANDBOX');
    } finally {
      await bed.business.delete(mpAccount);
    }
  });

  it('refuses an off-session charge on a method routed to dLocal with a 400, writing nothing', async () => {
    const instrument = await bed.merchant.post('/payment-instrument', { payerId: bed.payerId, paymentMethodName: 'VISA', country: 'URY' });
    expect(instrument.status).toBe(200);
    const refused = await bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount: 300,
      payinType: 'DEFAULT',
      offSession: true,
      country: 'URY',
      externalReference: 'dl-off-session',
      invoiceNumber: 78,
      payerId: bed.payerId,
      paymentInstrumentId: instrument.body.paymentInstrumentId,
      confirm: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errorId).toBe('Payins:OFF_SESSION_NOT_SUPPORTED');
    expect(refused.body.showMessage.EN).toContain('dLocal');
    expect(await bed.dataSource.query(`SELECT 1 FROM payment_intent WHERE external_reference = 'dl-off-session'`)).toEqual([]);
  });

  it('takes the payer back from dLocal’s POST to the callback_url only with dLocal’s signature, and reads the payment itself', async () => {
    dl.notifications.mode = 'drop';
    const { intentId, started } = await initialized();
    const callback = await dl.decide(started.body.gatewayReferenceId, 'pay');
    const server = bed.app.getHttpServer();
    const path = new URL(callback.url).pathname;
    const forged = await request(server)
      .post(path)
      .type('form')
      .send({ ...callback.fields, status: 'REJECTED' });
    expect(forged.status).toBe(400);
    expect((await intent(intentId)).paymentIntentStatus).toBe('REQUIRES_ACTION');
    const back = await request(server).post(path).type('form').send(callback.fields);
    expect(back.status).toBe(200);
    expect(back.text).toContain('dLocal está procesando su pago');
    // What dLocal said was read from dLocal, not from the form.
    expect((await intent(intentId)).paymentIntentStatus).toBe('SUCCEEDED');
    expect((await request(server).get(`/gateways/dlocal/return/${crypto.randomUUID()}`)).status).toBe(404);
  });

  describe('chargebacks (contract §21)', () => {
    // The business's own dLocal account: its chargebacks move the balance (in the merchant's own, none: docs/money.md).
    beforeAll(async () => {
      const { paymentMethods } = (await bed.business.get(account)).body;
      const platform = await bed.business.put(account, {
        xLogin: LOGIN,
        xTransKey: TRANS_KEY,
        secretKey: SECRET_KEY,
        paymentMethods,
        fundsFlow: 'PLATFORM',
      });
      expect(platform.body.fundsFlow).toBe('PLATFORM');
    });
    const chargebackUrl = () => `${bed.app.get(RuntimeSettings).publicBaseUrl}/gateways/dlocal/notifications/${merchantId}`;
    /** A payment paid at dLocal and its intent. */
    const paid = async () => {
      const { intentId, started } = await initialized();
      await dl.decide(started.body.gatewayReferenceId, 'pay');
      await eventually(intentId, 'SUCCEEDED');
      return { intentId, paymentId: started.body.gatewayReferenceId as string };
    };
    const disputeOf = async (caseId: string, status: string): Promise<Json> => {
      for (let i = 0; i < 100; i++) {
        const found = ((await bed.merchant.get(`/dispute?merchantId=${merchantId}&limit=100`)).body[0].results as Json[]).find(
          (d) => d.processorReference === caseId,
        );
        if (found?.status === status) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the dispute of ${caseId} never became ${status}`);
    };
    /** A dispute's movements by type, with what each nets (a debit drawn partly on the payment's pending net is two rows of one type). */
    const movements = async (disputeId: string): Promise<string[]> =>
      (
        await bed.dataSource.query(
          `SELECT type, sum(net)::float / 100 AS net FROM balance_transaction WHERE source_id = $1 GROUP BY type ORDER BY min(created_at)`,
          [disputeId],
        )
      ).map((r: Json) => `${r.type} ${r.net}`);

    it('opens one dispute from dLocal’s signed chargeback notification, read back from dLocal', async () => {
      const { intentId, paymentId } = await paid();
      dl.notifications.repeat = 3;
      const caseId = await dl.chargeback(paymentId, chargebackUrl());
      const dispute = await disputeOf(caseId, 'NEEDS_RESPONSE');
      expect(dispute).toMatchObject({
        paymentIntentId: intentId,
        amount: 1220.5,
        currency: 'UYU',
        reason: 'GENERAL',
        processor: 'DLOCAL',
        evidenceDueBy: null,
      });
      expect(dl.requests.some((r) => r.method === 'GET' && r.path === `/chargebacks/${caseId}`)).toBe(true);
      expect(await movements(dispute.disputeId)).toEqual(['CHARGEBACK -1220.5']);
      expect((await intent(intentId)).paymentIntentStatus).toBe('SUCCEEDED');
    });

    it('takes evidence but sends merchants to dLocal’s dashboard to submit it, and follows dLocal’s statuses to the decision', async () => {
      const { paymentId } = await paid();
      const won = await dl.chargeback(paymentId, chargebackUrl());
      const { disputeId } = await disputeOf(won, 'NEEDS_RESPONSE');
      const { body, contentType } = multipartBody([{ fileName: 'comprobante.pdf', contentType: 'application/pdf', content: pdfFile() }]);
      expect((await bed.merchant.upload(`/dispute/${disputeId}/evidence`, body, contentType)).status).toBe(200);
      const submitted = await bed.merchant.post(`/dispute/${disputeId}/submit`);
      expect(submitted.status).toBe(409);
      expect(submitted.body.errorId).toBe('Payins:DISPUTE_EVIDENCE_AT_PROCESSOR');
      expect(submitted.body.showMessage.EN).toContain('dLocal takes dispute evidence in its own dashboard');
      expect((await bed.merchant.get(`/dispute/${disputeId}`)).body.status).toBe('NEEDS_RESPONSE');
      // The merchant disputes at dLocal's dashboard: dLocal says so, then decides.
      await dl.chargebackStatus(won, 'DISPUTE_RECEIVED');
      await disputeOf(won, 'UNDER_REVIEW');
      await dl.chargebackStatus(won, 'IN_DISPUTE');
      await dl.chargebackStatus(won, 'REVERSAL');
      await disputeOf(won, 'WON');
      expect(await movements(disputeId)).toEqual(['CHARGEBACK -1220.5', 'CHARGEBACK_REVERSAL 1220.5']);

      const lost = await dl.chargeback((await paid()).paymentId, chargebackUrl(), 'PENDING');
      const second = await disputeOf(lost, 'NEEDS_RESPONSE');
      await dl.chargebackStatus(lost, 'DISPUTE_LOST');
      await disputeOf(lost, 'LOST');
      expect(await movements(second.disputeId)).toEqual(['CHARGEBACK -1220.5']);
    });

    it('opens nothing for a request for information (INQUIRY), nor for another merchant’s payment', async () => {
      const { paymentId } = await paid();
      dl.notifications.mode = 'hold';
      const inquiry = await dl.chargeback(paymentId, chargebackUrl(), 'INQUIRY');
      const [held] = dl.held.splice(0);
      expect(await held.send()).toBe(200);
      expect(((await bed.merchant.get(`/dispute?limit=100`)).body[0].results as Json[]).some((d) => d.processorReference === inquiry)).toBe(
        false,
      );
      // The other merchant's dLocal account names this payment's case: read with its credentials, dLocal does not know it.
      const other = bed.tenant.merchants[1].merchantId;
      const connected = await bed.business.put(`/merchant/${other}/gateway-account/dlocal`, {
        xLogin: 'dl-login-other-0002',
        xTransKey: 'dl-trans-other',
        secretKey: 'dl-secret-other-0002',
        paymentMethods: ['VISA'],
      });
      expect(connected.status).toBe(200);
      const foreign = JSON.stringify({ id: inquiry, payment_id: paymentId, status: 'COMPLETED' });
      const answer = await request(bed.app.getHttpServer())
        .post(`/gateways/dlocal/notifications/${other}`)
        .set(dl.signedHeaders('dl-login-other-0002', foreign))
        .send(foreign);
      expect(answer.body).toEqual({ received: true, result: 'unknown' });
    });
  });

  it('answers hostile notifications and return posts with clear refusals, never a 500', async () => {
    const server = bed.app.getHttpServer();
    const route = `/gateways/dlocal/notifications/${merchantId}`;
    const signed = (raw: string) => dl.signedHeaders(LOGIN, raw);
    const answers = [
      await request(server).post(route).set(signed('null')).send('null'),
      await request(server).post(route).set(signed('{}')).send('{}'),
      await request(server).post('/gateways/dlocal/notifications/not-a-merchant').set(signed('{}')).send('{}'),
      await request(server)
        .post(route)
        .set({ 'content-type': 'application/json', authorization: 'V2-HMAC-SHA256, Signature: <script>', 'x-date': '%00' })
        .send('{}'),
    ];
    for (const answer of answers) {
      expect([200, 400, 401]).toContain(answer.status);
      if (answer.status !== 200) expect(answer.body.errorId).toMatch(/^(Payins:GATEWAY_CALLBACK_REJECTED|Validation:[A-Z_]+)$/);
      else expect(answer.body).toEqual({ received: true, result: expect.stringMatching(/^(ignored|unknown)$/) });
    }
    const odd = JSON.stringify({ id: 'D-4-not-a-payment-of-ours' });
    expect((await request(server).post(route).set(signed(odd)).send(odd)).body).toEqual({ received: true, result: 'unknown' });
    for (const id of ['not-a-uuid', '%2e%2e', 'A'.repeat(300)]) {
      const page = await request(server).post(`/gateways/dlocal/return/${id}`).type('form').send({ paymentId: '<b>', status: 'APPROVED' });
      expect([400, 404]).toContain(page.status);
      expect(page.text).not.toMatch(/Error|stack/);
    }
  });

  it('quotes installments from dLocal’s installments plan for the card (contract §25), within the policy; 503 when dLocal is down', async () => {
    const created = await bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount: 1000,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: 'dl-quote',
      invoiceNumber: 99,
      payerId: bed.payerId,
    });
    const visa = await methodOf(created.body.paymentIntent.paymentIntentId as string, 'VISA', 'CREDIT_CARD');
    expect(
      (
        await bed.business.put(`/merchant/${merchantId}/configuration`, {
          installments: { URY: { maxInstallments: 6, interestFreeUpTo: 0 } },
        })
      ).status,
    ).toBe(200);
    const quote = (query: Record<string, string>) => bed.merchant.get(`/installments?${new URLSearchParams(query).toString()}`);
    const answer = await quote({ countryProcessorId: visa.countryProcessorId as string, bin: '411111', amount: '1000', currency: 'UYU' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { installments: 1, installmentAmount: 1000, totalAmount: 1000, interestFree: true, payerRate: 0, merchantFinancingFee: null },
      { installments: 2, installmentAmount: 550, totalAmount: 1100, interestFree: false, payerRate: 10, merchantFinancingFee: null },
      { installments: 3, installmentAmount: 383.33, totalAmount: 1150, interestFree: false, payerRate: 15, merchantFinancingFee: null },
      { installments: 6, installmentAmount: 213.33, totalAmount: 1280, interestFree: false, payerRate: 28, merchantFinancingFee: null },
    ]);
    const asked = dl.requests.filter((r) => r.path === '/installments-plans');
    expect(asked).toHaveLength(1);
    expect(JSON.parse(asked[0].body)).toEqual({ country: 'UY', bin: '411111', amount: 1000, currency: 'UYU' });
    // dLocal's plan needs the card's first digits: a saved card (no BIN kept) is not quoted.
    const saved = await bed.merchant.post('/payment-instrument', { payerId: bed.payerId, paymentMethodName: 'VISA', country: 'URY' });
    const byCard = await quote({ paymentInstrumentId: saved.body.paymentInstrumentId as string, amount: '1000', currency: 'UYU' });
    expect(byCard.status).toBe(400);
    expect(byCard.body.errorId).toBe('Payins:INSTALLMENTS_NOT_QUOTED');
    dl.faults.push({ method: 'POST', pathPrefix: '/installments-plans', answer: 503, times: 1 });
    const down = await quote({ countryProcessorId: visa.countryProcessorId as string, bin: '411111', amount: '1000', currency: 'UYU' });
    expect(down.status).toBe(503);
    expect(down.body.errorId).toBe('Payins:GATEWAY_UNREACHABLE');
    expect((await bed.business.put(`/merchant/${merchantId}/configuration`, { installments: {} })).status).toBe(200);
  });

  it('pays in installments the payer chose on dLocal’s page, interest-free and with the surcharge: the plan on the payin, the intent and its event; refunds in part and in full (contract §25)', async () => {
    const surcharges = dl.installmentSurcharges;
    // The merchant's promotion at dLocal: 3 installments without surcharge; 6 with the payer's 28 %.
    dl.installmentSurcharges = { 1: 0, 3: 0, 6: 28 };
    try {
      for (const installments of [3, 6]) {
        const { intentId, started } = await initialized();
        const url = started.body.gatewayUrl as string;
        const page = await (await fetch(url)).text();
        expect(page).toContain('name="installments" value="3"');
        expect(page).toContain('6 × UYU 260.37 (UYU 1562.24)');
        // The payer chooses on dLocal's page; dLocal then tells the card and the installments (never the payer's surcharge).
        const chosen = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ outcome: 'pay', installments: String(installments) }).toString(),
        });
        expect(chosen.status).toBe(200);
        const paid = await eventually(intentId, 'SUCCEEDED');
        const plan = { installments, installmentAmount: null, payerTotalAmount: null, financingFeeAmount: 0 };
        expect(paid.installmentPlan).toEqual(plan);
        const [row] = (await bed.merchant.get(`/payin?paymentIntentId=${intentId}`)).body[0].results as Json[];
        // The merchant receives the sale whatever the payer pays dLocal: its fees and net as for one payment.
        expect(row).toMatchObject({
          installments,
          installmentAmount: null,
          payerTotalAmount: null,
          financingFeeAmount: 0,
          receivedAmount: 1220.5,
          netAmount: 1153.64,
        });
        const events = (await bed.merchant.get('/event?type=payment_intent.succeeded&limit=100')).body[0].results as Json[];
        expect(events.filter((e) => e.data.object.paymentIntentId === intentId).map((e) => e.data.object.installmentPlan)).toEqual([plan]);
        // dLocal refunds an installment payment in part and in full: the sale's amount, never the payer's surcharge.
        expect((await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 1562.24 })).status).toBe(400);
        const part = await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 220.5 });
        expect(part.body.paymentIntentStatus).toBe('PARTIALLY_REFUNDED');
        const rest = await bed.merchant.post(`/payment-intent/${intentId}/refund`);
        expect(rest.body.paymentIntentStatus).toBe('REFUNDED');
        const payment = dl.payments.get(started.body.gatewayReferenceId as string)!;
        expect(payment.card).toMatchObject({ installments: String(installments), installments_id: expect.stringMatching(/^INS/) });
        expect(payment.refunds.map((r) => [r.status, r.amount])).toEqual([
          ['SUCCESS', 220.5],
          ['SUCCESS', 1000],
        ]);
      }
      // A count the page's plan does not offer is refused there.
      const { started } = await initialized();
      const refused = await fetch(started.body.gatewayUrl as string, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ outcome: 'pay', installments: '12' }).toString(),
      });
      expect(refused.status).toBe(400);
    } finally {
      dl.installmentSurcharges = surcharges;
    }
  });

  it('counts its requests to dLocal in /metrics by operation and outcome, without tenants or credentials', async () => {
    const text = (await request(bed.app.getHttpServer()).get('/metrics')).text;
    expect(text).toMatch(/pcs_gateway_request_duration_seconds_count\{provider="DLOCAL",operation="create_payment",outcome="ok"\} [1-9]/);
    expect(text).toMatch(
      /pcs_gateway_request_duration_seconds_count\{provider="DLOCAL",operation="create_payment",outcome="timeout"\} [1-9]/,
    );
    expect(text).toMatch(/provider="DLOCAL",operation="create_refund",outcome="ok"/);
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain(merchantId);
  });
});
