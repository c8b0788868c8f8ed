import type { DLocalNotifications } from './dlocal-notifications';
import { DLocalEndpoints } from './dlocal-endpoints';

const MERCHANT = '8D2B9F4E-1C3A-4B5D-9E6F-7A8B9C0D1E2F';
const PAYIN = '0b7c6e2a-5d4f-4e3b-9a1c-2f8e7d6c5b4a';
const notice = { kind: 'IGNORED' } as const;
const request = (body?: Record<string, unknown>) => ({
  query: {},
  body,
  headers: { authorization: 'V2-HMAC-SHA256, Signature: x' },
  rawBody: Buffer.from('{"id":"D-1"}'),
});

/**
 * How dLocal's public routes are read (contract §20): a notification over its raw bytes and
 * headers; the payer posted back with dLocal's signed fields, each a short string or empty; a
 * reload of the return address reading nothing.
 */
describe('DLocalEndpoints', () => {
  it('has a notification verified over its raw bytes and headers', async () => {
    const read = jest.fn().mockResolvedValue(notice);
    const routes = new DLocalEndpoints({ read } as unknown as DLocalNotifications);
    expect(await routes.readNotification(MERCHANT, request())).toBe(notice);
    expect(read).toHaveBeenCalledWith(MERCHANT, request().headers, Buffer.from('{"id":"D-1"}'));
  });

  it('takes a posted-back payer only when dLocal signed the fields, with what was read from dLocal to apply', async () => {
    const returned = jest
      .fn()
      .mockResolvedValueOnce({ merchantId: 'm-1', notice, returnUrl: 'https://shop.example/back' })
      .mockResolvedValueOnce({ merchantId: 'm-1', notice: null, returnUrl: null })
      .mockResolvedValueOnce(null);
    const routes = new DLocalEndpoints({ returned } as unknown as DLocalNotifications);
    const signed = { paymentId: 'D-1', status: 'PAID', date: '2026-11-29', signature: 's', extra: 'x' };
    expect(await routes.payerPostedBack(PAYIN, request(signed))).toEqual({
      kind: 'BACK',
      returnUrl: 'https://shop.example/back',
      learned: { merchantId: 'm-1', notice },
    });
    expect(returned).toHaveBeenCalledWith(PAYIN, { paymentId: 'D-1', status: 'PAID', date: '2026-11-29', signature: 's' });
    expect(await routes.payerPostedBack(PAYIN, request(signed))).toEqual({ kind: 'BACK', returnUrl: null });
    // Fields that are not short strings are sent as empty; a return that does not verify is refused.
    expect(await routes.payerPostedBack(PAYIN, request({ paymentId: ['D-1'], status: 'x'.repeat(300) }))).toEqual({ kind: 'REFUSED' });
    expect(returned).toHaveBeenLastCalledWith(PAYIN, { paymentId: '', status: '', date: '', signature: '' });
  });

  it('sends a reload of the return address on, reading nothing: unknown for an attempt it has no record of', async () => {
    const returnUrlOf = jest
      .fn()
      .mockResolvedValueOnce('https://pay.example/checkout/ck_1')
      .mockResolvedValueOnce(null)
      .mockResolvedValueOnce(undefined);
    const routes = new DLocalEndpoints({ returnUrlOf } as unknown as DLocalNotifications);
    expect(await routes.payerReturned(PAYIN)).toEqual({ kind: 'BACK', returnUrl: 'https://pay.example/checkout/ck_1' });
    expect(await routes.payerReturned(PAYIN)).toEqual({ kind: 'BACK', returnUrl: null });
    expect(await routes.payerReturned(PAYIN)).toEqual({ kind: 'UNKNOWN' });
  });
});
