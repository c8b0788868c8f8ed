import type { DashboardIdentity, DashboardUser } from '@pcs/dashboard-identity';
import { recordingResponse } from '@pcs/testing';
import { LinksController } from './links.controller';
import type { PayinsApi } from './payins-api';
import { Redirect } from './web';
import type { DashboardRequest } from './web';

/**
 * Links' pages against the payins API and the audit: a link is made for one of
 * the person's merchants only, the form's amount read as a decimal with at most
 * four places (anything else is sent as not a number, for the API to refuse),
 * only well-formed processor ids sent; a link is shared or deleted only when
 * the person can read it; each change audited.
 * test/dashboard-areas.e2e-spec.ts runs the pages in a browser.
 */
const mine = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';
const processor = '2c4e6a8b-1d3f-4e5a-9b7c-6d8e0f1a2b3c';
const operator: DashboardUser = { userId: 'u-1', businessId: 'b-1', merchantId: null, email: 'ana@example.uy', role: 'operator' };
const request = { dashboard: { user: operator, csrfToken: 'csrf' }, ip: '203.0.113.7', header: () => 'en' } as unknown as DashboardRequest;

function controllerWith() {
  const api = {
    merchants: jest.fn().mockResolvedValue([{ merchantId: mine, merchantName: 'Tienda Pocitos', status: 'ACTIVE' }]),
    links: jest.fn().mockResolvedValue({ rows: [], total: 0, pageCount: 0 }),
    processorsOf: jest.fn().mockResolvedValue([]),
    createLink: jest.fn().mockResolvedValue({ linkId: 'l-1', amount: 1220, currency: 'UYU' }),
    link: jest.fn(),
    shareLink: jest.fn().mockResolvedValue(undefined),
    deleteLink: jest.fn().mockResolvedValue(undefined),
  };
  const identity = { audit: jest.fn().mockResolvedValue(undefined) };
  return { controller: new LinksController(api as unknown as PayinsApi, identity as unknown as DashboardIdentity), api, identity };
}

const form = (more: Record<string, unknown> = {}) => ({
  merchantId: mine,
  amount: '1220.50',
  vatPercentage: '22',
  currency: 'UYU',
  country: 'URY',
  processor: [processor, 'not-an-id'],
  reference: ' membership ',
  ...more,
});

describe('LinksController', () => {
  it('makes a link of one of the person’s merchants with the form read as the API reads it, audited, then redirects', async () => {
    const { controller, api, identity } = controllerWith();
    await expect(controller.create(request, recordingResponse().res, form())).rejects.toBeInstanceOf(Redirect);
    expect(api.createLink).toHaveBeenCalledWith({
      merchantId: mine,
      amount: 1220.5,
      vatPercentage: 22,
      currency: 'UYU',
      country: 'URY',
      merchantCountryProcessors: [processor],
      reference: 'membership',
    });
    expect(identity.audit).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'link:create', target: 'l-1', result: 'succeeded', detail: { amount: 1220, currency: 'UYU' } }),
    );
  });

  it('sends an amount that is not a plain decimal as not a number, and a foreign merchant makes nothing', async () => {
    const { controller, api } = controllerWith();
    for (const amount of ['1e3', '12.34567', '-5', '0x10', ' ']) {
      await controller.create(request, recordingResponse().res, form({ amount })).catch(() => undefined);
    }
    expect(api.createLink.mock.calls.map(([link]) => (link as { amount: number }).amount)).toEqual([NaN, NaN, NaN, NaN, NaN]);
    await expect(
      controller.create(request, recordingResponse().res, form({ merchantId: '0b7c6e2a-5d4f-4e3b-9a1c-2f8e7d6c5b4a' })),
    ).rejects.toMatchObject({ status: 404 });
    expect(api.createLink).toHaveBeenCalledTimes(5);
  });

  it('shares and deletes only a link the person can read, each audited', async () => {
    const { controller, api, identity } = controllerWith();
    api.link.mockResolvedValueOnce(null).mockResolvedValueOnce(null).mockResolvedValue({ linkId: 'l-1' });
    await expect(
      controller.share(request, recordingResponse().res, 'l-other', { receiverEmail: 'a@b.uy', receiverName: 'A' }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(controller.remove(request, 'l-other')).rejects.toMatchObject({ status: 404 });
    expect([api.shareLink.mock.calls.length, api.deleteLink.mock.calls.length]).toEqual([0, 0]);
    await expect(
      controller.share(request, recordingResponse().res, 'l-1', { receiverEmail: ' ana@example.uy ', receiverName: ' Ana ' }),
    ).rejects.toMatchObject({ location: '/links?done=shared' });
    expect(api.shareLink).toHaveBeenCalledWith('l-1', 'ana@example.uy', 'Ana');
    await expect(controller.remove(request, 'l-1')).rejects.toMatchObject({ location: '/links?done=deleted' });
    expect(api.deleteLink).toHaveBeenCalledWith('l-1');
    expect(identity.audit.mock.calls.map(([entry]) => (entry as { action: string }).action)).toEqual(['link:share', 'link:delete']);
  });
});
