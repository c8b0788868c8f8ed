import { plainToInstance } from 'class-transformer';
import { SIGNATURE_VERSION_REQUIRED } from '@pcs/http';
import { asBusinessId, Caller } from '@pcs/kernel';
import type { WebhookEndpointService } from '@pcs/notifications';
import { WebhookEndpointController } from './webhook-endpoint.controller';
import { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './webhook-endpoint.dto';

/**
 * Webhook endpoints' controller against its service: one call per route with
 * the merchant typed, a deletion answered with the endpoint's id, and the
 * secret's rotation (money's door: who receives the events) behind version 2
 * of the signature, always. test/webhooks.e2e-spec.ts runs the routes over HTTP.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };

function controllerWith() {
  const endpoints = {
    create: jest.fn().mockResolvedValue({ webhookEndpointId: 'we-1', secret: 'whsec_x' }),
    list: jest.fn().mockResolvedValue([]),
    get: jest.fn().mockResolvedValue({ webhookEndpointId: 'we-1' }),
    update: jest.fn().mockResolvedValue({ webhookEndpointId: 'we-1' }),
    delete: jest.fn().mockResolvedValue(undefined),
    rotateSecret: jest.fn().mockResolvedValue({ webhookEndpointId: 'we-1', secret: 'whsec_y' }),
  };
  return { controller: new WebhookEndpointController(endpoints as unknown as WebhookEndpointService), endpoints };
}

describe('WebhookEndpointController', () => {
  it('creates, updates, deletes and rotates through the service, one call each', async () => {
    const { controller, endpoints } = controllerWith();
    const body = plainToInstance(CreateWebhookEndpointDto, {
      url: 'https://shop.example.com/webhooks/payments',
      enabledEvents: ['payment_intent.succeeded'],
      merchantId: '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f',
    });
    expect(await controller.create(caller, body)).toEqual({ webhookEndpointId: 'we-1', secret: 'whsec_x' });
    expect(endpoints.create).toHaveBeenCalledWith(caller, expect.objectContaining({ url: body.url, merchantId: body.merchantId }));
    await controller.update(caller, 'we-1', plainToInstance(UpdateWebhookEndpointDto, { disabled: true }));
    expect(endpoints.update).toHaveBeenCalledWith(caller, 'we-1', expect.objectContaining({ disabled: true }));
    expect(await controller.delete(caller, 'we-1')).toEqual({ success: true, webhookEndpointId: 'we-1' });
    expect(endpoints.delete).toHaveBeenCalledWith(caller, 'we-1');
    await controller.rotate(caller, 'we-1', { graceMinutes: 60 });
    expect(endpoints.rotateSecret).toHaveBeenCalledWith(caller, 'we-1', 60);
  });

  it('puts the secret’s rotation, and nothing else, behind version 3 of the signature', () => {
    const required = (route: keyof WebhookEndpointController) => versionOf(WebhookEndpointController.prototype[route]);
    for (const route of ['create', 'update', 'delete', 'rotate'] as const) expect(required(route)).toBe(3);
    for (const route of ['list', 'get'] as const) expect(required(route)).toBeUndefined();
  });
});

/** The signing version a route's metadata requires (contract §29), or undefined. */
function versionOf(handler: unknown): number | undefined {
  return (Reflect.getMetadata(SIGNATURE_VERSION_REQUIRED, handler as object) as { version: number } | undefined)?.version;
}
