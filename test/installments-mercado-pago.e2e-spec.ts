import { clientFor, eventually, MercadoPagoStandIn, SignedClient } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { Testbed, testbed } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * The worked example of docs/money.md, "Installments" (contract §25), end to end over signed HTTP
 * against the Mercado Pago stand-in: an ARS 120,000.00 sale in Argentina, collected into the
 * platform's Mercado Pago account, paid in 6 interest-free installments (the merchant pays the
 * financing fee, which lowers its net) and in 12 installments with interest (the payer pays more; the
 * merchant receives the sale). Every figure of the example is checked here.
 */
describe('installments at Mercado Pago, the worked example (contract §25)', () => {
  const mp = new MercadoPagoStandIn();
  let bed: Testbed;
  let client: SignedClient;
  let merchantId: string;
  let payerId: string;

  beforeAll(async () => {
    await mp.start();
    bed = await testbed({
      country: 'ARG',
      reachable: true,
      gateway: { processorApis: { MERCADO_PAGO: { url: mp.url, timeoutMs: 4000 } }, reconcileAfterSeconds: 600 },
    });
    merchantId = bed.tenant.merchants[0].merchantId;
    client = clientFor(bed.app, bed.tenant.merchants[0]);
    const token = `TEST-${crypto.randomInt(1e9, 1e10)}-112408-cuotas`;
    const secret = `mp-secret-${crypto.randomUUID()}`;
    mp.account(token, secret);
    expect(
      (
        await client.put(`/merchant/${merchantId}/gateway-account/mercado-pago`, {
          accessToken: token,
          webhookSecret: secret,
          fundsFlow: 'PLATFORM',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await bed.business.put(`/merchant/${merchantId}/configuration`, {
          installments: { ARG: { maxInstallments: 12, interestFreeUpTo: 6 } },
        })
      ).status,
    ).toBe(200);
    // The merchant's promotion at Mercado Pago: up to 6 interest-free installments, at 12.5 % for 6.
    mp.interestFreeUpTo = 6;
    mp.financingRates = { 3: 7.5, 6: 12.5 };
    mp.installmentRates = { 1: 0, 3: 0, 6: 0, 9: 52.67, 12: 69.86 };
    payerId = (await client.post('/payer', { firstName: 'Martina', lastName: 'Sosa', email: 'martina@example.com.ar' })).body
      .payerId as string;
  });
  afterAll(async () => {
    await mp.rejectOpen();
    await bed.close();
    await mp.stop();
  });

  /** ARS 120,000.00 paid at Checkout Pro in `installments`: the preference it was offered, the payin and its balance movement. */
  const paidIn = async (installments: number) => {
    const created = await client.post('/payment-intent', {
      currency: 'ARS',
      amount: 120000,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'ARG',
      externalReference: `cuotas-${crypto.randomUUID()}`,
      invoiceNumber: installments,
      payerId,
    });
    expect(created.status).toBe(200);
    const intentId = created.body.paymentIntent.paymentIntentId as string;
    const methods = (await client.get(`/payment-intent/${intentId}/payment-methods`)).body.paymentIntentAvailablePaymentMethods as Json[];
    const wallet = methods.find((m) => m.paymentMethod.paymentMethodName === 'MERCADO_PAGO')!;
    const started = await client.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: wallet.countryProcessorId });
    expect(started.status).toBe(200);
    const preference = mp.preferences.get(started.body.gatewayReferenceId as string)!;
    const page = await fetch(started.body.gatewayUrl as string);
    expect(await page.text()).toContain('name="installments"');
    const paid = await fetch(started.body.gatewayUrl as string, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ outcome: 'approve', installments: String(installments) }).toString(),
      redirect: 'manual',
    });
    expect([200, 303]).toContain(paid.status);
    await eventually(
      async () => (await client.get(`/payment-intent/${intentId}`)).body,
      (i: Json) => i.paymentIntentStatus === 'SUCCEEDED',
    );
    const [charge] = (await client.get(`/payin?paymentIntentId=${intentId}`)).body[0].results as Json[];
    const movement = ((await client.get(`/balance-transaction?merchantId=${merchantId}&type=PAYIN`)).body[0].results as Json[]).find(
      (t) => t.sourceId === charge.transactionId,
    )!;
    return { preference, charge, movement };
  };

  it('offers Checkout Pro the merchant’s policy: the most installments, and its interest-free ones preselected', async () => {
    const { preference } = await paidIn(6);
    expect(preference.body.payment_methods).toEqual({ installments: 12, default_installments: 6 });
  });

  it('6 interest-free installments: the payer pays 6 × 20,000.00; the merchant’s net is lowered by the 15,000.00 financing fee', async () => {
    const { charge, movement } = await paidIn(6);
    expect(charge).toMatchObject({
      installments: 6,
      installmentAmount: 20000,
      payerTotalAmount: 120000,
      receivedAmount: 120000,
      financingFeeAmount: 15000,
      processorFeeAmount: 4788,
      fundsFlow: 'PLATFORM',
    });
    expect(charge.netAmount).toBeCloseTo(120000 - charge.feeAmount - charge.feeTaxAmount - 15000, 2);
    expect(movement).toMatchObject({ amount: 120000, financingFee: 15000, net: charge.netAmount });
    process.stdout.write(
      `[worked example] 6 interest-free: fee ${charge.feeAmount} + tax ${charge.feeTaxAmount}, net ${charge.netAmount}\n`,
    );
  });

  it('12 installments with interest: the payer pays 12 × 16,986.00 (203,832.00); the merchant receives the sale, no financing fee', async () => {
    const { charge, movement } = await paidIn(12);
    expect(charge).toMatchObject({
      installments: 12,
      installmentAmount: 16986,
      payerTotalAmount: 203832,
      receivedAmount: 120000,
      financingFeeAmount: 0,
      processorFeeAmount: 4788,
    });
    expect(charge.netAmount).toBeCloseTo(120000 - charge.feeAmount - charge.feeTaxAmount, 2);
    expect(movement).toMatchObject({ amount: 120000, financingFee: 0, net: charge.netAmount });
    process.stdout.write(
      `[worked example] 12 with interest: fee ${charge.feeAmount} + tax ${charge.feeTaxAmount}, net ${charge.netAmount}\n`,
    );
    // Mercado Pago refunds an installment payment in part and in full (the sale, never the payer's interest).
    const intentId = charge.paymentIntentId as string;
    expect((await client.get(`/payment-intent/${intentId}`)).body.installmentPlan).toEqual({
      installments: 12,
      installmentAmount: 16986,
      payerTotalAmount: 203832,
      financingFeeAmount: 0,
    });
    const part = await client.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 20000 });
    expect([part.status, part.body.paymentIntentStatus]).toEqual([200, 'PARTIALLY_REFUNDED']);
    const beyond = await client.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 183832 });
    expect([beyond.status, beyond.body.errorId]).toEqual([400, 'Payins:REFUND_AMOUNT_EXCEEDS_AVAILABLE']);
    const rest = await client.post(`/payment-intent/${intentId}/refund`);
    expect([rest.status, rest.body.paymentIntentStatus]).toEqual([200, 'REFUNDED']);
  });
});
