import { RuntimeSettings } from '@pcs/config';
import { Currency } from '@pcs/kernel';
import { PricingService } from '@pcs/settlement';
import { clientFor, eventually, MercadoPagoStandIn, SignedClient } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { Testbed, testbed } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const PAYER = { firstName: 'Marta', lastName: 'Suárez', email: 'marta@example.uy' };

/**
 * Disputes cost what they cost (contract §24), in PLATFORM flow: the processor's dispute fee once when a case opens (never
 * given back), a debit capped at what is still collected, a later change of the case's amount booked as its difference once,
 * and a debit drawn on the payment's pending net first.
 */
describe('what a dispute costs: the fee, the cap, amount changes, pending first', () => {
  const mp = new MercadoPagoStandIn();
  let bed: Testbed;
  let client: SignedClient;
  let merchantId: string;
  let payerId: string;

  beforeAll(async () => {
    await mp.start();
    bed = await testbed({
      reachable: true,
      gateway: { processorApis: { MERCADO_PAGO: { url: mp.url, timeoutMs: 4000 } }, reconcileAfterSeconds: 600 },
    });
    merchantId = bed.tenant.merchants[0].merchantId;
    client = clientFor(bed.app, bed.tenant.merchants[0]);
    const token = `TEST-${crypto.randomInt(1e9, 1e10)}-112408-dispute-money`;
    const secret = `mp-secret-${crypto.randomUUID()}`;
    mp.account(token, secret);
    mp.webhook(token, `${bed.app.get(RuntimeSettings).publicBaseUrl}/gateways/mercado-pago/notifications/${merchantId}`);
    expect(
      (
        await client.put(`/merchant/${merchantId}/gateway-account/mercado-pago`, {
          accessToken: token,
          webhookSecret: secret,
          fundsFlow: 'PLATFORM',
        })
      ).status,
    ).toBe(200);
    payerId = (await client.post('/payer', PAYER)).body.payerId as string;
    // What a dispute costs at Mercado Pago in pesos (the operator's catalog): 150.00 UYU.
    await bed.app.get(PricingService).setDisputeFee('MERCADO_PAGO', Currency.UYU, 150);
  });
  afterAll(async () => {
    // The catalog is the worker's database's, shared with the specs that run after this one: back to none.
    await bed.app.get(PricingService).setDisputeFee('MERCADO_PAGO', Currency.UYU, 0);
    await mp.rejectOpen();
    await bed.close();
    await mp.stop();
  });
  afterEach(() => {
    mp.releaseDelayDays = 0;
  });

  const movements = async (sourceId: string): Promise<Json[]> =>
    bed.dataSource.query(
      `SELECT type, amount::float / 100 AS amount, fee::float / 100 AS fee, net::float / 100 AS net, available_on > now() AS pending,
              drawn_from IS NOT NULL AS drawn
         FROM balance_transaction WHERE source_id = $1 ORDER BY created_at, part`,
      [sourceId],
    );
  const disputeOf = async (intentId: string): Promise<Json> =>
    eventually(
      async () =>
        ((await client.get(`/dispute?merchantId=${merchantId}`)).body[0].results as Json[]).find((d) => d.paymentIntentId === intentId),
      (d) => d !== undefined,
    ).then((d) => d!);
  const balance = async () =>
    ((await client.get(`/merchant/${merchantId}/balance`)).body.balances as Json[]).find((b) => b.currency === 'UYU')!;

  const paid = async (amount: number) => {
    const created = await client.post('/payment-intent', {
      currency: 'UYU',
      amount,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: `dispute-${crypto.randomUUID()}`,
      invoiceNumber: 1,
      payerId,
    });
    const intentId = created.body.paymentIntent.paymentIntentId as string;
    const methods = (await client.get(`/payment-intent/${intentId}/payment-methods`)).body.paymentIntentAvailablePaymentMethods as Json[];
    const wallet = methods.find((m) => m.paymentMethod.paymentMethodName === 'MERCADO_PAGO')!;
    const started = await client.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: wallet.countryProcessorId });
    const payment = await mp.decide(started.body.gatewayReferenceId as string, 'approve');
    await eventually(
      async () => (await client.get(`/payment-intent/${intentId}`)).body,
      (i: Json) => i.paymentIntentStatus === 'SUCCEEDED',
    );
    const [charge] = (await client.get(`/payin?paymentIntentId=${intentId}`)).body[0].results as Json[];
    return { intentId, payment, charge };
  };

  it('charges the processor’s dispute fee once when a case opens, and never gives it back', async () => {
    const { intentId, payment } = await paid(1000);
    const chargeback = await mp.chargeback(payment.id);
    const dispute = await disputeOf(intentId);
    // Repeated news of the case changes nothing.
    await mp.notifyChargeback(mp.chargebacks.get(chargeback.id)!);
    expect(await movements(dispute.disputeId as string)).toMatchObject([
      { type: 'DISPUTE_FEE', amount: 0, fee: 150, net: -150 },
      { type: 'CHARGEBACK', amount: -1000, net: -1000 },
    ]);
    await mp.decideChargeback(chargeback.id, true);
    await eventually(
      () => disputeOf(intentId),
      (d) => d.status === 'WON',
    );
    const after = await movements(dispute.disputeId as string);
    expect(after.map((m) => [m.type, m.net])).toEqual([
      ['DISPUTE_FEE', -150],
      ['CHARGEBACK', -1000],
      ['CHARGEBACK_REVERSAL', 1000],
    ]);
  });

  it('caps a dispute’s debit at what is still collected: a partly refunded payment loses only what is left', async () => {
    const { intentId, payment } = await paid(500);
    expect((await client.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 200 })).status).toBe(200);
    await mp.chargeback(payment.id, { amount: 500 });
    const dispute = await disputeOf(intentId);
    expect(dispute.amount).toBe(500);
    expect((await movements(dispute.disputeId as string)).filter((m) => m.type === 'CHARGEBACK').map((m) => m.net)).toEqual([-300]);
  });

  it('books a later change of the case’s amount as its difference, once, and never beyond what was collected', async () => {
    const { intentId, payment } = await paid(410);
    const chargeback = await mp.chargeback(payment.id, { amount: 400 });
    const dispute = await disputeOf(intentId);
    const id = dispute.disputeId as string;
    await mp.changeChargebackAmount(chargeback.id, 300);
    await eventually(
      () => disputeOf(intentId),
      (d) => d.amount === 300,
    );
    await mp.notifyChargeback(mp.chargebacks.get(chargeback.id)!);
    expect((await movements(id)).filter((m) => m.type !== 'DISPUTE_FEE').map((m) => [m.type, m.net])).toEqual([
      ['CHARGEBACK', -400],
      ['CHARGEBACK_REVERSAL', 100],
    ]);
    // More than was collected: the debit stops at 410.
    await mp.changeChargebackAmount(chargeback.id, 450);
    await eventually(
      () => disputeOf(intentId),
      (d) => d.amount === 450,
    );
    const all = (await movements(id)).filter((m) => m.type !== 'DISPUTE_FEE');
    expect(all.map((m) => [m.type, m.net])).toEqual([
      ['CHARGEBACK', -400],
      ['CHARGEBACK_REVERSAL', 100],
      ['CHARGEBACK', -110],
    ]);
    expect(all.reduce((sum, m) => sum + (m.net as number), 0)).toBe(-410);
    const events = ((await client.get(`/event?merchantId=${merchantId}&type=dispute.updated&limit=100`)).body[0].results as Json[]).filter(
      (e) => e.data.object.disputeId === id,
    );
    expect(events.map((e) => e.data.object.amount)).toEqual([450, 300]);
  });

  it('draws a dispute’s debit on its payment’s pending net first: pending until the money is released, nothing of it available', async () => {
    mp.releaseDelayDays = 10;
    const { intentId, payment, charge } = await paid(800);
    const before = await balance();
    expect(charge.liquidationSource).toBe('PROCESSOR');
    const chargeback = await mp.chargeback(payment.id, { amount: 300 });
    const dispute = await disputeOf(intentId);
    const debit = (await movements(dispute.disputeId as string)).filter((m) => m.type === 'CHARGEBACK');
    expect(debit).toMatchObject([{ net: -300, pending: true, drawn: true }]);
    const after = await balance();
    // Available moved only by the fee; the debit waits with the payment's own net.
    expect(Math.round((after.available - before.available) * 100)).toBe(-15_000);
    expect(Math.round((after.pending - before.pending) * 100)).toBe(-30_000);
    // Won before the release: what the dispute drew comes back to pending, not to available.
    await mp.decideChargeback(chargeback.id, true);
    await eventually(
      () => disputeOf(intentId),
      (d) => d.status === 'WON',
    );
    const won = await balance();
    expect(Math.round((won.pending - before.pending) * 100)).toBe(0);
    expect(Math.round((won.available - after.available) * 100)).toBe(0);
  });
});
