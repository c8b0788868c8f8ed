import type { DashboardIdentity, DashboardUser } from '@pcs/dashboard-identity';
import { recordingResponse } from '@pcs/testing';
import type { DashboardRequest } from './web';
import type { Merchant, PayinsApi, Subscription } from './payins-api';
import { SubscriptionsController } from './subscriptions.controller';

/**
 * The subscriptions' pages against the payins API: the list's filters read strictly (a status of the contract, a
 * payer's uuid, the person's merchant), a subscription with its invoices, and 404 for one the API does not show.
 */
const user: DashboardUser = { userId: 'u-1', businessId: 'b-1', merchantId: null, email: 'ana@example.uy', role: 'viewer' };
const request = { dashboard: { user, csrfToken: 'csrf' }, header: () => 'en' } as unknown as DashboardRequest;
const merchantId = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';
const payerId = '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d';
const subscription = {
  subscriptionId: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  merchantId,
  payerId,
  amount: 890,
  currency: 'UYU',
  interval: 'MONTH',
  intervalCount: 3,
  timeZone: 'America/Montevideo',
  status: 'PAST_DUE',
  description: 'Plan <trimestral>',
  nextChargeAt: '2027-04-15T12:00:00.000Z',
  currentPeriodStart: '2027-01-15T12:00:00.000Z',
  currentPeriodEnd: '2027-04-15T12:00:00.000Z',
  createdAt: '2027-01-15T12:00:00.000Z',
  endedAt: null,
} as unknown as Subscription;

const identity = { audit: jest.fn().mockResolvedValue(undefined) };

function controllerWith(found: { subscription: Subscription; invoices: [] } | null = null) {
  const api = {
    merchants: jest.fn().mockResolvedValue([{ merchantId, merchantName: 'Gimnasio' } as Merchant]),
    subscriptions: jest.fn().mockResolvedValue({ rows: [subscription], total: 1, pageCount: 1 }),
    subscription: jest.fn().mockResolvedValue(found),
    localeOf: jest.fn().mockResolvedValue({ timeZone: 'America/Montevideo', currency: 'UYU' }),
  };
  return { controller: new SubscriptionsController(api as unknown as PayinsApi, identity as unknown as DashboardIdentity), api };
}

describe('SubscriptionsController', () => {
  it('lists with the status and payer only when they are the contract’s and a uuid, and escapes what it shows', async () => {
    const { controller, api } = controllerWith();
    for (const query of [{ status: 'PAST_DUE', payerId }, { status: 'LATE', payerId: 'not-a-uuid', page: '2' }, {}]) {
      const { res, answer } = recordingResponse();
      await controller.list(request, res, { merchantId, ...query });
      expect(answer.body).toContain('Plan &lt;trimestral&gt;');
      expect(answer.body).toContain('Every 3 months');
    }
    expect(api.subscriptions.mock.calls.map(([, asked]) => asked as Record<string, unknown>)).toEqual([
      { merchantId, status: 'PAST_DUE', payerId, page: 1, limit: 25 },
      { merchantId, status: undefined, payerId: undefined, page: 2, limit: 25 },
      { merchantId, status: undefined, payerId: undefined, page: 1, limit: 25 },
    ]);
  });

  it('shows a subscription the API shows, and answers 404 for one it does not', async () => {
    const { controller } = controllerWith({ subscription, invoices: [] });
    const { res, answer } = recordingResponse();
    await controller.show(request, res, subscription.subscriptionId, undefined);
    expect(answer.body).toContain('No invoices yet.');
    const { controller: none } = controllerWith(null);
    await expect(none.show(request, recordingResponse().res, subscription.subscriptionId, undefined)).rejects.toMatchObject({
      status: 404,
    });
  });
});
