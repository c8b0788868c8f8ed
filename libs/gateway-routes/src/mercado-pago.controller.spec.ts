import type { MercadoPagoNotifications, MercadoPagoRecords } from '@pcs/mercado-pago';
import { recordingResponse } from '@pcs/testing';
import { MercadoPagoController } from './mercado-pago.controller';
import { applier, MERCHANT, notice, PAYIN } from '../test/notices.fixture';

/**
 * Mercado Pago's public routes (contract §16) against its adapter: a notification is
 * read (and its signature checked) by the processor's adapter, then applied for the merchant of
 * its path (lower-cased); the payer's return goes on to the page that opened the attempt, its
 * outcome taken only from what the service reads itself. test/mercado-pago.e2e-spec.ts runs them
 * over HTTP against the stand-in.
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
