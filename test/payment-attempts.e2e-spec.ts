import * as crypto from 'node:crypto';
import { NestExpressApplication } from '@nestjs/platform-express';
import { getDataSourceToken } from '@nestjs/typeorm';
import { sandboxCallbackKey, signCallback } from '@pcs/gateways';
import { PaymentIntentSweeps, SessionExpiryService } from '@pcs/payments';
import { SignedClient } from '@pcs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Testbed, testbed } from './testbed';

type Processor = {
  countryProcessorId: string;
  paymentMethod: { paymentMethodName: string };
  paymentInstrumentType: { paymentInstrumentTypeName: string };
};

describe('collection attempts, gateway callbacks and the state machine', () => {
  let bed: Testbed;
  let app: NestExpressApplication;
  let merchant: SignedClient;
  let payerId: string;

  beforeAll(async () => {
    bed = await testbed({ gateway: { sandboxSettleSeconds: 0 }, payer: { firstName: 'Pablo', lastName: 'Suárez' } });
    ({ app, merchant, payerId } = bed);
  });
  afterAll(() => bed.close());

  const createIntent = async (amount = 500, extra: Record<string, unknown> = {}) =>
    (
      await merchant.post('/payment-intent', {
        currency: 'UYU',
        amount,
        payinType: 'DEFAULT',
        externalReference: `ref-${crypto.randomUUID()}`,
        payerId,
        offSession: false,
        invoiceNumber: 7,
        country: 'URY',
        ...extra,
      })
    ).body;
  const newIntent = async (amount = 500) => {
    const created = await createIntent(amount);
    if (!created.paymentIntent) throw new Error(`creation failed: ${JSON.stringify(created)}`);
    return created.paymentIntent as { paymentIntentId: string };
  };
  const processor = async (intentId: string, method: string, type?: string) =>
    ((await merchant.get(`/payment-intent/${intentId}/payment-methods`)).body.paymentIntentAvailablePaymentMethods as Processor[]).find(
      (p) => p.paymentMethod.paymentMethodName === method && (!type || p.paymentInstrumentType.paymentInstrumentTypeName === type),
    )!;
  const initialize = async (intentId: string, method = 'VISA', type = 'CREDIT_CARD') =>
    (
      await merchant.post(`/payment-intent/${intentId}/initialize`, {
        countryProcessorId: (await processor(intentId, method, type)).countryProcessorId,
      })
    ).body;
  const decide = (url: string, outcome: string) => request(app.getHttpServer()).post(new URL(url).pathname).type('form').send({ outcome });
  const intentOf = async (id: string) => (await merchant.get(`/payment-intent/${id}`)).body;
  const payinsOf = async (id: string) =>
    (await merchant.get('/payin?limit=100')).body[0].results.filter((p: { paymentIntentId: string }) => p.paymentIntentId === id);
  const sendCallback = (body: Record<string, unknown>) => {
    const raw = JSON.stringify(body);
    const key = sandboxCallbackKey(Buffer.from(process.env.TEST_SECRETS_MASTER_KEY as string, 'base64'));
    return request(app.getHttpServer())
      .post('/gateway/callbacks/sandbox')
      .set('content-type', 'application/json')
      .set('x-sandbox-signature', signCallback(key, raw))
      .send(raw);
  };

  it('a rejection returns the intent to REQUIRES_PAYMENT_INSTRUMENT with the error, and a new attempt can follow', async () => {
    const intent = await newIntent();
    const attempt = await initialize(intent.paymentIntentId);
    expect((await decide(attempt.gatewayUrl, 'reject')).text).toContain('data-status="REJECTED"');
    expect(await intentOf(intent.paymentIntentId)).toMatchObject({
      paymentIntentStatus: 'REQUIRES_PAYMENT_INSTRUMENT',
      lastPaymentError: 'the payer rejected the payment',
    });
    const retry = await initialize(intent.paymentIntentId, 'OCA');
    expect(retry.paymentIntent).toMatchObject({ paymentIntentStatus: 'REQUIRES_ACTION', lastPaymentError: null });
    expect((await payinsOf(intent.paymentIntentId)).map((p: { status: string }) => p.status).sort()).toEqual(['PENDING', 'REJECTED']);
  });

  it('initializing again with another method cancels the earlier attempt, whose page then changes nothing', async () => {
    const intent = await newIntent();
    const first = await initialize(intent.paymentIntentId, 'VISA');
    const second = await initialize(intent.paymentIntentId, 'BROU', 'BANK_TRANSFER');
    const payins = await payinsOf(intent.paymentIntentId);
    expect(payins.find((p: { externalId: string }) => p.externalId === first.gatewayReferenceId)).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'replaced by a new payment attempt',
    });
    expect(payins.find((p: { externalId: string }) => p.externalId === second.gatewayReferenceId).status).toBe('PENDING');
    const old = await decide(first.gatewayUrl, 'approve');
    expect(old.text).toContain('data-status="CANCELLED"');
    expect((await intentOf(intent.paymentIntentId)).paymentIntentStatus).toBe('REQUIRES_ACTION');
  });

  it('leaving the payment pending makes the intent PROCESSING and the payin SCHEDULED, until the payer approves', async () => {
    const intent = await newIntent();
    const attempt = await initialize(intent.paymentIntentId, 'BROU', 'BANK_TRANSFER');
    expect((await decide(attempt.gatewayUrl, 'pending')).text).toContain('data-status="PENDING"');
    expect((await intentOf(intent.paymentIntentId)).paymentIntentStatus).toBe('PROCESSING');
    expect((await payinsOf(intent.paymentIntentId))[0]).toMatchObject({ status: 'SCHEDULED', externalStatus: 'pending' });
    await decide(attempt.gatewayUrl, 'approve');
    expect((await intentOf(intent.paymentIntentId)).paymentIntentStatus).toBe('SUCCEEDED');
    expect((await payinsOf(intent.paymentIntentId))[0].status).toBe('APPROVED');
  });

  it('replayed and out-of-order callbacks change nothing twice; forged ones are refused', async () => {
    const intent = await newIntent();
    const attempt = await initialize(intent.paymentIntentId);
    const approve = {
      eventId: `${attempt.gatewayReferenceId}:9`,
      reference: attempt.gatewayReferenceId,
      outcome: 'APPROVED',
      maskedPan: '************4242',
      cardType: 'VISA',
    };
    expect((await sendCallback(approve)).body).toEqual({ received: true, result: 'applied' });
    const afterFirst = await intentOf(intent.paymentIntentId);
    const payinAfterFirst = (await payinsOf(intent.paymentIntentId))[0];
    expect((await sendCallback(approve)).body.result).toBe('replayed');
    expect(
      (await sendCallback({ eventId: `${attempt.gatewayReferenceId}:3`, reference: attempt.gatewayReferenceId, outcome: 'PENDING' })).body
        .result,
    ).toBe('applied');
    expect(
      (
        await sendCallback({
          eventId: `${attempt.gatewayReferenceId}:4`,
          reference: attempt.gatewayReferenceId,
          outcome: 'REJECTED',
          error: 'late',
        })
      ).body.result,
    ).toBe('applied');
    expect(await intentOf(intent.paymentIntentId)).toEqual(afterFirst);
    expect((await payinsOf(intent.paymentIntentId))[0]).toEqual(payinAfterFirst);
    expect(afterFirst.paymentIntentStatus).toBe('SUCCEEDED');

    const forged = await request(app.getHttpServer())
      .post('/gateway/callbacks/sandbox')
      .set('content-type', 'application/json')
      .set('x-sandbox-signature', 'f'.repeat(64))
      .send(JSON.stringify({ ...approve, eventId: 'forged' }));
    expect(forged.status).toBe(401);
    expect(forged.body.errorId).toBe('Payins:GATEWAY_CALLBACK_REJECTED');
    expect((await request(app.getHttpServer()).post('/gateway/callbacks/stripe').send({})).status).toBe(401);
  });

  it('charges off-session by amount: approved, rejected for insufficient funds, or processing until the sandbox settles', async () => {
    const card = {
      paymentInstrumentData: { paymentMethodName: 'VISA', paymentInstrumentTypeName: 'CREDIT_CARD' },
      confirm: true,
      offSession: true,
    };
    const approved = await createIntent(100, card);
    expect(approved).toMatchObject({ status: 'SUCCEEDED', confirmationMethod: 'AUTOMATIC', nextAction: null });
    expect(approved.paymentIntent.receivedAmount).toBe(100);
    const instrument = (await merchant.get(`/payment-instrument/${approved.paymentIntent.paymentInstrumentId}`)).body;
    expect(instrument).toMatchObject({ validated: true, nextAction: null, externalId: expect.stringMatching(/^sbx_tok_/) });
    expect((await payinsOf(approved.paymentIntent.paymentIntentId))[0]).toMatchObject({
      status: 'APPROVED',
      paymentIntentInitiator: 'MERCHANT',
    });

    const rejected = await createIntent(100.13, card);
    expect(rejected.status).toBe('REQUIRES_PAYMENT_INSTRUMENT');
    expect(rejected.paymentIntent.lastPaymentError).toBe('insufficient funds');
    expect((await payinsOf(rejected.paymentIntent.paymentIntentId))[0].status).toBe('REJECTED');

    const slow = await createIntent(100.14, card);
    expect(slow).toMatchObject({ status: 'PROCESSING', nextAction: 'WAIT_FOR_GATEWAY' });
    await app.get(PaymentIntentSweeps).runOnce();
    expect((await intentOf(slow.paymentIntent.paymentIntentId)).paymentIntentStatus).toBe('SUCCEEDED');
    expect((await payinsOf(slow.paymentIntent.paymentIntentId))[0].status).toBe('APPROVED');
  });

  it('expires an abandoned gateway session: payin EXPIRED, intent back to REQUIRES_PAYMENT_INSTRUMENT, page closed', async () => {
    const intent = await newIntent();
    const attempt = await initialize(intent.paymentIntentId);
    await app
      .get<DataSource>(getDataSourceToken())
      .query(`UPDATE payin SET session_expires_at = now() - interval '1 minute' WHERE external_id = $1`, [attempt.gatewayReferenceId]);
    // Two replicas sweeping at the same moment: the session is expired exactly once.
    const expired = await Promise.all([app.get(SessionExpiryService).expireSessions(), app.get(SessionExpiryService).expireSessions()]);
    expect(expired[0] + expired[1]).toBe(1);
    expect(await intentOf(intent.paymentIntentId)).toMatchObject({
      paymentIntentStatus: 'REQUIRES_PAYMENT_INSTRUMENT',
      lastPaymentError: 'the payer did not complete the payment in time',
    });
    expect((await payinsOf(intent.paymentIntentId))[0]).toMatchObject({ status: 'EXPIRED' });
    expect((await decide(attempt.gatewayUrl, 'approve')).text).toContain('data-status="EXPIRED"');
    expect((await intentOf(intent.paymentIntentId)).paymentIntentStatus).toBe('REQUIRES_PAYMENT_INSTRUMENT');
  });

  it('answers a transition the contract does not allow with 409 and changes nothing', async () => {
    const fresh = await newIntent();
    for (const attempt of [
      merchant.post(`/payment-intent/${fresh.paymentIntentId}/refund`),
      merchant.post(`/payment-intent/${fresh.paymentIntentId}/manual-refund`, { status: 'MANUAL_REFUND_PENDING' }),
    ]) {
      const response = await attempt;
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({
        errorId: 'Payins:PAYMENT_INTENT_INVALID_STATE',
        showMessage: { ES: expect.stringContaining('REQUIRES_PAYMENT_INSTRUMENT') },
      });
    }
    const paid = await createIntent(100, { paymentInstrumentData: { paymentMethodName: 'OCA' }, confirm: true });
    const visa = await processor(paid.paymentIntent.paymentIntentId, 'VISA', 'CREDIT_CARD');
    const again = await merchant.post(`/payment-intent/${paid.paymentIntent.paymentIntentId}/initialize`, {
      countryProcessorId: visa.countryProcessorId,
    });
    expect(again.status).toBe(409);
    expect(await intentOf(paid.paymentIntent.paymentIntentId)).toMatchObject({ paymentIntentStatus: 'SUCCEEDED' });
    expect(await payinsOf(paid.paymentIntent.paymentIntentId)).toHaveLength(1);
  });

  it('refuses a processor the intent cannot use', async () => {
    const intent = await newIntent();
    const all = (await merchant.get('/business-country-processor')).body;
    const pix = all.find(
      (p: { countryProcessor: { paymentMethod: { paymentMethodName: string } } }) =>
        p.countryProcessor.paymentMethod.paymentMethodName === 'PIX',
    );
    const response = await merchant.post(`/payment-intent/${intent.paymentIntentId}/initialize`, {
      countryProcessorId: pix.countryProcessor.countryProcessorId,
    });
    expect(response.status).toBe(400);
    expect(response.body.errorId).toBe('Payins:COUNTRY_PROCESSOR_NOT_AVAILABLE');
  });
});
