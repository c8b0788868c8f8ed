import { NestExpressApplication } from '@nestjs/platform-express';
import { ChargesOffSession, GatewayRegistry, GatewayRequestVoidedError, PaymentGateway } from '@pcs/gateways';
import { PaymentAttemptsService, ReconciliationService } from '@pcs/payments';
import { SignedClient, TestTenant } from '@pcs/testing';
import { DataSource } from 'typeorm';
import { Testbed, testbed } from './testbed';

/**
 * Reconciliation, one failure at a time: the sandbox gateway itself (a real
 * adapter) is made unreachable at the moment a request is sent, or its answer
 * is lost on the way back, exactly as a network would. Then the sweep asks
 * the gateway and settles the payin as the normal path would have.
 */
describe('reconciliation with the gateway after lost or unsent requests', () => {
  let bed: Testbed;
  const WINDOW_MS = 30_000;
  let app: NestExpressApplication;
  let tenant: TestTenant;
  let merchant: SignedClient;
  let dataSource: DataSource;
  let sandbox: PaymentGateway & ChargesOffSession;
  let sweeps: ReconciliationService;
  let payerId: string;
  let instrumentId: string;

  beforeAll(async () => {
    bed = await testbed({ gateway: { reconcileAfterSeconds: WINDOW_MS / 1000 }, payer: { firstName: 'Recon', lastName: 'Ciliation' } });
    ({ app, tenant, merchant, dataSource, payerId } = bed);
    sandbox = app.get(GatewayRegistry).get('SANDBOX') as PaymentGateway & ChargesOffSession;
    sweeps = app.get(ReconciliationService);
    instrumentId = (await merchant.post('/payment-instrument', { payerId, paymentMethodName: 'VISA', country: 'URY' })).body
      .paymentInstrumentId;
  });
  afterAll(() => bed.close());
  afterEach(() => jest.restoreAllMocks());

  const charge = (reference: string, amount = 250) => ({
    currency: 'UYU',
    amount,
    payinType: 'DEFAULT',
    externalReference: reference,
    payerId,
    offSession: true,
    invoiceNumber: 7,
    country: 'URY',
    paymentInstrumentId: instrumentId,
    confirm: true,
  });
  const payinsOf = (
    paymentIntentId: string,
  ): Promise<{ transaction_id: string; transaction_type: string; status: string; external_id: string | null; amount: string }[]> =>
    dataSource.query(
      `SELECT transaction_id, transaction_type, status, external_id, amount FROM payin WHERE payment_intent_id = $1 ORDER BY created_at`,
      [paymentIntentId],
    );
  const afterWindow = () => new Date(Date.now() + WINDOW_MS + 1000);

  it('a charge that never reached the gateway fails after the window, and the gateway refuses it should it still arrive', async () => {
    jest.spyOn(sandbox, 'chargeOffSession').mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
    const created = await merchant.post('/payment-intent', charge('never-sent'));
    expect(created.status).toBe(200);
    const intent = created.body.paymentIntent;
    expect(intent.paymentIntentStatus).toBe('PROCESSING');
    const [attempt] = await payinsOf(intent.paymentIntentId);
    expect(attempt.status).toBe('PENDING');

    // Inside the window this attempt is not asked about (other suites share the database: their payins may be due).
    const asked = jest.spyOn(sweeps, 'reconcileAttempt');
    await sweeps.reconcileDue(new Date());
    expect(asked.mock.calls.map(([payinId]) => payinId)).not.toContain(attempt.transaction_id);
    expect((await payinsOf(intent.paymentIntentId))[0].status).toBe('PENDING');
    await sweeps.reconcileDue(afterWindow());
    expect((await merchant.get(`/payment-intent/${intent.paymentIntentId}`)).body).toMatchObject({
      paymentIntentStatus: 'REQUIRES_PAYMENT_INSTRUMENT',
      lastPaymentError: 'the charge never reached the gateway',
      receivedAmount: 0,
    });
    expect((await payinsOf(intent.paymentIntentId))[0].status).toBe('REJECTED');
    // The late request is void at the gateway: no money can move after we declared it failed.
    await expect(
      sandbox.chargeOffSession({
        payinId: attempt.transaction_id,
        merchantId: intent.merchantId,
        instrumentToken: null,
        merchantName: 'x',
        paymentMethod: 'VISA',
        currency: 'UYU' as never,
        amount: 25000,
      }),
    ).rejects.toBeInstanceOf(GatewayRequestVoidedError);
  });

  it('a charge the gateway approved but whose answer was lost is recorded as approved', async () => {
    const real = sandbox.chargeOffSession.bind(sandbox);
    jest.spyOn(sandbox, 'chargeOffSession').mockImplementationOnce(async (request) => {
      await real(request);
      throw new Error('socket hang up');
    });
    const intent = (await merchant.post('/payment-intent', charge('answer-lost'))).body.paymentIntent;
    expect(intent.paymentIntentStatus).toBe('PROCESSING');
    await sweeps.reconcileDue(afterWindow());
    const after = (await merchant.get(`/payment-intent/${intent.paymentIntentId}`)).body;
    expect(after).toMatchObject({ paymentIntentStatus: 'SUCCEEDED', receivedAmount: 250 });
    const [payin] = await payinsOf(intent.paymentIntentId);
    expect(payin).toMatchObject({ status: 'APPROVED', external_id: expect.stringMatching(/^sbx_chg_/) });
  });

  it('refunds: an answer lost is approved, a refund never sent releases its reservation', async () => {
    const intent = (await merchant.post('/payment-intent', charge('refund-recon', 300))).body.paymentIntent;
    expect(intent.paymentIntentStatus).toBe('SUCCEEDED');
    const real = sandbox.refund.bind(sandbox);
    jest
      .spyOn(sandbox, 'refund')
      .mockImplementationOnce(async (request) => {
        await real(request);
        throw new Error('socket hang up');
      })
      .mockRejectedValueOnce(new Error('connect ETIMEDOUT'));
    expect((await merchant.post(`/payment-intent/${intent.paymentIntentId}/refund`, { requestedRefundAmount: 100 })).status).toBe(200);
    expect((await merchant.post(`/payment-intent/${intent.paymentIntentId}/refund`, { requestedRefundAmount: 150 })).status).toBe(200);
    // Both reservations hold while the gateway's word is unknown: only 50 is refundable.
    expect((await merchant.post(`/payment-intent/${intent.paymentIntentId}/refund`, { requestedRefundAmount: 60 })).body.errorId).toBe(
      'Payins:REFUND_AMOUNT_EXCEEDS_AVAILABLE',
    );
    await sweeps.reconcileDue(afterWindow());
    const refunds = (await payinsOf(intent.paymentIntentId)).filter((p) => p.transaction_type === 'REFUND');
    expect(refunds.map((r) => [Number(r.amount), r.status])).toEqual([
      [10000, 'APPROVED'],
      [15000, 'REJECTED'],
    ]);
    expect((await merchant.get(`/payment-intent/${intent.paymentIntentId}`)).body.paymentIntentStatus).toBe('PARTIALLY_REFUNDED');
    // The released 150 is refundable again.
    expect(
      (await merchant.post(`/payment-intent/${intent.paymentIntentId}/refund`, { requestedRefundAmount: 200 })).body.paymentIntentStatus,
    ).toBe('REFUNDED');
  });

  it('a request that failed with a 5xx after committing is retried with its key to completion, never twice', async () => {
    jest
      .spyOn(app.get(PaymentAttemptsService), 'chargeOffSession')
      .mockRejectedValueOnce(new Error('the process stumbled after the commit'));
    const body = charge('retry-after-500');
    const first = await merchant.post('/payment-intent', body).set('Idempotency-Key', 'retry-after-500');
    expect(first.status).toBe(500);
    const retried = await merchant.post('/payment-intent', body).set('Idempotency-Key', 'retry-after-500');
    expect(retried.status).toBe(200);
    expect(retried.body.paymentIntent).toMatchObject({ paymentIntentStatus: 'SUCCEEDED', externalReference: 'retry-after-500' });
    const [{ count }] = await dataSource.query(
      `SELECT count(*)::int AS count FROM payment_intent WHERE external_reference = 'retry-after-500'`,
    );
    expect(count).toBe(1);
    expect((await payinsOf(retried.body.paymentIntent.paymentIntentId)).map((p) => p.status)).toEqual(['APPROVED']);
    const replay = await merchant.post('/payment-intent', body).set('Idempotency-Key', 'retry-after-500');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(retried.body);
  });

  it('a key held by a request that died is free again after the lease, and not before', async () => {
    const scope = `${tenant.business.businessId}:${tenant.merchants[0].merchantId}`;
    const body = charge('dead-holder');
    // What a process killed mid-request leaves: the key IN_PROGRESS, its lease running.
    await dataSource.query(
      `INSERT INTO idempotency_key (scope, key, request_hash, state, locked_until, expires_at)
       SELECT $1, 'dead-holder', encode(sha256(convert_to($2, 'UTF8')), 'hex'), 'IN_PROGRESS', now() + interval '1 minute', now() + interval '24 hours'`,
      [scope, `POST /payment-intent ${JSON.stringify(body)}`],
    );
    const held = await merchant.post('/payment-intent', body).set('Idempotency-Key', 'dead-holder');
    expect(held.status).toBe(409);
    expect(held.body.errorId).toBe('Payins:IDEMPOTENCY_REQUEST_IN_PROGRESS');
    await dataSource.query(
      `UPDATE idempotency_key SET locked_until = now() - interval '1 second' WHERE scope = $1 AND key = 'dead-holder'`,
      [scope],
    );
    const taken = await merchant.post('/payment-intent', body).set('Idempotency-Key', 'dead-holder');
    expect(taken.status).toBe(200);
    expect(taken.body.paymentIntent.externalReference).toBe('dead-holder');
    // Another body under the same key is still refused.
    expect((await merchant.post('/payment-intent', { ...body, amount: 1 }).set('Idempotency-Key', 'dead-holder')).status).toBe(422);
  });
});
