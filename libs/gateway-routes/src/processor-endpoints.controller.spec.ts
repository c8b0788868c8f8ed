import { GatewayRegistry, type PayerReturn, type ProcessorEndpoints } from '@pcs/gateways';
import type { RawBodyRequest } from '@pcs/http';
import { recordingResponse } from '@pcs/testing';
import type { Request } from 'express';
import { ProcessorEndpointsController } from './processor-endpoints.controller';
import { applier, MERCHANT, notice, PAYIN } from '../test/notices.fixture';

/**
 * The one entry of the processors' public routes (contracts §16, §20): it dispatches by the path's
 * processor to the reading its library registered, applies a notification for the path's merchant
 * (lower-cased) and sends a returning payer on. test/mercado-pago.e2e-spec.ts and
 * test/dlocal.e2e-spec.ts run it over HTTP against the processors' stand-ins.
 */
function world(routes: Partial<ProcessorEndpoints> = {}) {
  const registry = new GatewayRegistry();
  const reading = {
    path: 'acme-pay',
    gateway: 'ACME_PAY',
    displayName: 'Acme Pay',
    readNotification: jest.fn().mockResolvedValue(notice),
    payerReturned: jest.fn<Promise<PayerReturn>, [string]>().mockResolvedValue({ kind: 'UNKNOWN' }),
  };
  registry.registerEndpoints({ ...reading, ...routes });
  const { service, applied } = applier();
  return { controller: new ProcessorEndpointsController(registry, service), reading, applied };
}

const request = (extra: Partial<Request & RawBodyRequest> = {}) =>
  ({
    query: { 'data.id': '1' },
    headers: { 'x-signature': 'ts=1,v1=a' },
    body: { type: 'payment' },
    rawBody: Buffer.from('{"type":"payment"}'),
    ...extra,
  }) as unknown as Request & RawBodyRequest;

describe('ProcessorEndpointsController', () => {
  it('has the path’s processor read a notification as it arrived, then applies it for the path’s merchant as that gateway’s', async () => {
    const { controller, reading, applied } = world();
    expect(await controller.notify('acme-pay', MERCHANT, request())).toEqual({ received: true, result: 'applied' });
    expect(reading.readNotification).toHaveBeenCalledWith(MERCHANT, {
      query: { 'data.id': '1' },
      headers: { 'x-signature': 'ts=1,v1=a' },
      body: { type: 'payment' },
      rawBody: Buffer.from('{"type":"payment"}'),
    });
    expect(applied).toEqual([[MERCHANT.toLowerCase(), 'ACME_PAY', notice]]);
    // A body that is not an object is none; no raw body is an empty one.
    await controller.notify('acme-pay', MERCHANT, request({ body: ['x'], rawBody: undefined }));
    expect(reading.readNotification).toHaveBeenLastCalledWith(
      MERCHANT,
      expect.objectContaining({ body: undefined, rawBody: Buffer.alloc(0) }),
    );
  });

  it('answers 404 for a processor nobody registered, reading and applying nothing', async () => {
    const { controller, reading, applied } = world();
    await expect(controller.notify('mercado-libre', MERCHANT, request())).rejects.toMatchObject({ status: 404 });
    await expect(controller.returned('dlocal', PAYIN, 'es', recordingResponse().res)).rejects.toMatchObject({ status: 404 });
    expect([reading.readNotification.mock.calls.length, applied]).toEqual([0, []]);
  });

  it('sends a returning payer on to the page that opened the attempt; without one, the processing page; unknown, 404', async () => {
    const { controller, reading } = world();
    reading.payerReturned.mockResolvedValueOnce({ kind: 'BACK', returnUrl: 'https://pay.example/pay/link-1' });
    const back = recordingResponse();
    await controller.returned('acme-pay', PAYIN, 'es', back.res);
    expect([back.answer.redirect, back.answer.headers['Cache-Control']]).toEqual(['https://pay.example/pay/link-1', 'no-store']);
    reading.payerReturned.mockResolvedValueOnce({ kind: 'BACK', returnUrl: null });
    const api = recordingResponse();
    await controller.returned('acme-pay', PAYIN, 'en', api.res);
    expect([api.answer.status, api.answer.body]).toEqual([200, expect.stringContaining('Acme Pay')]);
    const unknown = recordingResponse();
    await controller.returned('acme-pay', PAYIN, 'en', unknown.res);
    expect(unknown.answer.status).toBe(404);
  });

  it('takes a posted-back payer only where the processor posts back: what it read is applied, a refused return is a 400 page', async () => {
    const posted = world();
    await expect(posted.controller.postedBack('acme-pay', PAYIN, 'es', request(), recordingResponse().res)).rejects.toMatchObject({
      status: 404,
    });
    const payerPostedBack = jest
      .fn()
      .mockResolvedValueOnce({ kind: 'BACK', returnUrl: 'https://shop.example/back', learned: { merchantId: 'm-1', notice } })
      .mockResolvedValueOnce({ kind: 'REFUSED' });
    const { controller, applied } = world({ payerPostedBack });
    const ok = recordingResponse();
    await controller.postedBack('acme-pay', PAYIN, 'es', request(), ok.res);
    expect([ok.answer.redirect, applied]).toEqual(['https://shop.example/back', [['m-1', 'ACME_PAY', notice]]]);
    const forged = recordingResponse();
    await controller.postedBack('acme-pay', PAYIN, 'es', request(), forged.res);
    expect([forged.answer.status, applied.length]).toEqual([400, 1]);
  });
});
