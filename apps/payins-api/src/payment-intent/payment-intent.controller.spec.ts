import { plainToInstance } from 'class-transformer';
import {
  asBusinessId,
  asMerchantId,
  asPayerId,
  asPaymentIntentId,
  Caller,
  Currency,
  InvalidRequestError,
  Money,
  PayinType,
} from '@pcs/kernel';
import { PaymentIntent } from '@pcs/payments';
import type {
  FastPaymentIntentService,
  PaymentAttemptsService,
  PaymentIntentCreationService,
  PaymentIntentQueriesService,
  RefundsService,
} from '@pcs/payments';
import { PaymentIntentController } from './payment-intent.controller';
import { CreatePaymentIntentDto } from './dto/create-payment-intent.dto';
import { FastPaymentIntentDto, ManualRefundDto, RefundDto } from './dto/other-requests.dto';

/**
 * The payment intents' controller against its services: each route makes
 * one call, with the wire's decimals turned into Money (minor units) and the
 * ids typed, and answers the service's intent in the contract's shape. The
 * services are jest stand-ins; the end-to-end specs run the same routes over
 * HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const intentId = asPaymentIntentId('3f1e2d4c-5b6a-4978-8695-a4b3c2d1e0f9');
const payerId = '5e2d9c1b-7a4f-4c8e-b3d6-9f1a2e3b4c5d';
const merchantId = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';

function intent(status: PaymentIntent['status'] = 'REQUIRES_PAYMENT_INSTRUMENT', refunded = 0): PaymentIntent {
  const created = PaymentIntent.create({
    paymentIntentId: intentId,
    businessId: caller.businessId,
    merchantId: asMerchantId(merchantId),
    payerId: asPayerId(payerId),
    paymentInstrumentId: null,
    countryId: 'ury',
    origin: 'API',
    payinType: PayinType.DEFAULT,
    amount: Money.ofMinor(150050, Currency.UYU),
    tip: Money.zero(Currency.UYU),
    vatRateBp: 2200,
    externalReference: 'order-1001',
    externalInvoiceId: null,
    invoiceNumber: 1001,
    invoiceEmail: null,
    description: 'Order 1001',
    receiptEmail: null,
    setupFutureUsage: false,
    offSession: false,
    confirmationMethod: 'MANUAL',
    metadata: null,
    linkId: null,
    preferredPaymentMethod: null,
    preferredInstrumentType: null,
    allowedPaymentMethods: null,
    additionalInfo: null,
    createdAt: new Date('2026-11-27T12:00:00Z'),
  });
  return PaymentIntent.restore({ ...created.snapshot(), status, receivedAmount: refunded ? 150050 : 0, refundedAmount: refunded });
}

function controllerWith(answer: PaymentIntent = intent()) {
  const creation = { create: jest.fn().mockResolvedValue(answer) };
  const fast = { create: jest.fn().mockResolvedValue(answer) };
  const attemptList = [
    {
      transactionId: 't-1',
      processor: 'DLOCAL',
      status: 'FAILED',
      failureReason: 'PROCESSOR_UNAVAILABLE',
      createdAt: '2026-11-27T12:00:00.000Z',
    },
  ];
  const queries = {
    get: jest.fn().mockResolvedValue(answer),
    attempts: jest.fn().mockResolvedValue({ intent: answer, attempts: attemptList }),
  };
  const attempts = {
    initialize: jest.fn().mockResolvedValue({ intent: answer, gatewayReferenceId: 'gw-1', gatewayUrl: 'https://pay.example/s/1' }),
  };
  const refunds = { refund: jest.fn().mockResolvedValue(answer), manualRefund: jest.fn().mockResolvedValue(answer) };
  const controller = new PaymentIntentController(
    creation as unknown as PaymentIntentCreationService,
    fast as unknown as FastPaymentIntentService,
    queries as unknown as PaymentIntentQueriesService,
    attempts as unknown as PaymentAttemptsService,
    refunds as unknown as RefundsService,
  );
  return { controller, creation, fast, queries, attempts, refunds };
}

describe('PaymentIntentController', () => {
  it('creates with the amounts as Money in minor units and the ids typed, passing the Idempotency-Key, and answers the next action', async () => {
    const { controller, creation } = controllerWith();
    const body = plainToInstance(CreatePaymentIntentDto, {
      currency: 'UYU',
      amount: 1500.5,
      tipAmount: 10.25,
      payinType: 'DEFAULT',
      externalReference: 'order-1001',
      invoiceNumber: 1001,
      country: 'URY',
      payerId,
      merchantId,
    });
    const answer = await controller.create(caller, body, 'key-1');
    expect(creation.create).toHaveBeenCalledTimes(1);
    const [asked, request, operationId] = creation.create.mock.calls[0] as [Caller, Record<string, unknown>, string];
    expect(asked).toBe(caller);
    expect(operationId).toBe('key-1');
    expect(request.amount).toEqual(Money.ofMinor(150050, Currency.UYU));
    expect(request.tipAmount).toEqual(Money.ofMinor(1025, Currency.UYU));
    expect(request).toMatchObject({ payerId, merchantId, externalReference: 'order-1001', invoiceNumber: 1001, country: 'URY' });
    expect(request).not.toHaveProperty('currency');
    expect(answer).toMatchObject({
      status: 'REQUIRES_PAYMENT_INSTRUMENT',
      nextAction: 'INITIALIZE_WITH_PAYMENT_METHOD',
      confirmationMethod: 'MANUAL',
      paymentIntent: {
        paymentIntentId: intentId,
        currency: 'UYU',
        totalAmount: 1500.5,
        paymentIntentStatus: 'REQUIRES_PAYMENT_INSTRUMENT',
      },
    });
  });

  it('refuses an amount with more decimals than its currency has before calling the service (400 naming the field)', async () => {
    const { controller, creation } = controllerWith();
    const body = plainToInstance(CreatePaymentIntentDto, { currency: 'UYU', amount: 10.005, payerId, merchantId, payinType: 'DEFAULT' });
    await expect(controller.create(caller, body)).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(controller.create(caller, body)).rejects.toThrow(/amount/);
    expect(creation.create).not.toHaveBeenCalled();
  });

  it('creates a fast intent by the merchant’s short name with the amount in minor units', async () => {
    const { controller, fast } = controllerWith();
    const body = plainToInstance(FastPaymentIntentDto, {
      amount: 250,
      currency: 'UYU',
      merchantShortName: 'cafe-centro',
      countryCode: 'URY',
      comment: 'Two coffees',
    });
    await controller.createFast(caller, body, undefined);
    const [asked, request, operationId] = fast.create.mock.calls[0] as [Caller, Record<string, unknown>, string | undefined];
    expect(asked).toBe(caller);
    expect(operationId).toBeUndefined();
    expect(request).toMatchObject({ amount: Money.ofMinor(25000, Currency.UYU), merchantShortName: 'cafe-centro', countryCode: 'URY' });
    expect(request.paymentIntentAdditionalInfo).toBeUndefined();
  });

  it('reads one intent of the caller by its typed id, with its attempts', async () => {
    const { controller, queries } = controllerWith(intent('SUCCEEDED'));
    const answer = await controller.get(caller, intentId);
    expect(queries.attempts).toHaveBeenCalledWith(caller, intentId);
    expect(answer).toMatchObject({ paymentIntentId: intentId, paymentIntentStatus: 'SUCCEEDED' });
    expect(answer.attempts).toEqual([
      expect.objectContaining({ processor: 'DLOCAL', status: 'FAILED', failureReason: 'PROCESSOR_UNAVAILABLE' }),
    ]);
  });

  it('initializes at the chosen country processor and answers where the payer goes', async () => {
    const { controller, attempts } = controllerWith(intent('REQUIRES_ACTION'));
    const answer = await controller.initialize(caller, intentId, { countryProcessorId: 'cp-1' }, 'key-2');
    expect(attempts.initialize).toHaveBeenCalledWith(caller, intentId, 'cp-1', 'key-2', undefined, undefined, undefined);
    await controller.initialize(caller, intentId, { countryProcessorId: 'cp-1', installments: 6 }, 'key-3');
    // The installments asked for (contract §25) go to the service, which checks them against the merchant's offer.
    expect(attempts.initialize).toHaveBeenLastCalledWith(caller, intentId, 'cp-1', 'key-3', undefined, undefined, 6);
    expect(answer).toMatchObject({
      gatewayReferenceId: 'gw-1',
      gatewayUrl: 'https://pay.example/s/1',
      paymentIntent: { paymentIntentStatus: 'REQUIRES_ACTION' },
    });
  });

  it('refunds what the body asks (nothing: everything refundable) with the request’s origin, and manual refunds with their status', async () => {
    const { controller, refunds } = controllerWith(intent('PARTIALLY_REFUNDED', 10000));
    await controller.refund(caller, intentId, plainToInstance(RefundDto, { requestedRefundAmount: 100 }), 'DASHBOARD', 'key-3');
    await controller.refund(caller, intentId, plainToInstance(RefundDto, {}), 'API', undefined);
    expect(refunds.refund.mock.calls).toEqual([
      [caller, intentId, 100, 'key-3', 'DASHBOARD'],
      [caller, intentId, undefined, undefined, 'API'],
    ]);
    const manual = await controller.manualRefund(
      caller,
      intentId,
      plainToInstance(ManualRefundDto, { requestedRefundAmount: 100, status: 'MANUAL_REFUND_PENDING' }),
      'API',
      'key-4',
    );
    expect(refunds.manualRefund).toHaveBeenCalledWith(caller, intentId, 'MANUAL_REFUND_PENDING', 100, 'key-4', 'API');
    expect(manual).toMatchObject({ paymentIntentStatus: 'PARTIALLY_REFUNDED', receivedAmount: 1500.5 });
  });
});
