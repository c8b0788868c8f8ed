import type { DLocalNotifications } from '@pcs/dlocal';
import type { RawBodyRequest } from '@pcs/http';
import type { MercadoPagoNotifications, MercadoPagoRecords } from '@pcs/mercado-pago';
import type { ProcessorNotices } from '@pcs/processor-reports';
import { recordingResponse } from '@pcs/testing';
import type { Request } from 'express';
import { DLocalController } from './dlocal.controller';
import { MercadoPagoController } from './mercado-pago.controller';

const MERCHANT = '8D2B9F4E-1C3A-4B5D-9E6F-7A8B9C0D1E2F';
const PAYIN = '0b7c6e2a-5d4f-4e3b-9a1c-2f8e7d6c5b4a';
const notice = { kind: 'PAYMENT', reference: '1300000001' };

function applier() {
  const applied: unknown[][] = [];
  const service = { apply: jest.fn((...args: unknown[]) => (applied.push(args), Promise.resolve('applied'))) };
  return { service: service as unknown as ProcessorNotices, applied, mock: service };
}

/**
 * The processors' public routes (contracts §16, §20) against their adapters: a notification is
 * read (and its signature checked) by the processor's adapter, then applied for the merchant of
 * its path (lower-cased); the payer's return goes on to the page that opened the attempt, its
 * outcome taken only from what the service reads itself. test/mercado-pago.e2e-spec.ts and
 * test/dlocal.e2e-spec.ts run them over HTTP against the stand-ins.
 */
describe('MercadoPagoController', () => {
  it('reads a notification with its signature, request id, topic and data id, then applies it for the path’s merchant', async () => {
    const read = jest.fn().mockResolvedValue(notice);
    const { service, applied } = applier();
    const controller = new MercadoPagoController({ read } as unknown as MercadoPagoNotifications, service, {} as MercadoPagoRecords);
    const answer = await controller.notify(MERCHANT, { 'data.id': '1300000001', type: 'payment' }, undefined, 'ts=1,v1=abc', 'req-1');
    expect(answer).toEqual({ received: true, result: 'applied' });
    expect(read).toHaveBeenCalledWith(MERCHANT, 'payment', { signature: 'ts=1,v1=abc', requestId: 'req-1', dataId: '1300000001' });
    expect(applied).toEqual([[MERCHANT.toLowerCase(), 'MERCADO_PAGO', notice]]);
    // The older `topic`, or the body's `type`, names it when the query's `type` does not; a non-string is no topic.
    await controller.notify(MERCHANT, { topic: 'merchant_order' }, undefined, undefined, undefined);
    await controller.notify(MERCHANT, { type: ['payment'] }, { type: 'payment' }, undefined, undefined);
    expect(read.mock.calls.map((call) => call[1])).toEqual(['payment', 'merchant_order', 'payment']);
  });

  it('sends the returning payer to the page that opened the attempt, never trusting what Mercado Pago appended', async () => {
    const records = { checkoutOfPayin: jest.fn().mockResolvedValue({ returnUrl: 'https://pay.example/pay/link-1' }) };
    const controller = new MercadoPagoController(
      {} as MercadoPagoNotifications,
      applier().service,
      records as unknown as MercadoPagoRecords,
    );
    const back = recordingResponse();
    await controller.returned(PAYIN.toUpperCase(), 'es', back.res);
    expect(records.checkoutOfPayin).toHaveBeenCalledWith(PAYIN);
    expect([back.answer.redirect, back.answer.headers['Cache-Control']]).toEqual(['https://pay.example/pay/link-1', 'no-store']);
    // Not a payin id, or one without a page to return to: the processing page (404 for an unknown one), nothing read.
    records.checkoutOfPayin.mockClear();
    const odd = recordingResponse();
    await controller.returned('../etc', 'en', odd.res);
    expect(odd.answer.status).toBe(404);
    expect(records.checkoutOfPayin).not.toHaveBeenCalled();
    records.checkoutOfPayin.mockResolvedValue({ returnUrl: null });
    const api = recordingResponse();
    await controller.returned(PAYIN, 'en', api.res);
    expect([api.answer.status, api.answer.body]).toEqual([200, expect.stringContaining('Mercado Pago')]);
  });
});

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
