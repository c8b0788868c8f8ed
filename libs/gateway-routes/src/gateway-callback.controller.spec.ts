import type { GatewayEvent, GatewayRegistry } from '@pcs/gateways';
import type { RawBodyRequest } from '@pcs/http';
import { DomainError } from '@pcs/kernel';
import type { GatewayEventsService } from '@pcs/payments';
import type { Request } from 'express';
import { GatewayCallbackController } from './gateway-callback.controller';

const event: GatewayEvent = { gateway: 'SANDBOX', eventId: 'sbx-1:1', reference: 'sbx-1', outcome: 'REJECTED', error: 'declined' };

function controllerWith(verify: (headers: unknown, raw: Buffer) => GatewayEvent) {
  const verified: { headers: unknown; raw: string }[] = [];
  const sandbox = {
    verifyCallback: (headers: unknown, raw: Buffer) => {
      verified.push({ headers, raw: raw.toString() });
      return verify(headers, raw);
    },
  };
  // Mercado Pago's notifications have a route of their own: its adapter lacks the SignsCallbacks capability.
  const mercadoPago = { name: 'MERCADO_PAGO' };
  const registry = {
    get: (name: string) => {
      if (name === 'MERCADO_PAGO') return mercadoPago;
      if (name !== 'SANDBOX') throw new Error(`no gateway ${name}`);
      return sandbox;
    },
  } as unknown as GatewayRegistry;
  const events = { apply: jest.fn().mockResolvedValue('applied') };
  return { controller: new GatewayCallbackController(registry, events as unknown as GatewayEventsService), events, verified };
}

const request = (raw?: string) =>
  ({ headers: { 'x-sandbox-signature': 'sig' }, rawBody: raw === undefined ? undefined : Buffer.from(raw) }) as unknown as Request &
    RawBodyRequest;

/**
 * Where gateways report back (contract §10): the gateway named in the path (any case) verifies its
 * own signature over the raw bytes before anything is applied; an unknown gateway or a refused
 * signature applies nothing. test/payment-attempts.e2e-spec.ts posts signed callbacks over HTTP.
 */
describe('GatewayCallbackController', () => {
  it('has the named gateway verify the raw bytes, then applies the event it read', async () => {
    const { controller, events, verified } = controllerWith(() => event);
    expect(await controller.receive('sandbox', request('{"outcome":"REJECTED"}'))).toEqual({ received: true, result: 'applied' });
    expect(verified).toEqual([{ headers: { 'x-sandbox-signature': 'sig' }, raw: '{"outcome":"REJECTED"}' }]);
    expect(events.apply).toHaveBeenCalledWith(event);
    // No body at all is verified as empty bytes, never skipped.
    await controller.receive('SANDBOX', request());
    expect(verified[1].raw).toBe('');
  });

  it('refuses an unknown gateway, one without signed callbacks, and a signature its gateway refuses, applying nothing', async () => {
    const { controller, events } = controllerWith(() => {
      throw new DomainError('GATEWAY_CALLBACK_REJECTED');
    });
    await expect(controller.receive('paypal', request('{}'))).rejects.toMatchObject({ code: 'GATEWAY_CALLBACK_REJECTED' });
    await expect(controller.receive('mercado_pago', request('{}'))).rejects.toMatchObject({ code: 'GATEWAY_CALLBACK_REJECTED' });
    await expect(controller.receive('sandbox', request('{}'))).rejects.toMatchObject({ code: 'GATEWAY_CALLBACK_REJECTED' });
    expect(events.apply).not.toHaveBeenCalled();
  });
});
