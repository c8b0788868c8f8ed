import { signedRedirectUrl } from '@pcs/kernel';
import { hmacSha256Hex, signRequestBody, verifyRedirect } from './index';

describe('libs/client signing and verification', () => {
  it('signs the contract test vectors (§5), a request without a body as {}', async () => {
    expect(await hmacSha256Hex('test_secret', '{"amount":100,"currency":"UYU"}')).toBe(
      '8ee2ba75bc2e456fc81722d4b5d7187efb0cd6754d679bb13bf7b3309d0391e4',
    );
    expect(await signRequestBody('test_secret', undefined)).toBe('748a263298986af60d952005bd6587eb7fe36a5a9f1ddaf94ca4cb46729473cb');
  });

  it('verifies a redirect the service signed, and refuses a changed, unsigned or stale one', async () => {
    const now = new Date('2026-11-23T12:00:00Z');
    const parameters = {
      paymentIntentId: '4b6f3c1e-8a2d-4f5e-9c7b-1d2e3f4a5b6c',
      externalReference: 'order 7 & café',
      status: 'APPROVED',
      timestamp: String(now.getTime() / 1000),
    };
    const url = signedRedirectUrl('https://shop.example/return?cart=1', parameters, 'shop-secret');
    expect(await verifyRedirect(url, 'shop-secret', { now })).toEqual({ valid: true, parameters });
    expect(await verifyRedirect(url.replace('APPROVED', 'REJECTED'), 'shop-secret', { now })).toEqual({
      valid: false,
      reason: 'BAD_SIGNATURE',
    });
    expect(await verifyRedirect(url, 'another-secret', { now })).toEqual({ valid: false, reason: 'BAD_SIGNATURE' });
    expect(await verifyRedirect('https://shop.example/return?status=APPROVED', 'shop-secret', { now })).toEqual({
      valid: false,
      reason: 'MISSING_PARAMETER',
    });
    expect(await verifyRedirect(url, 'shop-secret', { now: new Date(now.getTime() + 600_000) })).toEqual({ valid: false, reason: 'STALE' });
  });
});
