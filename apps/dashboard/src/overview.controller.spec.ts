import type { DashboardUser } from '@pcs/dashboard-identity';
import { recordingResponse } from '@pcs/testing';
import type { DashboardRequest } from './web';
import { OverviewController } from './overview.controller';
import type { PayinsApi } from './payins-api';

/**
 * The overview against the payins API (its typed client): a span of 7, 30 or
 * 90 days (anything else is 30), and a merchant filter honoured only for one
 * of the person's own merchants (anything else, another business's included,
 * shows all of theirs, never asks for that merchant). The browser specs
 * (test/dashboard.e2e-spec.ts) render the page.
 */
const user: DashboardUser = { userId: 'u-1', businessId: 'b-1', merchantId: null, email: 'ana@example.uy', role: 'viewer' };
const mine = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';
const theirs = '0b7c6e2a-5d4f-4e3b-9a1c-2f8e7d6c5b4a';
const summary = { dateFrom: '2026-10-29', dateUntil: '2026-11-27', days: [], paymentMethods: [], totals: [] };

function controllerWith() {
  const api = {
    merchants: jest.fn().mockResolvedValue([{ merchantId: mine, merchantName: 'Tienda Pocitos' }]),
    summary: jest.fn().mockResolvedValue(summary),
  };
  return { controller: new OverviewController(api as unknown as PayinsApi), api };
}

const request = () =>
  ({
    dashboard: { user, csrfToken: 'csrf' },
    header: (name: string) => (name === 'accept-language' ? 'es-UY' : undefined),
  }) as unknown as DashboardRequest;

describe('OverviewController', () => {
  it('asks for the span chosen (7, 30 or 90 days; anything else 30) and one of the person’s merchants only', async () => {
    const { controller, api } = controllerWith();
    for (const query of [
      { span: '7', merchantId: mine },
      { span: '90', merchantId: theirs },
      { span: '365', merchantId: 'not-a-uuid' },
      {},
      { span: ['7'], merchantId: [mine] },
    ]) {
      const { res, answer } = recordingResponse();
      await controller.show(request(), res, query);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('<html');
    }
    expect(api.summary.mock.calls).toEqual([
      [user, 7, mine],
      [user, 90, undefined],
      [user, 30, undefined],
      [user, 30, undefined],
      [user, 30, undefined],
    ]);
  });
});
