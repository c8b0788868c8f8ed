import { plainToInstance } from 'class-transformer';
import { asBusinessId, asMerchantId, asPaymentIntentId, Caller, Currency, InvalidRequestError, Money } from '@pcs/kernel';
import type { B2bPaymentIntentsService } from '@pcs/payments';
import { B2bPaymentIntentController } from './b2b-payment-intent.controller';
import { CreateB2bPaymentIntentDto, ListB2bPaymentIntentsQuery } from './b2b-payment-intent.dto';

/**
 * B5–B7's controller against its service: what it asks. Amounts become Money
 * in the request's currency (a tip or VAT of 0 is Money's zero, not a
 * refusal), the merchant and intent ids typed, the dates whole-day bounds,
 * the page in the B2B envelope. The service is a jest stand-in (it stops
 * each create once it has been asked); test/b2b-payment-intents.e2e-spec.ts
 * runs the routes, and their answers, over HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: asMerchantId('m-1') };
const asked = new Error('asked');

function controllerWith() {
  const intents = {
    list: jest.fn().mockResolvedValue({ items: [], page: 2, limit: 5, total: 11 }),
    create: jest.fn().mockRejectedValue(asked),
    get: jest.fn().mockRejectedValue(asked),
  };
  return { controller: new B2bPaymentIntentController(intents as unknown as B2bPaymentIntentsService), intents };
}

const body = (more: Record<string, unknown> = {}) =>
  plainToInstance(CreateB2bPaymentIntentDto, {
    countryCode: 'URY',
    currency: 'UYU',
    amount: 1220,
    externalReference: 'order-2001',
    includeAllPaymentMethods: true,
    redirectUrl: 'https://shop.example/payment-return',
    ...more,
  });

describe('B2bPaymentIntentController', () => {
  it('creates with Money in the request’s currency, a zero tip or VAT as zero, and the Idempotency-Key', async () => {
    const { controller, intents } = controllerWith();
    await expect(controller.create(caller, body({ amountDetails: { tip: 0, vatAmount: 220 } }), 'key-1')).rejects.toBe(asked);
    const [who, request, operationId] = intents.create.mock.calls[0] as [Caller, Record<string, unknown>, string];
    expect(who).toBe(caller);
    expect(operationId).toBe('key-1');
    expect(request).toMatchObject({
      merchantId: undefined,
      externalReference: 'order-2001',
      countryCode: 'URY',
      amount: Money.ofMinor(122000, Currency.UYU),
      tip: Money.zero(Currency.UYU),
      vatAmount: Money.ofMinor(22000, Currency.UYU),
      includeAllPaymentMethods: true,
      redirectUrl: 'https://shop.example/payment-return',
    });
  });

  it('passes the chosen method with its networks, and no tip or VAT when none was sent', async () => {
    const { controller, intents } = controllerWith();
    await expect(
      controller.create(
        caller,
        body({ includeAllPaymentMethods: false, paymentMethods: { name: 'CREDIT_CARD', options: { networks: ['VISA'] } } }),
      ),
    ).rejects.toBe(asked);
    expect(intents.create.mock.calls[0][1]).toMatchObject({
      tip: undefined,
      vatAmount: undefined,
      paymentMethods: { name: 'CREDIT_CARD', networks: ['VISA'] },
    });
  });

  it('refuses an amount with more decimals than the currency has, asking nothing', async () => {
    const { controller, intents } = controllerWith();
    await expect(controller.create(caller, body({ amount: 12.345 }))).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(controller.create(caller, body({ amountDetails: { tip: 0.001 } }))).rejects.toThrow(/amountDetails\.tip/);
    expect(intents.create).not.toHaveBeenCalled();
  });

  it('lists with the filters typed and the dates as whole-day bounds, in the B2B envelope', async () => {
    const { controller, intents } = controllerWith();
    const query = plainToInstance(ListB2bPaymentIntentsQuery, {
      status: 'PENDING',
      merchantId: 'm-1',
      externalReference: 'order-2001',
      dateFrom: '2026-11-01',
      dateUntil: '2026-11-02',
      page: 2,
      pageSize: 5,
    });
    const answer = await controller.list(caller, query);
    expect(intents.list).toHaveBeenCalledWith(
      caller,
      {
        merchantId: 'm-1',
        status: 'PENDING',
        externalReference: 'order-2001',
        dateFrom: new Date('2026-11-01T00:00:00.000Z'),
        dateUntil: new Date('2026-11-02T23:59:59.999Z'),
      },
      { page: 2, limit: 5 },
    );
    expect(answer).toEqual({ data: [], pagination: { currentPage: 2, pageSize: 5, totalItems: 11, totalPages: 3 } });
  });

  it('reads one intent by its typed id', async () => {
    const { controller, intents } = controllerWith();
    const id = '3f1e2d4c-5b6a-4978-8695-a4b3c2d1e0f9';
    await expect(controller.get(caller, id)).rejects.toBe(asked);
    expect(intents.get).toHaveBeenCalledWith(caller, asPaymentIntentId(id));
  });
});
