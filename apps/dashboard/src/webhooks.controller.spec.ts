import type { DashboardIdentity, DashboardUser } from '@pcs/dashboard-identity';
import { recordingResponse } from '@pcs/testing';
import type { PayinsApi } from './payins-api';
import { WebhooksController } from './webhooks.controller';
import { Redirect } from './web';
import type { DashboardRequest } from './web';

/**
 * Webhooks' pages against the payins API and the audit: an endpoint is made
 * for the person's own merchant or none (a person of one merchant always
 * theirs; another business's merchant is a 404 that makes nothing), its secret
 * shown once on the answer; an endpoint is changed or an event redelivered only
 * when the person's own list has it, each audited.
 * test/dashboard-areas.e2e-spec.ts runs the pages in a browser.
 */
const mine = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';
const theirs = '0b7c6e2a-5d4f-4e3b-9a1c-2f8e7d6c5b4a';
const admin: DashboardUser = { userId: 'u-1', businessId: 'b-1', merchantId: null, email: 'ana@example.uy', role: 'admin' };
const requestOf = (user: DashboardUser) =>
  ({ dashboard: { user, csrfToken: 'csrf' }, ip: '203.0.113.7', header: () => 'en' }) as unknown as DashboardRequest;

function controllerWith() {
  const api = {
    merchants: jest.fn().mockResolvedValue([{ merchantId: mine, merchantName: 'Tienda Pocitos', status: 'ACTIVE' }]),
    webhookEndpoints: jest
      .fn()
      .mockResolvedValue([
        { webhookEndpointId: 'we-1', url: 'https://shop.example/hooks', description: null, disabled: false, enabledEvents: ['*'] },
      ]),
    events: jest.fn().mockResolvedValue({ rows: [], total: 0, pageCount: 0 }),
    event: jest.fn(),
    createEndpoint: jest.fn().mockResolvedValue({ webhookEndpointId: 'we-2', secret: 'whsec_once' }),
    updateEndpoint: jest.fn().mockResolvedValue(undefined),
    deleteEndpoint: jest.fn().mockResolvedValue(undefined),
    redeliver: jest.fn().mockResolvedValue({}),
  };
  const identity = { audit: jest.fn().mockResolvedValue(undefined) };
  return { controller: new WebhooksController(api as unknown as PayinsApi, identity as unknown as DashboardIdentity), api, identity };
}

describe('WebhooksController', () => {
  it('makes an endpoint for one of the person’s merchants, shows its secret once, and audits it; another’s merchant makes nothing', async () => {
    const { controller, api, identity } = controllerWith();
    const { res, answer } = recordingResponse();
    await controller.addEndpoint(requestOf(admin), res, { url: ' https://shop.example/hooks ', description: 'Orders', merchantId: mine });
    expect(api.createEndpoint).toHaveBeenCalledWith({ url: 'https://shop.example/hooks', description: 'Orders', merchantId: mine });
    expect(answer.body).toContain('whsec_once');
    expect(identity.audit).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'webhook-endpoint:create', result: 'succeeded', detail: { webhookEndpointId: 'we-2' } }),
    );
    await expect(
      controller.addEndpoint(requestOf(admin), recordingResponse().res, { url: 'https://x.example', merchantId: theirs }),
    ).rejects.toMatchObject({
      status: 404,
    });
    expect(api.createEndpoint).toHaveBeenCalledTimes(1);
  });

  it('makes a merchant person’s endpoint for their merchant, whatever the form says', async () => {
    const { controller, api } = controllerWith();
    const scoped = requestOf({ ...admin, merchantId: mine });
    await controller.addEndpoint(scoped, recordingResponse().res, { url: 'https://shop.example/hooks' });
    expect(api.createEndpoint).toHaveBeenCalledWith({ url: 'https://shop.example/hooks', merchantId: mine });
  });

  it('changes only an endpoint of the person’s own list, with a change it knows, and audits it', async () => {
    const { controller, api, identity } = controllerWith();
    for (const [id, change] of [
      ['we-9', 'disable'],
      ['we-1', 'rename'],
    ])
      await expect(controller.changeEndpoint(requestOf(admin), id, change)).rejects.toMatchObject({ status: 404 });
    expect([api.updateEndpoint, api.deleteEndpoint].map((f) => f.mock.calls.length)).toEqual([0, 0]);
    await expect(controller.changeEndpoint(requestOf(admin), 'we-1', 'disable')).rejects.toBeInstanceOf(Redirect);
    await expect(controller.changeEndpoint(requestOf(admin), 'we-1', 'delete')).rejects.toBeInstanceOf(Redirect);
    expect(api.updateEndpoint).toHaveBeenCalledWith('we-1', { disabled: true });
    expect(api.deleteEndpoint).toHaveBeenCalledWith('we-1');
    expect(identity.audit.mock.calls.map(([entry]) => (entry as { action: string }).action)).toEqual([
      'webhook-endpoint:disable',
      'webhook-endpoint:delete',
    ]);
  });

  it('redelivers only an event the person can read, audited with its type', async () => {
    const { controller, api, identity } = controllerWith();
    api.event.mockResolvedValueOnce(null).mockResolvedValueOnce({ eventId: 'e-1', type: 'payment_intent.succeeded' });
    await expect(controller.redeliver(requestOf(admin), 'e-other')).rejects.toMatchObject({ status: 404 });
    expect(api.redeliver).not.toHaveBeenCalled();
    await expect(controller.redeliver(requestOf(admin), 'e-1')).rejects.toMatchObject({ location: '/webhooks?done=redeliver' });
    expect(api.redeliver).toHaveBeenCalledWith('e-1');
    expect(identity.audit).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'event:redeliver', target: 'e-1', detail: { type: 'payment_intent.succeeded' } }),
    );
  });
});
