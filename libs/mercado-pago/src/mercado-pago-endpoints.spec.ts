import type { ProcessorEndpoints } from '@pcs/gateways';
import type { MercadoPagoNotifications } from './mercado-pago-notifications';
import type { MercadoPagoRecords } from './persistence/mercado-pago-records.repository';
import { MercadoPagoEndpoints } from './mercado-pago-endpoints';

const MERCHANT = '8D2B9F4E-1C3A-4B5D-9E6F-7A8B9C0D1E2F';
const PAYIN = '0b7c6e2a-5d4f-4e3b-9a1c-2f8e7d6c5b4a';
const request = (query: Record<string, unknown>, body?: Record<string, unknown>, headers: Record<string, string> = {}) => ({
  query,
  body,
  headers,
  rawBody: Buffer.alloc(0),
});

/**
 * How Mercado Pago's public routes are read (contract §16): the notification's topic, signature,
 * request id and resource as Mercado Pago documents them; the payer's return by our attempt's id
 * only, never what Mercado Pago appended.
 */
describe('MercadoPagoEndpoints', () => {
  it('reads a notification’s topic from the query’s type, the older topic or the body’s type, with its signature and data id', async () => {
    const read = jest.fn().mockResolvedValue({ kind: 'IGNORED' });
    const routes = new MercadoPagoEndpoints({ read } as unknown as MercadoPagoNotifications, {} as MercadoPagoRecords);
    await routes.readNotification(
      MERCHANT,
      request({ 'data.id': '1300000001', type: 'payment' }, undefined, { 'x-signature': 'ts=1,v1=abc', 'x-request-id': 'req-1' }),
    );
    expect(read).toHaveBeenCalledWith(MERCHANT, 'payment', { signature: 'ts=1,v1=abc', requestId: 'req-1', dataId: '1300000001' });
    await routes.readNotification(MERCHANT, request({ topic: 'merchant_order' }));
    await routes.readNotification(MERCHANT, request({ type: ['payment'] }, { type: 'payment' }));
    expect(read.mock.calls.map((call) => call[1])).toEqual(['payment', 'merchant_order', 'payment']);
    expect(read.mock.calls[1][2]).toEqual({ signature: undefined, requestId: undefined, dataId: undefined });
  });

  it('sends a returning payer to the attempt’s page by our id, lower-cased; anything else is unknown, nothing read', async () => {
    const checkoutOfPayin = jest.fn().mockResolvedValueOnce({ returnUrl: 'https://pay.example/pay/link-1' }).mockResolvedValueOnce(null);
    const routes = new MercadoPagoEndpoints({} as MercadoPagoNotifications, { checkoutOfPayin } as unknown as MercadoPagoRecords);
    expect(await routes.payerReturned(PAYIN.toUpperCase())).toEqual({ kind: 'BACK', returnUrl: 'https://pay.example/pay/link-1' });
    expect(checkoutOfPayin).toHaveBeenCalledWith(PAYIN);
    expect(await routes.payerReturned(PAYIN)).toEqual({ kind: 'UNKNOWN' });
    expect(await routes.payerReturned('../etc')).toEqual({ kind: 'UNKNOWN' });
    expect(checkoutOfPayin).toHaveBeenCalledTimes(2);
    // Checkout Pro returns by a GET only: a POST to its return address finds no route.
    expect((routes as ProcessorEndpoints).payerPostedBack).toBeUndefined();
  });
});
