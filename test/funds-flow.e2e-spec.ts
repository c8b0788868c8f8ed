import { RuntimeSettings } from '@pcs/config';
import { PricingService } from '@pcs/settlement';
import {
  clientFor,
  DLocalStandIn,
  eventually,
  fitsWidth,
  launchChromium,
  MercadoPagoStandIn,
  screenshot,
  SignedClient,
} from '@pcs/testing';
import * as crypto from 'node:crypto';
import request from 'supertest';
import { codeFor, listeningDashboard, readyPerson } from './dashboard-people';
import { Testbed, testbed } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const PAYER = { firstName: 'Lucía', lastName: 'Gómez', email: 'lucia@example.uy' };

/**
 * Where the money really is (contract §23), over signed HTTP against the
 * Mercado Pago and dLocal stand-ins: a payment collected into a merchant's
 * own account (MERCHANT flow) moves only the fee it owes; one collected into
 * the business's (PLATFORM) is held and paid out, available when the
 * processor releases it; what happens at the processor (refunds made in its
 * panel, chargebacks, claims) reaches the intent, the ledger and the
 * balance, once.
 */
describe('funds flow (contract §23)', () => {
  let bed: Testbed;
  const mp = new MercadoPagoStandIn();
  const dl = new DLocalStandIn();
  let brou: string;

  /** One merchant of the tenant with its own Mercado Pago account (and a payer, a UYU settlement account, OCA at once). */
  interface Shop {
    readonly merchantId: string;
    readonly client: SignedClient;
    readonly payerId: string;
    readonly token: string;
    readonly secret: string;
  }
  const shops: Shop[] = [];

  beforeAll(async () => {
    await mp.start();
    await dl.start();
    bed = await testbed({
      merchants: 3,
      reachable: true,
      gateway: {
        processorApis: { MERCADO_PAGO: { url: mp.url, timeoutMs: 4000 }, DLOCAL: { url: dl.url, timeoutMs: 4000 } },
        // Settled by the news the tests send, never by another suite's sweep.
        reconcileAfterSeconds: 600,
      },
    });
    brou = ((await bed.business.get('/bank?country=URY')).body as Json[]).find((b) => b.code === '001')!.bankId as string;
    for (const [index, merchant] of bed.tenant.merchants.entries()) {
      const client = clientFor(bed.app, merchant);
      const token = `TEST-${index}${crypto.randomInt(1e9, 1e10)}-112408-funds-flow-${index}`;
      const secret = `mp-secret-${index}-${crypto.randomUUID()}`;
      mp.account(token, secret);
      mp.webhook(token, `${bed.app.get(RuntimeSettings).publicBaseUrl}/gateways/mercado-pago/notifications/${merchant.merchantId}`);
      const payerId = (await client.post('/payer', PAYER)).body.payerId as string;
      const relationships = (await client.get(`/merchant-country-processor?merchantId=${merchant.merchantId}`)).body as Json[];
      const oca = relationships.find((r) => r.countryProcessor.paymentMethod.paymentMethodName === 'OCA')!;
      await bed.app
        .get(PricingService)
        .set(merchant.merchantId, oca.merchantCountryProcessorId as string, { percentage: 3, settlementDelayDays: 0 });
      const account = await client.put(`/merchant/${merchant.merchantId}/settlement-account/UYU`, {
        bankId: brou,
        accountNumber: `0012345670000${index}`,
        accountType: 'SAVINGS',
      });
      expect(account.status).toBe(200);
      shops.push({ merchantId: merchant.merchantId, client, payerId, token, secret });
    }
  });
  afterAll(async () => {
    await mp.rejectOpen();
    await dl.rejectOpen();
    await bed.close();
    await mp.stop();
    await dl.stop();
  });
  afterEach(() => {
    mp.releaseDelayDays = 0;
  });
  /** Payments the dashboard's test shows: one collected into the merchant's own account, one refunded in Mercado Pago's panel. */
  const shown: { merchantFlow?: string; panelRefunded?: string } = {};

  const connect = async (shop: Shop, fundsFlow?: 'PLATFORM' | 'MERCHANT') => {
    const connected = await shop.client.put(`/merchant/${shop.merchantId}/gateway-account/mercado-pago`, {
      accessToken: shop.token,
      webhookSecret: shop.secret,
      ...(fundsFlow ? { fundsFlow } : {}),
    });
    expect(connected.status).toBe(200);
    return connected.body as Json;
  };
  const intent = async (shop: Shop, id: string) => (await shop.client.get(`/payment-intent/${id}`)).body as Json;
  const untilStatus = (shop: Shop, id: string, status: string) =>
    eventually(
      () => intent(shop, id),
      (i) => i.paymentIntentStatus === status,
    );
  const rows = async (shop: Shop, intentId: string): Promise<Json[]> =>
    (await shop.client.get(`/payin?paymentIntentId=${intentId}&limit=100`)).body[0].results as Json[];
  const movementsOf = async (sourceId: string): Promise<Json[]> =>
    bed.dataSource.query(
      `SELECT type, amount, fee, net, available_on, payout_id FROM balance_transaction WHERE source_id = $1 ORDER BY created_at`,
      [sourceId],
    );
  const balance = async (shop: Shop) =>
    ((await shop.client.get(`/merchant/${shop.merchantId}/balance`)).body.balances as Json[]).find((b) => b.currency === 'UYU')!;

  /** A payment of `amount` UYU approved at Mercado Pago with the MERCADO_PAGO method. */
  const paidAtMercadoPago = async (shop: Shop, amount: number) => {
    const created = await shop.client.post('/payment-intent', {
      currency: 'UYU',
      amount,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: `flow-${crypto.randomUUID()}`,
      description: 'Mesa 4',
      invoiceNumber: 1,
      payerId: shop.payerId,
    });
    expect(created.status).toBe(200);
    const intentId = created.body.paymentIntent.paymentIntentId as string;
    const methods = (await shop.client.get(`/payment-intent/${intentId}/payment-methods`)).body
      .paymentIntentAvailablePaymentMethods as Json[];
    const wallet = methods.find((m) => m.paymentMethod.paymentMethodName === 'MERCADO_PAGO')!;
    const started = await shop.client.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: wallet.countryProcessorId });
    expect(started.status).toBe(200);
    const payment = await mp.decide(started.body.gatewayReferenceId, 'approve');
    expect((await untilStatus(shop, intentId, 'SUCCEEDED')).paymentIntentStatus).toBe('SUCCEEDED');
    const [charge] = await rows(shop, intentId);
    return { intentId, payment, charge, preferenceId: started.body.gatewayReferenceId as string };
  };
  /** A payment of `amount` UYU charged off-session in the sandbox (OCA, available at once). */
  const paidInSandbox = async (shop: Shop, amount: number) => {
    const created = await shop.client.post('/payment-intent', {
      currency: 'UYU',
      amount,
      payinType: 'DEFAULT',
      externalReference: `sandbox-${crypto.randomUUID()}`,
      payerId: shop.payerId,
      offSession: true,
      invoiceNumber: 1,
      country: 'URY',
      paymentInstrumentData: { paymentMethodName: 'OCA' },
      confirm: true,
    });
    expect(created.body.status).toBe('SUCCEEDED');
    const intentId = created.body.paymentIntent.paymentIntentId as string;
    return { intentId, charge: (await rows(shop, intentId))[0] };
  };

  it('collects into the merchant’s own account: only the fee it owes moves, and the next payout nets it (the worked example of docs/money.md)', async () => {
    const shop = shops[0];
    expect((await connect(shop)).fundsFlow).toBe('MERCHANT');
    const { intentId, charge, payment } = await paidAtMercadoPago(shop, 1220.5);
    // Mercado Pago's wallet in Uruguay: 5.99 % and 22 % VAT on it; Mercado Pago pays the merchant, the merchant owes us 89.19.
    expect(charge).toMatchObject({
      fundsFlow: 'MERCHANT',
      status: 'APPROVED',
      receivedAmount: 1220.5,
      feeAmount: 73.11,
      feeTaxAmount: 16.08,
      netAmount: 1131.31,
      liquidationSource: 'PROCESSOR',
      liquidationDate: payment.money_release_date,
      origin: null,
    });
    expect(await movementsOf(charge.transactionId)).toEqual([
      expect.objectContaining({ type: 'FEE', amount: '0', fee: '8919', net: '-8919', payout_id: null }),
    ]);
    // A sandbox payment of 1,000.00 UYU (OCA, 3 % + 22 % VAT, available at once) is the business's money: 963.40 to pay out.
    const sandbox = await paidInSandbox(shop, 1000);
    expect(sandbox.charge).toMatchObject({ fundsFlow: 'PLATFORM', netAmount: 963.4, liquidationSource: 'CALENDAR' });
    expect(await balance(shop)).toMatchObject({ available: 874.21, pending: 0 });
    const payout = await shop.client.post(`/merchant/${shop.merchantId}/payout`, { currency: 'UYU' });
    expect(payout.status).toBe(200);
    // Nothing of the 1,220.50 Mercado Pago paid the merchant: 963.40 − 89.19.
    expect(payout.body.amount).toBe(874.21);
    expect((await movementsOf(charge.transactionId))[0].payout_id).toBe(payout.body.payoutId);
    expect((await rows(shop, intentId))[0].payoutRequestId).toBe(payout.body.payoutId);

    // Its refund and its chargeback are the merchant's account's business: no balance money moves.
    const refunded = await shop.client.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 200 });
    expect(refunded.body.paymentIntentStatus).toBe('PARTIALLY_REFUNDED');
    const refund = (await rows(shop, intentId)).find((r) => r.transactionType === 'REFUND')!;
    expect(refund).toMatchObject({ status: 'APPROVED', fundsFlow: 'MERCHANT', origin: 'API' });
    expect(await movementsOf(refund.transactionId)).toEqual([]);
    const chargeback = await mp.chargeback(payment.id, { amount: 1020.5 });
    const dispute = await eventually(
      async () =>
        ((await shop.client.get(`/dispute?merchantId=${shop.merchantId}`)).body[0].results as Json[]).find(
          (d) => d.processorReference === chargeback.id,
        ),
      (d) => d !== undefined,
    );
    expect(dispute).toMatchObject({ status: 'NEEDS_RESPONSE', amount: 1020.5 });
    expect(await movementsOf(dispute!.disputeId)).toEqual([]);
    expect(await balance(shop)).toMatchObject({ available: 0, pending: 0 });
    shown.merchantFlow = intentId;
  });

  it('holds the business’s own account’s money until Mercado Pago releases it (money_release_date), and says so', async () => {
    const shop = shops[1];
    expect((await connect(shop, 'PLATFORM')).fundsFlow).toBe('PLATFORM');
    mp.releaseDelayDays = 14;
    const { charge, payment } = await paidAtMercadoPago(shop, 1220.5);
    expect(new Date(payment.money_release_date!).getTime() - new Date(payment.date_approved!).getTime()).toBe(14 * 86_400_000);
    expect(charge).toMatchObject({
      fundsFlow: 'PLATFORM',
      liquidationSource: 'PROCESSOR',
      liquidationDate: payment.money_release_date,
      netAmount: 1131.31,
    });
    const [movement] = await movementsOf(charge.transactionId);
    expect(movement).toMatchObject({ type: 'PAYIN', amount: '122050', fee: '8919', net: '113131' });
    expect(new Date(movement.available_on).toISOString()).toBe(payment.money_release_date);
    const shown = await balance(shop);
    expect(shown.pending).toBeGreaterThanOrEqual(1131.31);
    expect(shown.upcoming).toContainEqual({ availableOn: payment.money_release_date, amount: 1131.31 });
    // Nothing of it is paid out before then.
    const payout = await shop.client.post(`/merchant/${shop.merchantId}/payout`, { currency: 'UYU' });
    expect(payout.body.payoutId === undefined || payout.body.amount < 1131.31).toBe(true);
    expect((await movementsOf(charge.transactionId))[0].payout_id).toBeNull();
  });

  it('records a refund made in Mercado Pago’s panel as a refund of the intent, once, and debits the business’s balance', async () => {
    const shop = shops[1];
    await connect(shop, 'PLATFORM');
    const { intentId, payment } = await paidAtMercadoPago(shop, 500);
    mp.notifications = { mode: 'hold', delayMs: 0, repeat: 1 };
    const partial = await mp.refundAtProcessor(payment.id, 120.5);
    const rest = await mp.refundAtProcessor(payment.id);
    const [afterPartial, afterRest] = mp.held.splice(0);
    mp.notifications = { mode: 'send', delayMs: 0, repeat: 1 };
    // Reordered and repeated: each notification reads the payment as it is now (both refunds listed).
    for (const notification of [afterRest, afterPartial, afterRest]) expect(await notification.send()).toBe(200);
    const refunded = await untilStatus(shop, intentId, 'REFUNDED');
    expect(refunded).toMatchObject({ paymentIntentStatus: 'REFUNDED', receivedAmount: 500 });
    const refunds = (await rows(shop, intentId)).filter((r) => r.transactionType === 'REFUND');
    expect(refunds.map((r) => [r.amount, r.origin, r.status, r.externalId, r.fundsFlow]).sort()).toEqual(
      [
        [120.5, 'PROCESSOR', 'APPROVED', String(partial.id), 'PLATFORM'],
        [379.5, 'PROCESSOR', 'APPROVED', String(rest.id), 'PLATFORM'],
      ].sort(),
    );
    for (const refund of refunds)
      expect(await movementsOf(refund.transactionId)).toEqual([
        expect.objectContaining({ type: 'REFUND', net: String(-refund.amount * 100) }),
      ]);
    const events = (await shop.client.get('/event?type=refund.succeeded&limit=100')).body[0].results as Json[];
    expect(events.filter((e) => e.data.object.paymentIntentId === intentId)).toHaveLength(2);
    shown.panelRefunded = intentId;
    // Nothing is left to refund through the API.
    const again = await shop.client.post(`/payment-intent/${intentId}/refund`);
    expect(again.status).toBe(409);
    expect(again.body.errorId).toBe('Payins:PAYMENT_INTENT_INVALID_STATE');
  });

  it('still records a panel refund beyond what our records allow, and reports it once (PROCESSOR_OVER_REFUND)', async () => {
    const shop = shops[1];
    await connect(shop, 'PLATFORM');
    const { intentId, payment } = await paidAtMercadoPago(shop, 300);
    // The merchant recorded a manual refund of 200 it has not confirmed: 100 is left refundable here.
    expect(
      (await shop.client.post(`/payment-intent/${intentId}/manual-refund`, { status: 'MANUAL_REFUND_PENDING', requestedRefundAmount: 200 }))
        .status,
    ).toBe(200);
    const made = await mp.refundAtProcessor(payment.id, 150);
    const recorded = await eventually(
      async () => (await rows(shop, intentId)).find((r) => r.origin === 'PROCESSOR'),
      (r) => r !== undefined,
    );
    expect(recorded).toMatchObject({ amount: 150, status: 'APPROVED', externalId: String(made.id) });
    expect((await intent(shop, intentId)).paymentIntentStatus).toBe('REFUNDED');
    await mp.notify(payment);
    const discrepancies = ((await shop.client.get('/event?type=reconciliation.discrepancy&limit=100')).body[0].results as Json[]).filter(
      (e) => e.data.object.externalId === String(made.id),
    );
    expect(discrepancies).toHaveLength(1);
    expect(discrepancies[0].data.object).toMatchObject({
      runId: null,
      provider: 'MERCADO_PAGO',
      kind: 'PROCESSOR_OVER_REFUND',
      ours: { amount: -100 },
      theirs: { externalId: String(made.id), amount: -150 },
    });
  });

  it('reports a panel refund of a payment never collected here as a discrepancy, and refunds nothing', async () => {
    const shop = shops[1];
    await connect(shop, 'PLATFORM');
    const created = await shop.client.post('/payment-intent', {
      currency: 'UYU',
      amount: 80,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: `late-${crypto.randomUUID()}`,
      invoiceNumber: 1,
      payerId: shop.payerId,
    });
    const intentId = created.body.paymentIntent.paymentIntentId as string;
    const methods = (await shop.client.get(`/payment-intent/${intentId}/payment-methods`)).body
      .paymentIntentAvailablePaymentMethods as Json[];
    const wallet = methods.find((m) => m.paymentMethod.paymentMethodName === 'MERCADO_PAGO')!;
    const started = await shop.client.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: wallet.countryProcessorId });
    // The payer starts again (the first attempt is canceled here), then pays at the first preference, still open at Mercado Pago.
    expect(
      (await shop.client.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: wallet.countryProcessorId })).status,
    ).toBe(200);
    const payment = await mp.decide(started.body.gatewayReferenceId, 'approve');
    const made = await mp.refundAtProcessor(payment.id);
    const event = await eventually(
      async () =>
        ((await shop.client.get('/event?type=reconciliation.discrepancy&limit=100')).body[0].results as Json[]).find(
          (e) => e.data.object.externalId === String(made.id),
        ),
      (e) => e !== undefined,
    );
    expect(event!.data.object).toMatchObject({ kind: 'PROCESSOR_OVER_REFUND', ours: { amount: 0 }, theirs: { amount: -80 } });
    expect((await intent(shop, intentId)).paymentIntentStatus).toBe('REQUIRES_ACTION');
    expect((await rows(shop, intentId)).filter((r) => r.transactionType === 'REFUND')).toEqual([]);
  });

  it('opens a dispute from a charged-back payment’s own notification (the case read by the payment’s id), once with the case’s', async () => {
    const shop = shops[2];
    await connect(shop, 'PLATFORM');
    const { intentId, payment, charge } = await paidAtMercadoPago(shop, 410);
    const chargeback = await mp.chargeback(payment.id);
    expect(mp.requests.some((r) => r.method === 'GET' && r.path === `/v1/chargebacks/${payment.id}`)).toBe(true);
    const disputes = ((await shop.client.get(`/dispute?merchantId=${shop.merchantId}`)).body[0].results as Json[]).filter(
      (d) => d.paymentIntentId === intentId,
    );
    expect(disputes).toHaveLength(1);
    expect(disputes[0]).toMatchObject({ processorReference: chargeback.id, amount: 410, status: 'NEEDS_RESPONSE' });
    expect((await movementsOf(disputes[0].disputeId)).map((m) => m.type)).toEqual(['CHARGEBACK']);
    // Charged back is never approved: the collection stays what it was, once.
    expect((await rows(shop, intentId)).find((r) => r.transactionId === charge.transactionId)!.status).toBe('APPROVED');
    expect((await intent(shop, intentId)).paymentIntentStatus).toBe('SUCCEEDED');
  });

  it('holds a claim’s money while Mercado Pago mediates; a claim lost to a refund is taken once, a claim won comes back', async () => {
    const shop = shops[2];
    await connect(shop, 'PLATFORM');
    const lost = await paidAtMercadoPago(shop, 250);
    await mp.mediate(lost.payment.id);
    const claim = await eventually(
      async () =>
        ((await shop.client.get(`/dispute?merchantId=${shop.merchantId}`)).body[0].results as Json[]).find(
          (d) => d.paymentIntentId === lost.intentId,
        ),
      (d) => d !== undefined,
    );
    expect(claim).toMatchObject({ processorReference: `mediation-${lost.payment.id}`, status: 'NEEDS_RESPONSE', amount: 250 });
    expect((await movementsOf(claim!.disputeId)).map((m) => m.net)).toEqual(['-25000']);
    await mp.resolveMediation(lost.payment.id, 'buyer');
    const refunded = await untilStatus(shop, lost.intentId, 'REFUNDED');
    expect(refunded.disputes).toEqual([{ disputeId: claim!.disputeId, status: 'LOST', amount: 250 }]);
    const refund = (await rows(shop, lost.intentId)).find((r) => r.transactionType === 'REFUND')!;
    expect(refund).toMatchObject({ origin: 'PROCESSOR', amount: 250 });
    // The claim took the money; the refund that ended it takes nothing more.
    expect(await movementsOf(refund.transactionId)).toEqual([]);
    expect((await movementsOf(claim!.disputeId)).map((m) => m.type)).toEqual(['CHARGEBACK']);

    const won = await paidAtMercadoPago(shop, 260);
    await mp.mediate(won.payment.id);
    await mp.resolveMediation(won.payment.id, 'seller');
    const released = await eventually(
      async () =>
        ((await shop.client.get(`/dispute?merchantId=${shop.merchantId}`)).body[0].results as Json[]).find(
          (d) => d.paymentIntentId === won.intentId,
        ),
      (d) => d?.status === 'WON',
    );
    expect((await movementsOf(released!.disputeId)).map((m) => m.type)).toEqual(['CHARGEBACK', 'CHARGEBACK_REVERSAL']);
    expect((await intent(shop, won.intentId)).paymentIntentStatus).toBe('SUCCEEDED');
  });

  it('changes nothing when a merchant’s notification names another merchant’s payment', async () => {
    const [mine, other] = [shops[1], shops[2]];
    await connect(mine, 'PLATFORM');
    await connect(other, 'PLATFORM');
    const { intentId, payment } = await paidAtMercadoPago(mine, 90);
    mp.notifications = { mode: 'drop', delayMs: 0, repeat: 1 };
    await mp.refundAtProcessor(payment.id, 10);
    mp.notifications = { mode: 'send', delayMs: 0, repeat: 1 };
    const answer = await request(bed.app.getHttpServer())
      .post(`/gateways/mercado-pago/notifications/${other.merchantId}?data.id=${payment.id}&type=payment`)
      .set(mp.signedHeaders(other.secret, String(payment.id)))
      .send({ type: 'payment', data: { id: String(payment.id) } });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toBe('unknown');
    expect((await intent(mine, intentId)).paymentIntentStatus).toBe('SUCCEEDED');
  });

  it('records a refund made in dLocal’s dashboard, in the merchant’s own account’s flow: no balance money moves', async () => {
    const shop = shops[0];
    const LOGIN = `flow-login-${crypto.randomUUID()}`;
    dl.merchant(LOGIN, 'flow-trans-key-0001', 'flow-secret-key-0001');
    const connected = await shop.client.put(`/merchant/${shop.merchantId}/gateway-account/dlocal`, {
      xLogin: LOGIN,
      xTransKey: 'flow-trans-key-0001',
      secretKey: 'flow-secret-key-0001',
      paymentMethods: ['VISA'],
    });
    expect(connected.body.fundsFlow).toBe('MERCHANT');
    const payer = await shop.client.post('/payer', { ...PAYER, documentType: 'IDENTITY_DOCUMENT', document: '1.234.567-2' });
    const created = await shop.client.post('/payment-intent', {
      currency: 'UYU',
      amount: 640,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: `dl-${crypto.randomUUID()}`,
      invoiceNumber: 1,
      payerId: payer.body.payerId,
    });
    const intentId = created.body.paymentIntent.paymentIntentId as string;
    const methods = (await shop.client.get(`/payment-intent/${intentId}/payment-methods`)).body
      .paymentIntentAvailablePaymentMethods as Json[];
    const visa = methods.find(
      (m) => m.paymentMethod.paymentMethodName === 'VISA' && m.paymentInstrumentType.paymentInstrumentTypeName === 'CREDIT_CARD',
    )!;
    const started = await shop.client.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: visa.countryProcessorId });
    expect(started.status).toBe(200);
    await dl.decide(started.body.gatewayReferenceId, 'pay');
    const [charge] = (await untilStatus(shop, intentId, 'SUCCEEDED')) && (await rows(shop, intentId));
    expect(charge).toMatchObject({ fundsFlow: 'MERCHANT', liquidationSource: 'CALENDAR' });
    expect((await movementsOf(charge.transactionId)).map((m) => m.type)).toEqual(['FEE']);
    const dashboardRefund = await dl.refundAtProcessor(started.body.gatewayReferenceId, 40);
    const partly = await untilStatus(shop, intentId, 'PARTIALLY_REFUNDED');
    expect(partly.paymentIntentStatus).toBe('PARTIALLY_REFUNDED');
    const refund = (await rows(shop, intentId)).find((r) => r.transactionType === 'REFUND')!;
    expect(refund).toMatchObject({ origin: 'PROCESSOR', amount: 40, externalId: dashboardRefund, fundsFlow: 'MERCHANT' });
    expect(await movementsOf(refund.transactionId)).toEqual([]);
    await shop.client.delete(`/merchant/${shop.merchantId}/gateway-account/dlocal`);
  });

  it('keeps a payin’s flow as it was approved when the account’s flow changes later', async () => {
    const shop = shops[2];
    await connect(shop, 'MERCHANT');
    const before = await paidAtMercadoPago(shop, 70);
    await connect(shop, 'PLATFORM');
    const after = await paidAtMercadoPago(shop, 71);
    expect((await rows(shop, before.intentId))[0].fundsFlow).toBe('MERCHANT');
    expect((await rows(shop, after.intentId))[0].fundsFlow).toBe('PLATFORM');
    expect((await movementsOf(before.charge.transactionId)).map((m) => m.type)).toEqual(['FEE']);
    expect((await movementsOf(after.charge.transactionId)).map((m) => m.type)).toEqual(['PAYIN']);
  });

  it('shows on the dashboard’s payment page whose account collected it and the refunds made at the processor, and records its own refunds as the dashboard’s, on a phone', async () => {
    const { dashboard, base, identity } = await listeningDashboard(bed);
    const browser = await launchChromium();
    try {
      const operator = await readyPerson(identity, { businessId: bed.tenant.business.businessId, merchantId: null, role: 'operator' });
      const page = await (await browser.newContext({ locale: 'es-UY', viewport: { width: 390, height: 844 } })).newPage();
      await page.goto(`${base}/sign-in`);
      await page.fill('#email', operator.email);
      await page.fill('#password', operator.password);
      await page.click('button[type=submit]');
      await page.waitForURL(/\/sign-in\/code/);
      await page.fill('#code', await codeFor(operator));
      await page.click('#verify');
      await page.waitForURL(`${base}/overview`);

      await page.goto(`${base}/payments/${shown.panelRefunded}`);
      expect(await page.getAttribute('#funds-flow', 'data-flow')).toBe('PLATFORM');
      expect(await page.textContent('#funds-flow')).toContain('Cuenta de la plataforma');
      const processorRows = page.locator('#rows tr[data-origin="PROCESSOR"]');
      expect(await processorRows.count()).toBe(2);
      expect(await processorRows.first().locator('[data-field="origin"]').textContent()).toBe('En el procesador');
      expect(await page.textContent('#rows')).toContain('fecha del procesador');
      expect(await fitsWidth(page, '#funds-flow')).toEqual({ pageFits: true, elementFits: true });
      await screenshot(page, 'dashboard-payment-processor-refunds-phone');

      await page.goto(`${base}/payments/${shown.merchantFlow}`);
      expect(await page.getAttribute('#funds-flow', 'data-flow')).toBe('MERCHANT');
      expect(await page.textContent('#funds-flow')).toContain('Cuenta propia del comercio');

      // A refund from the dashboard is the dashboard's, in the ledger and on the page.
      const { intentId } = await paidInSandbox(shops[0], 150);
      await page.goto(`${base}/payments/${intentId}`);
      await page.fill('#amount', '25');
      await page.click('#refund');
      await page.click('#confirm');
      await page.waitForURL(/done=refund/);
      const refund = (await rows(shops[0], intentId)).find((r) => r.transactionType === 'REFUND')!;
      expect(refund).toMatchObject({ origin: 'DASHBOARD', amount: 25, fundsFlow: 'PLATFORM' });
      expect(await page.locator('#rows [data-field="origin"]').allTextContents()).toEqual(expect.arrayContaining(['Panel']));
      await page.context().close();

      const english = await (await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } })).newPage();
      await english.goto(`${base}/sign-in`);
      await english.fill('#email', operator.email);
      await english.fill('#password', operator.password);
      await english.click('button[type=submit]');
      await english.waitForURL(/\/sign-in\/code/);
      await english.fill('#code', await codeFor(operator));
      await english.click('#verify');
      await english.waitForURL(`${base}/overview`);
      await english.goto(`${base}/payments/${shown.merchantFlow}`);
      expect(await english.textContent('#funds-flow')).toContain('The merchant’s own account');
      expect(await english.locator('#rows [data-field="origin"]').allTextContents()).toEqual(expect.arrayContaining(['API']));
      await english.context().close();
    } finally {
      await browser.close();
      await dashboard.close();
    }
  }, 120_000);
});
