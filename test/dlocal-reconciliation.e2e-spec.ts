import { RuntimeSettings } from '@pcs/config';
import { localDateOf, MerchantId } from '@pcs/kernel';
import { ReconciliationRunsService } from '@pcs/processor-reports';
import { DLocalStandIn } from '@pcs/testing';
import { Testbed, testbed, URUGUAYAN_PAYER } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const LOGIN = 'dl-login-recon-0001';
const TRANS_KEY = 'dl-trans-key-recon-0001';
const SECRET_KEY = 'dl-secret-key-recon-0001';

/**
 * dLocal's daily safety net (contract §28): dLocal publishes no report its API serves, so each payment within its
 * chargeback window is looked up once a day and each case we know of is read again. A refund made in dLocal's dashboard and a
 * chargeback's decision whose notifications were lost reach the books once, exactly as their notifications would have.
 */
describe('dLocal in the daily reconciliation: payments looked up once a day (contract §28)', () => {
  let bed: Testbed;
  const dl = new DLocalStandIn().merchant(LOGIN, TRANS_KEY, SECRET_KEY);
  let merchantId: MerchantId;
  let chargebackUrl: string;

  beforeAll(async () => {
    await dl.start();
    bed = await testbed({
      reachable: true,
      payer: URUGUAYAN_PAYER,
      gateway: { processorApis: { DLOCAL: { url: dl.url, timeoutMs: 2000 } }, reconcileAfterSeconds: 600 },
    });
    merchantId = bed.tenant.merchants[0].merchantId;
    chargebackUrl = `${bed.app.get(RuntimeSettings).publicBaseUrl}/gateways/dlocal/notifications/${merchantId}`;
    const connected = await bed.business.put(`/merchant/${merchantId}/gateway-account/dlocal`, {
      xLogin: LOGIN,
      xTransKey: TRANS_KEY,
      secretKey: SECRET_KEY,
      paymentMethods: ['VISA'],
      fundsFlow: 'PLATFORM',
    });
    expect(connected.status).toBe(200);
  });
  afterAll(async () => {
    await dl.rejectOpen();
    await bed.close();
    await dl.stop();
  });

  const today = () => localDateOf(new Date(), 'America/Montevideo');
  const run = () => bed.app.get(ReconciliationRunsService).run(merchantId, today(), today(), 'DLOCAL');
  /** The balance transactions of a type, each one's parts summed (a debit draws on the payment's pending net first), oldest first. */
  const movements = async (type: string) =>
    (
      await bed.dataSource.query<{ net: string }[]>(
        `SELECT sum(net) AS net FROM balance_transaction WHERE merchant_id = $1 AND type = $2
          GROUP BY source_id ORDER BY min(created_at)`,
        [merchantId, type],
      )
    ).map((row) => Number(row.net));

  /** A payment of `amount` UYU paid at dLocal's page: its dLocal id. */
  async function paid(amount: number): Promise<{ intentId: string; paymentId: string }> {
    const created = await bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: `recon-${amount}`,
      invoiceNumber: 1,
      payerId: bed.payerId,
    });
    const intentId = created.body.paymentIntent.paymentIntentId as string;
    const methods = (await bed.merchant.get(`/payment-intent/${intentId}/payment-methods`)).body
      .paymentIntentAvailablePaymentMethods as Json[];
    const visa = methods.find(
      (m) => m.paymentMethod.paymentMethodName === 'VISA' && m.paymentInstrumentType.paymentInstrumentTypeName === 'CREDIT_CARD',
    )!;
    const started = await bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: visa.countryProcessorId });
    const paymentId = started.body.gatewayReferenceId as string;
    await dl.decide(paymentId, 'pay');
    expect((await bed.merchant.get(`/payment-intent/${intentId}`)).body.paymentIntentStatus).toBe('SUCCEEDED');
    return { intentId, paymentId };
  }

  it('books a refund made in dLocal’s dashboard whose notification was lost, once, and looks each payment up once a day', async () => {
    const { intentId, paymentId } = await paid(500);
    dl.notifications = { mode: 'drop', delayMs: 0, repeat: 1 };
    await dl.refundAtProcessor(paymentId, 120.5);
    dl.notifications = { mode: 'send', delayMs: 0, repeat: 1 };
    expect((await bed.merchant.get(`/payment-intent/${intentId}`)).body).toMatchObject({ refundedAmount: 0, refundableAmount: 500 });
    expect(await movements('REFUND')).toEqual([]);

    const first = await run();
    expect(first).toMatchObject({ provider: 'DLOCAL', status: 'COMPLETED', from: today(), to: today(), matched: 1 });
    expect((await bed.merchant.get(`/payment-intent/${intentId}`)).body).toMatchObject({
      paymentIntentStatus: 'PARTIALLY_REFUNDED',
      refundedAmount: 120.5,
      refundableAmount: 379.5,
    });
    expect(await movements('REFUND')).toEqual([-12050]);
    // The same day again: nothing left to look up, nothing booked twice.
    const again = await run();
    expect(again).toMatchObject({ status: 'COMPLETED', matched: 0 });
    expect(await movements('REFUND')).toEqual([-12050]);
    // Listed with Mercado Pago's runs, as DLOCAL.
    const listed = (await bed.merchant.get(`/reconciliation-run?merchantId=${merchantId}`)).body[0].results as Json[];
    expect(listed.map((r) => [r.provider, r.runId])).toEqual(
      expect.arrayContaining([
        ['DLOCAL', first.runId],
        ['DLOCAL', again.runId],
      ]),
    );
  });

  it('follows a chargeback dLocal reversed (the dispute won) whose notification was lost: the debit given back once', async () => {
    const { intentId, paymentId } = await paid(300);
    const chargeback = await dl.chargeback(paymentId, chargebackUrl);
    const [dispute] = (await bed.merchant.get(`/dispute?merchantId=${merchantId}`)).body[0].results as Json[];
    expect(dispute).toMatchObject({ paymentIntentId: intentId, status: 'NEEDS_RESPONSE', amount: 300 });
    expect(await movements('CHARGEBACK')).toEqual([-30000]);
    dl.notifications = { mode: 'drop', delayMs: 0, repeat: 1 };
    await dl.chargebackStatus(chargeback, 'REVERSAL');
    dl.notifications = { mode: 'send', delayMs: 0, repeat: 1 };
    // Yesterday's looks do not count today: this payment is looked up (the first one was, today, already).
    const looked = await run();
    expect(looked).toMatchObject({ status: 'COMPLETED', matched: 1 });
    expect((await bed.merchant.get(`/dispute/${dispute.disputeId as string}`)).body).toMatchObject({ status: 'WON' });
    expect(await movements('CHARGEBACK_REVERSAL')).toEqual([30000]);
    await run();
    expect(await movements('CHARGEBACK_REVERSAL')).toEqual([30000]);
  });

  it('fails the run, naming why, when dLocal cannot be read; the next run looks the payment up', async () => {
    const { paymentId } = await paid(200);
    dl.faults.push({ method: 'GET', pathPrefix: `/payments/${paymentId}`, answer: 500, times: 1 });
    const failed = await run();
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: expect.stringContaining('0 payment(s) looked up') });
    expect(await run()).toMatchObject({ status: 'COMPLETED', matched: 1 });
  });
});
