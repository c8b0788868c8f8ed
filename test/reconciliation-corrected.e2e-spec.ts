import { addDays, localDateOf, MerchantId } from '@pcs/kernel';
import { ReconciliationRunsService } from '@pcs/processor-reports';
import { eventually, MercadoPagoStandIn } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { Testbed, testbed } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const TOKEN = `TEST-77${crypto.randomInt(1e9, 1e10)}-112708-reconciled`;
const SECRET = 'mp-webhook-secret-of-the-reconciled-shop';

/**
 * Reconciliation as contract §23 corrects it, against the Mercado Pago
 * stand-in: the report's amounts read in the account's local currency when
 * the list names none (and a report that cannot be read fails the run),
 * every money column read and totalled, the financing fee compared apart,
 * MISSING_THERE judged by Mercado Pago's release date, holds compared with
 * our disputes, refunds and chargebacks whose notifications were lost found
 * by reading the payment again, findings shown by the next run, every day
 * since the last completed window caught up, and a window run again
 * replacing its discrepancies without announcing them twice.
 */
describe('reconciliation, corrected (contract §23)', () => {
  let bed: Testbed;
  const mp = new MercadoPagoStandIn().account(TOKEN, SECRET);
  let merchantId: string;
  let today: string;
  const runs = () => bed.app.get(ReconciliationRunsService);

  beforeAll(async () => {
    await mp.start();
    bed = await testbed({
      reachable: true,
      payer: { firstName: 'Marta', lastName: 'Suárez', email: 'marta@example.uy' },
      gateway: { processorApis: { MERCADO_PAGO: { url: mp.url, timeoutMs: 4000 } }, reconcileAfterSeconds: 600 },
    });
    merchantId = bed.tenant.merchants[0].merchantId;
    const account = await bed.business.put(`/merchant/${merchantId}/gateway-account/mercado-pago`, {
      accessToken: TOKEN,
      webhookSecret: SECRET,
      fundsFlow: 'PLATFORM',
    });
    expect(account.status).toBe(200);
    today = localDateOf(new Date(), 'America/Montevideo');
  });
  afterAll(async () => {
    await mp.rejectOpen();
    await bed.close();
    await mp.stop();
  });
  afterEach(() => {
    mp.notifications = { mode: 'send', delayMs: 0, repeat: 1 };
    mp.listsReportCurrency = true;
    mp.releaseDelayDays = 0;
    mp.financingFeeRate = 0;
    mp.withholdingRate = 0;
    mp.reportEdits.grossText.clear();
    mp.reportEdits.extra.length = 0;
  });

  /** A payment of `amount` UYU approved at Mercado Pago. */
  const paid = async (amount: number) => {
    const created = await bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: `reconciled-${crypto.randomUUID()}`,
      invoiceNumber: 1,
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
    return { intentId, attemptId: payment.external_reference!, payment };
  };
  const shown = async (runId: string) => (await bed.merchant.get(`/reconciliation-run/${runId}`)).body as Json;
  const kindsOf = (run: Json, ...ids: string[]) =>
    (run.discrepancies as Json[]).filter((d) => ids.includes(d.externalId)).map((d) => [d.kind, d.externalId]);
  const discrepancyEvents = async (externalId: string) =>
    (
      (await bed.merchant.get(`/event?type=reconciliation.discrepancy&merchantId=${merchantId}&limit=100`)).body[0].results as Json[]
    ).filter((e) => e.data.object.externalId === externalId);

  it('catches up every day since the last completed window, so a failed day is reconciled again the next day', async () => {
    const ours = async () => (await bed.merchant.get(`/reconciliation-run?merchantId=${merchantId}&limit=100`)).body[0].results as Json[];
    const known = new Set<string>();
    const tomorrow = addDays(today, 1);
    // The account was connected today and never reconciled: tomorrow's daily run reconciles today, and today's report cannot be read.
    const { payment } = await paid(64);
    mp.reportEdits.grossText.set(payment.id, 'sesenta y cuatro');
    await runs().runDaily('URY', tomorrow);
    mp.reportEdits.grossText.clear();
    const failed = (await ours()).filter((r) => !known.has(r.runId));
    expect(failed.map((r) => [r.from, r.to, r.status])).toEqual([[today, today, 'FAILED']]);
    failed.forEach((r) => known.add(r.runId));
    // The next day: the failed day and the day after, in one window.
    await runs().runDaily('URY', addDays(tomorrow, 1));
    const caught = (await ours()).filter((r) => !known.has(r.runId));
    expect(caught.map((r) => [r.from, r.to, r.status])).toEqual([[today, tomorrow, 'COMPLETED']]);
    caught.forEach((r) => known.add(r.runId));
    // Nothing is left to catch up: no run.
    await runs().runDaily('URY', addDays(tomorrow, 1));
    expect((await ours()).filter((r) => !known.has(r.runId))).toEqual([]);
  });

  it('reads the amounts in the account’s local currency when the report names none, every money column, with the window’s totals', async () => {
    mp.listsReportCurrency = false;
    mp.withholdingRate = 0.03;
    mp.financingFeeRate = 0.02;
    const { attemptId } = await paid(1000);
    const run = await runs().run(merchantId as MerchantId, today, today);
    expect(run.status).toBe('COMPLETED');
    const answer = await shown(run.runId);
    // Matched: the gross read as 1,000.00 UYU, Mercado Pago's fee (39.90) compared without its financing fee (20.00), which we were told of.
    expect(kindsOf(answer, attemptId)).toEqual([]);
    expect(answer.matched).toBeGreaterThanOrEqual(1);
    expect(answer.totals).toMatchObject({ currency: 'UYU' });
    expect(answer.totals.gross).toBeGreaterThanOrEqual(1000);
    expect(answer.totals.taxes).toBeGreaterThanOrEqual(30);
    expect(answer.totals.financingFee).toBeGreaterThanOrEqual(20);
    expect(answer.totals.netCredit).toBeGreaterThanOrEqual(1000 - 39.9 - 20 - 30);
  });

  it('fails a run whose report has an amount it cannot read, with the reason, and never turns it into discrepancies', async () => {
    const { payment } = await paid(77);
    mp.reportEdits.grossText.set(payment.id, '77.5x');
    const run = await runs().run(merchantId as MerchantId, today, today);
    expect(run).toMatchObject({ status: 'FAILED', discrepancies: [] });
    expect(run.failureReason).toContain('GROSS_AMOUNT');
    expect(run.failureReason).toContain('77.5x');
  });

  it('judges MISSING_THERE by Mercado Pago’s release date: a payment released later is not missing from today’s report', async () => {
    mp.releaseDelayDays = 2;
    const { attemptId, payment } = await paid(321);
    const run = await runs().run(merchantId as MerchantId, today, today);
    expect(kindsOf(await shown(run.runId), attemptId)).toEqual([]);
    const releaseDay = localDateOf(new Date(payment.money_release_date!), 'America/Montevideo');
    const later = await runs().run(merchantId as MerchantId, releaseDay, releaseDay);
    expect(later.status).toBe('COMPLETED');
    expect(kindsOf(await shown(later.runId), attemptId)).toEqual([]);
    expect(later.matched).toBeGreaterThanOrEqual(1);
  });

  it('finds a panel refund and a chargeback whose notifications were lost, by reading the payment again, and matches them', async () => {
    const refunded = await paid(400);
    const charged = await paid(410);
    mp.notifications = { mode: 'drop', delayMs: 0, repeat: 1 };
    await mp.refundAtProcessor(refunded.payment.id, 150);
    await mp.chargeback(charged.payment.id);
    const run = await runs().run(merchantId as MerchantId, today, today);
    expect(run.status).toBe('COMPLETED');
    const answer = await shown(run.runId);
    expect(kindsOf(answer, refunded.attemptId, charged.attemptId)).toEqual([]);
    const refunds = ((await bed.merchant.get(`/payin?paymentIntentId=${refunded.intentId}`)).body[0].results as Json[]).filter(
      (r) => r.transactionType === 'REFUND',
    );
    expect(refunds).toEqual([expect.objectContaining({ origin: 'PROCESSOR', amount: 150, status: 'APPROVED' })]);
    const disputes = ((await bed.merchant.get(`/dispute?merchantId=${merchantId}`)).body[0].results as Json[]).filter(
      (d) => d.paymentIntentId === charged.intentId,
    );
    expect(disputes).toEqual([expect.objectContaining({ amount: 410, status: 'NEEDS_RESPONSE' })]);
  });

  it('shows a hold we know nothing of as MISSING_HERE, and a release of a dispute we did not win as DISPUTE_MISMATCH', async () => {
    const { attemptId } = await paid(90);
    mp.reportEdits.extra.push({
      sourceId: '5550001',
      externalReference: 'someone-else',
      gross: -90,
      fee: 0,
      description: 'chargeback',
      recordType: 'block',
    });
    const charged = await paid(95);
    await mp.chargeback(charged.payment.id);
    const dispute = await eventually(
      async () =>
        ((await bed.merchant.get(`/dispute?merchantId=${merchantId}`)).body[0].results as Json[]).find(
          (d) => d.paymentIntentId === charged.intentId,
        ),
      (d) => d !== undefined,
    );
    mp.reportEdits.extra.push({
      sourceId: String(charged.payment.id),
      externalReference: charged.attemptId,
      gross: 95,
      fee: 0,
      description: 'chargeback',
      recordType: 'unblock',
    });
    const run = await runs().run(merchantId as MerchantId, today, today);
    const answer = await shown(run.runId);
    expect(kindsOf(answer, 'someone-else')).toEqual([['MISSING_HERE', 'someone-else']]);
    expect(kindsOf(answer, dispute!.disputeId)).toEqual([['DISPUTE_MISMATCH', dispute!.disputeId]]);
    expect(kindsOf(answer, attemptId)).toEqual([]);
  });

  it('shows a processor finding in the next run without announcing it again, and a window run again replaces its discrepancies, announced once', async () => {
    const over = await paid(300);
    await bed.merchant.post(`/payment-intent/${over.intentId}/manual-refund`, {
      status: 'MANUAL_REFUND_PENDING',
      requestedRefundAmount: 250,
    });
    const made = await mp.refundAtProcessor(over.payment.id, 100);
    expect(
      await eventually(
        () => discrepancyEvents(String(made.id)),
        (e) => e.length === 1,
      ),
    ).toHaveLength(1);
    mp.reportEdits.extra.push({ sourceId: '4440001', externalReference: 'twice-run', gross: 12, fee: 0, description: 'payment' });
    const first = await runs().run(merchantId as MerchantId, today, today);
    expect(kindsOf(await shown(first.runId), String(made.id), 'twice-run')).toEqual(
      expect.arrayContaining([
        ['PROCESSOR_OVER_REFUND', String(made.id)],
        ['MISSING_HERE', 'twice-run'],
      ]),
    );
    const second = await runs().run(merchantId as MerchantId, today, today);
    expect(kindsOf(await shown(second.runId), 'twice-run')).toEqual([['MISSING_HERE', 'twice-run']]);
    // The finding belongs to the run that showed it; the first run's discrepancies are the second's now.
    expect(kindsOf(await shown(second.runId), String(made.id))).toEqual([]);
    const replaced = await shown(first.runId);
    expect(replaced).toMatchObject({ supersededBy: second.runId, discrepancies: [] });
    expect(await discrepancyEvents('twice-run')).toHaveLength(1);
    expect(await discrepancyEvents(String(made.id))).toHaveLength(1);
  });
});
