import { plainToInstance } from 'class-transformer';
import { Invoice, Subscription } from '@pcs/billing';
import type { SubscriptionsService } from '@pcs/billing';
import { asBusinessId, asMerchantId, asPayerId, asPaymentInstrumentId, Caller, Currency, Money } from '@pcs/kernel';
import { SubscriptionController } from './subscription.controller';
import { ListInvoicesQuery, ListSubscriptionsQuery } from './subscription.dto';

/**
 * The subscriptions' controller against its service: amounts read in the request's (or the
 * subscription's) currency as minor units, ids typed, the Idempotency-Key's operation id handed over, lists in the
 * payins envelope and each answer the resource as the API shows it. The service is a jest stand-in;
 * test/subscriptions.e2e-spec.ts runs the routes over HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');
const payerId = asPayerId('1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d');
const instrumentId = asPaymentInstrumentId('9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a');
const now = new Date('2027-01-10T15:00:00Z');

const subscription = Subscription.start({
  subscriptionId: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  businessId: caller.businessId,
  merchantId,
  payerId,
  paymentInstrumentId: instrumentId,
  country: 'URY',
  amount: 990_50,
  currency: Currency.UYU,
  cycle: { interval: 'MONTH', intervalCount: 1, anchorDate: '2027-01-31', anchorTime: '00:00:00', timeZone: 'America/Montevideo' },
  trialEnd: null,
  description: 'Club',
  metadata: { plan: 'gold' },
  testClockId: null,
  cardExpiresAt: null,
  createdAt: now,
});
const invoice = Invoice.issue(
  {
    invoiceId: '0f1e2d3c-4b5a-4697-8877-665544332211',
    subscriptionId: subscription.id,
    businessId: caller.businessId,
    merchantId,
    payerId,
    paymentInstrumentId: instrumentId,
    testClockId: null,
    periodNumber: 0,
    periodStart: new Date('2027-01-31T03:00:00Z'),
    periodEnd: new Date('2027-02-28T03:00:00Z'),
    amount: 990_50,
    currency: Currency.UYU,
    description: 'Club',
    createdAt: now,
  },
  { retryDays: [1, 3], finalStatus: 'UNPAID' },
);

function subscriptionsController() {
  const service = {
    create: jest.fn().mockResolvedValue(subscription),
    list: jest.fn().mockResolvedValue({ items: [subscription], page: 1, limit: 10, total: 1 }),
    get: jest.fn().mockResolvedValue(subscription),
    update: jest.fn().mockResolvedValue(subscription),
    cancel: jest.fn().mockResolvedValue(subscription),
    pause: jest.fn().mockResolvedValue(subscription),
    resume: jest.fn().mockResolvedValue(subscription),
    invoice: jest.fn().mockResolvedValue(invoice),
    invoices: jest.fn().mockResolvedValue({ items: [invoice], page: 1, limit: 10, total: 1 }),
  };
  return { controller: new SubscriptionController(service as unknown as SubscriptionsService), service };
}

describe('SubscriptionController', () => {
  it('creates with the amount in minor units of its currency, the ids typed and the operation id', async () => {
    const { controller, service } = subscriptionsController();
    const answer = await controller.create(
      caller,
      {
        merchantId,
        payerId,
        paymentInstrumentId: instrumentId,
        amount: 990.5,
        currency: Currency.UYU,
        interval: 'MONTH',
        intervalCount: 1,
        startDate: '2027-01-31',
        description: 'Club',
      },
      'op-1',
    );
    expect(service.create).toHaveBeenCalledWith(
      caller,
      expect.objectContaining({
        merchantId,
        payerId,
        paymentInstrumentId: instrumentId,
        amount: Money.ofMinor(990_50, Currency.UYU),
        startDate: '2027-01-31',
      }),
      'op-1',
    );
    expect(answer).toMatchObject({
      subscriptionId: subscription.id,
      amount: 990.5,
      currency: 'UYU',
      status: 'ACTIVE',
      nextChargeAt: '2027-01-31T03:00:00.000Z',
    });
  });

  it('reads an update’s amount in the subscription’s currency, and passes cancel’s atPeriodEnd (false when absent)', async () => {
    const { controller, service } = subscriptionsController();
    await controller.update(caller, subscription.id, { amount: 1090 });
    expect(service.update).toHaveBeenCalledWith(caller, subscription.id, {
      amount: Money.ofMinor(1090_00, Currency.UYU),
      paymentInstrumentId: undefined,
      description: undefined,
    });
    await controller.cancel(caller, subscription.id, {});
    expect(service.cancel).toHaveBeenCalledWith(caller, subscription.id, false);
    await controller.cancel(caller, subscription.id, { atPeriodEnd: true });
    expect(service.cancel).toHaveBeenLastCalledWith(caller, subscription.id, true);
  });

  it('lists subscriptions and invoices in the payins envelope with their filters', async () => {
    const { controller, service } = subscriptionsController();
    const subscriptions = await controller.list(
      caller,
      plainToInstance(ListSubscriptionsQuery, { merchantId, status: 'ACTIVE', page: 1, limit: 10 }),
    );
    expect(service.list).toHaveBeenCalledWith(caller, { merchantId, payerId: undefined, status: 'ACTIVE' }, { page: 1, limit: 10 });
    expect(subscriptions[0]).toMatchObject({ currentPage: '1', pageSize: '10', rowCount: 1, pageCount: 1 });
    const invoices = await controller.invoices(caller, plainToInstance(ListInvoicesQuery, { subscriptionId: subscription.id }));
    expect(service.invoices).toHaveBeenCalledWith(
      caller,
      { merchantId: undefined, subscriptionId: subscription.id, status: undefined },
      expect.anything(),
    );
    expect(invoices[0].results[0]).toMatchObject({ invoiceId: invoice.id, amount: 990.5, status: 'OPEN', attemptCount: 0 });
  });
});
