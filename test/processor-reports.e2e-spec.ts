import { localDateOf, MerchantId } from '@pcs/kernel';
import { ReconciliationRunsService } from '@pcs/processor-reports';
import { PricingService } from '@pcs/settlement';
import { clientFor, createTenant, eventually, MercadoPagoStandIn } from '@pcs/testing';
import request from 'supertest';
import { Testbed, testbed } from './testbed';

const TOKEN = 'TEST-5512345678901234-112508-f00dfeed-555000111';
const SECRET = 'mp-webhook-secret-of-the-report-shop';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * Reconciliation with Mercado Pago's release report (contract §19), against
 * the stand-in written from Mercado Pago's documentation: the report is asked
 * for, waited for, downloaded and matched line by line with our records.
 */
describe("reconciliation with Mercado Pago's release report", () => {
  let bed: Testbed;
  const mp = new MercadoPagoStandIn().account(TOKEN, SECRET);
  let merchantId: string;
  let today: string;

  beforeAll(async () => {
    await mp.start();
    bed = await testbed({
      reachable: true,
      payer: { firstName: 'Marta', lastName: 'Suárez', email: 'marta@example.uy' },
      gateway: { processorApis: { MERCADO_PAGO: { url: mp.url, timeoutMs: 4000 } } },
    });
    merchantId = bed.tenant.merchants[0].merchantId;
    expect(
      (await bed.business.put(`/merchant/${merchantId}/gateway-account/mercado-pago`, { accessToken: TOKEN, webhookSecret: SECRET }))
        .status,
    ).toBe(200);
    // Available at once, so our records are released the day Mercado Pago releases them.
    const wallet = ((await bed.merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Json[]).find(
      (r) => r.countryProcessor.paymentMethod.paymentMethodName === 'MERCADO_PAGO',
    )!;
    await bed.app
      .get(PricingService)
      .set(merchantId as MerchantId, wallet.merchantCountryProcessorId, { percentage: 5.99, settlementDelayDays: 0 });
    today = localDateOf(new Date(), 'America/Montevideo');
  });
  afterAll(async () => {
    await mp.rejectOpen();
    await bed.close();
    await mp.stop();
  });

  let order = 0;
  /** A payment approved at Mercado Pago: the intent's id, our attempt's id, Mercado Pago's payment id. */
  const paid = async (amount: number): Promise<{ intentId: string; attemptId: string; paymentId: number }> => {
    order += 1;
    const created = await bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: `report-order-${order}`,
      invoiceNumber: order,
      payerId: bed.payerId,
    });
    const intentId = created.body.paymentIntent.paymentIntentId as string;
    const methods = (await bed.merchant.get(`/payment-intent/${intentId}/payment-methods`)).body
      .paymentIntentAvailablePaymentMethods as Json[];
    const wallet = methods.find((m) => m.paymentMethod.paymentMethodName === 'MERCADO_PAGO')!;
    const started = await bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: wallet.countryProcessorId });
    const payment = await mp.decide(started.body.gatewayReferenceId, 'approve');
    const done = await eventually(
      () => bed.merchant.get(`/payment-intent/${intentId}`).then((r) => r.body as Json),
      (i) => i.paymentIntentStatus === 'SUCCEEDED',
    );
    expect(done.paymentIntentStatus).toBe('SUCCEEDED');
    return { intentId, attemptId: payment.external_reference!, paymentId: payment.id };
  };

  it("keeps Mercado Pago's own fee as processorFeeAmount, never charging it twice", async () => {
    const { intentId } = await paid(1000);
    const [row] = (await bed.merchant.get(`/payin?paymentIntentId=${intentId}`)).body[0].results;
    // Mercado Pago's 3.99% (its fee_details) beside our 5.99% and its 22% VAT.
    expect(row).toMatchObject({ processorFeeAmount: 39.9, feeAmount: 59.9, feeTaxAmount: 13.18, netAmount: 926.92 });
  });

  it('matches every payment and refund line, shows each discrepancy, announces and counts it, and moves no money', async () => {
    const matchedPayment = await paid(500);
    const refunded = await paid(300);
    expect((await bed.merchant.post(`/payment-intent/${refunded.intentId}/refund`, { requestedRefundAmount: 100 })).status).toBe(200);
    const differs = await paid(250);
    const feeDiffers = await paid(200);
    const missingThere = await paid(150);
    mp.reportEdits.gross.set(differs.paymentId, 251);
    mp.reportEdits.fee.set(feeDiffers.paymentId, 9.99);
    mp.reportEdits.omit.add(missingThere.paymentId);
    mp.reportEdits.extra.push({ sourceId: '987654321', externalReference: 'not-ours-123', gross: 80, fee: 3.19, description: 'payment' });
    // The report takes a moment to be ready: the run waits for it.
    mp.reportDelayMs = 700;
    const balanceBefore = (await bed.merchant.get(`/merchant/${merchantId}/balance`)).body;

    const run = await bed.app.get(ReconciliationRunsService).run(merchantId as MerchantId, today, today);
    expect(run.status).toBe('COMPLETED');
    const shown = (await bed.merchant.get(`/reconciliation-run/${run.runId}`)).body;
    expect(shown).toMatchObject({ runId: run.runId, merchantId, provider: 'MERCADO_PAGO', from: today, to: today, status: 'COMPLETED' });
    // The first test's payment, this one's, the refunded one and its refund.
    expect(shown.matched).toBe(4);
    // The initial balance and the total are listed, not compared.
    expect(shown.ignored).toBe(2);
    const kinds = (shown.discrepancies as Json[]).map((d) => [d.kind, d.externalId]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['AMOUNT_MISMATCH', differs.attemptId],
        ['FEE_MISMATCH', feeDiffers.attemptId],
        ['MISSING_HERE', 'not-ours-123'],
        ['MISSING_THERE', missingThere.attemptId],
      ]),
    );
    expect(kinds).toHaveLength(4);
    const amount = (shown.discrepancies as Json[]).find((d) => d.kind === 'AMOUNT_MISMATCH')!;
    expect(amount).toMatchObject({ ours: { amount: 250 }, theirs: { amount: 251, externalId: String(differs.paymentId) } });
    const fee = (shown.discrepancies as Json[]).find((d) => d.kind === 'FEE_MISMATCH')!;
    expect(fee).toMatchObject({ ours: { fee: 7.98 }, theirs: { fee: 9.99 } });
    expect((shown.discrepancies as Json[]).find((d) => d.kind === 'MISSING_HERE')).toMatchObject({
      ours: null,
      theirs: { amount: 80, fee: 3.19 },
    });
    expect(matchedPayment.attemptId).not.toBe(differs.attemptId);

    // Nothing moved: the balance is what it was.
    expect((await bed.merchant.get(`/merchant/${merchantId}/balance`)).body).toEqual(balanceBefore);
    const events = (await bed.merchant.get(`/event?type=reconciliation.discrepancy&merchantId=${merchantId}&limit=100`)).body[0]
      .results as Json[];
    expect(events.filter((e) => e.data.object.runId === run.runId)).toHaveLength(4);
    const metrics = (await request(bed.app.getHttpServer()).get('/metrics')).text;
    expect(metrics).toMatch(/pcs_reconciliation_discrepancies_total\{provider="MERCADO_PAGO",kind="MISSING_THERE"\} [1-9]/);
    expect(metrics).toMatch(/pcs_reconciliation_runs_total\{provider="MERCADO_PAGO",result="completed"\} [1-9]/);
    const listed = (await bed.merchant.get(`/reconciliation-run?merchantId=${merchantId}`)).body[0];
    expect(listed.results.map((r: Json) => r.runId)).toContain(run.runId);
    // The report was asked for as Mercado Pago documents it: UTC bounds to the second, the day in Montevideo.
    const asked = mp.requests.filter((r) => r.method === 'POST' && r.path === '/v1/account/release_report');
    expect(asked.length).toBeGreaterThan(0);
    mp.reportEdits.gross.clear();
    mp.reportEdits.fee.clear();
    mp.reportEdits.omit.clear();
    mp.reportEdits.extra.length = 0;
    mp.reportDelayMs = 0;
  });

  it('keeps a run that could not get its report, as FAILED with the reason', async () => {
    mp.faults.push({ method: 'POST', pathPrefix: '/v1/account/release_report', answer: 503, times: 1 });
    const run = await bed.app.get(ReconciliationRunsService).run(merchantId as MerchantId, today, today);
    expect(run).toMatchObject({ status: 'FAILED', matched: 0 });
    expect(run.failureReason).toContain('503');
    const metrics = (await request(bed.app.getHttpServer()).get('/metrics')).text;
    expect(metrics).toMatch(/pcs_reconciliation_runs_total\{provider="MERCADO_PAGO",result="failed"\} [1-9]/);
  });

  it("keeps another tenant's runs out of sight (404)", async () => {
    const [run] = (await bed.merchant.get(`/reconciliation-run`)).body[0].results as Json[];
    const stranger = await createTenant(bed.app);
    for (const client of [clientFor(bed.app, stranger.business), clientFor(bed.app, stranger.merchants[0])]) {
      const one = await client.get(`/reconciliation-run/${run.runId}`);
      expect(one.status).toBe(404);
      expect(one.body.errorId).toBe('Payins:RECONCILIATION_RUN_NOT_FOUND');
      expect((await client.get(`/reconciliation-run?merchantId=${merchantId}`)).status).toBe(404);
      expect((await client.get('/reconciliation-run')).body[0].rowCount).toBe(0);
    }
  });
});
