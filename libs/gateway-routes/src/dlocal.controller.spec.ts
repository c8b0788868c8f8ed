import type { DLocalNotifications } from '@pcs/dlocal';
import type { RawBodyRequest } from '@pcs/http';
import { recordingResponse } from '@pcs/testing';
import type { Request } from 'express';
import { DLocalController } from './dlocal.controller';
import { applier, MERCHANT, notice, PAYIN } from '../test/notices.fixture';

/**
 * dLocal's public routes (contract §20) against its adapter: a notification read over its raw bytes
 * and headers, then applied for the path's merchant; the payer's signed return, whose outcome is
 * only what the service reads from dLocal. test/dlocal.e2e-spec.ts runs them against the stand-in.
 */
describe('DLocalController', () => {
  it('has the adapter read a notification over its raw bytes and headers, then applies it for the path’s merchant', async () => {
    const read = jest.fn().mockResolvedValue(notice);
    const { service, applied } = applier();
    const controller = new DLocalController({ read } as unknown as DLocalNotifications, service);
    const request = {
      headers: { authorization: 'V2-HMAC-SHA256, Signature: x' },
      rawBody: Buffer.from('{"id":"D-1"}'),
    } as unknown as Request & RawBodyRequest;
    expect(await controller.notify(MERCHANT, request)).toEqual({ received: true, result: 'applied' });
    expect(read).toHaveBeenCalledWith(MERCHANT, request.headers, Buffer.from('{"id":"D-1"}'));
    expect(applied).toEqual([[MERCHANT.toLowerCase(), 'DLOCAL', notice]]);
  });

  it('takes a returning payer’s POST only when dLocal signed it, applies what was read from dLocal, and goes on', async () => {
    const returned = jest.fn().mockResolvedValue({ merchantId: 'm-1', notice, returnUrl: 'https://shop.example/back' });
    const { service, applied } = applier();
    const controller = new DLocalController({ returned } as unknown as DLocalNotifications, service);
    const ok = recordingResponse();
    await controller.returnedByPost(
      PAYIN,
      { paymentId: 'D-1', status: 'PAID', date: '2026-11-29', signature: 's', extra: 'x' },
      'es',
      ok.res,
    );
    expect(returned).toHaveBeenCalledWith(PAYIN, { paymentId: 'D-1', status: 'PAID', date: '2026-11-29', signature: 's' });
    expect([ok.answer.redirect, applied]).toEqual(['https://shop.example/back', [['m-1', 'DLOCAL', notice]]]);
    // Fields that are not short strings are sent as empty; a return the adapter does not verify is a 400 page, nothing applied.
    returned.mockResolvedValue(null);
    const forged = recordingResponse();
    await controller.returnedByPost(PAYIN, { paymentId: ['D-1'], status: 'x'.repeat(300) }, 'en', forged.res);
    expect(returned).toHaveBeenLastCalledWith(PAYIN, { paymentId: '', status: '', date: '', signature: '' });
    expect(forged.answer.status).toBe(400);
    expect(applied).toHaveLength(1);
  });

  it('sends a reload of the return address on, reading nothing: 404 for an unknown attempt', async () => {
    const returnUrlOf = jest.fn().mockResolvedValueOnce('https://pay.example/checkout/ck_1').mockResolvedValueOnce(undefined);
    const controller = new DLocalController({ returnUrlOf } as unknown as DLocalNotifications, applier().service);
    const first = recordingResponse();
    await controller.returned(PAYIN, 'es', first.res);
    expect(first.answer.redirect).toBe('https://pay.example/checkout/ck_1');
    const unknown = recordingResponse();
    await controller.returned(PAYIN, 'es', unknown.res);
    expect(unknown.answer.status).toBe(404);
  });
});
