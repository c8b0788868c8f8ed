import { signedRedirectUrl } from '@pcs/kernel';
import { hmacSha256Hex, signingMiddleware, signMessage, signRequestBody, verifyRedirect } from './index';

describe('libs/client signing and verification', () => {
  it('signs the contract test vectors (§5), a request without a body as {}', async () => {
    expect(await hmacSha256Hex('test_secret', '{"amount":100,"currency":"UYU"}')).toBe(
      '8ee2ba75bc2e456fc81722d4b5d7187efb0cd6754d679bb13bf7b3309d0391e4',
    );
    expect(await signRequestBody('test_secret', undefined)).toBe('748a263298986af60d952005bd6587eb7fe36a5a9f1ddaf94ca4cb46729473cb');
  });

  it('signs version 2 over `<timestamp>.<body>` (vectors computed with openssl, §17)', async () => {
    expect(await signRequestBody('test_secret', '{"amount":100,"currency":"UYU"}', 1795400000)).toBe(
      '89c7933af872b465b461ee4e962a2312d409c0ec502665534f4674c76ee1be96',
    );
    expect(await signRequestBody('test_secret', undefined, 1795400000)).toBe(
      '530de017b4c45d09537e2d13b26afb94c17a6469184c5658e31d051ee011ef95',
    );
  });

  it('signs version 3 as the worked example of docs/integration.md (RFC 9421; vectors computed with openssl, §29)', async () => {
    const credentials = { apiKey: 'pk_test_example', apiSecret: 'test_secret' };
    const refund = await signMessage(
      credentials,
      {
        method: 'POST',
        url: 'https://api.example/payment-intent/3f1c2b9a-0d4e-4f7a-9a51-6b2f0c8e7d10/refund',
        body: '{"requestedRefundAmount":100}',
      },
      { created: 1795400000, nonce: 'wX3c8kJ2mN5pQ7rT9vY1zA' },
    );
    expect(refund.base).toBe(
      [
        '"@method": POST',
        '"@path": /payment-intent/3f1c2b9a-0d4e-4f7a-9a51-6b2f0c8e7d10/refund',
        '"content-digest": sha-256=:CSHhfyyUE5L+WYKumVPQYhS6AaSmRETGXRFMXzJ9dUI=:',
        '"@signature-params": ("@method" "@path" "content-digest");created=1795400000;nonce="wX3c8kJ2mN5pQ7rT9vY1zA";keyid="pk_test_example";alg="hmac-sha256"',
      ].join('\n'),
    );
    expect(refund.headers).toEqual({
      'content-digest': 'sha-256=:CSHhfyyUE5L+WYKumVPQYhS6AaSmRETGXRFMXzJ9dUI=:',
      'signature-input':
        'pcs=("@method" "@path" "content-digest");created=1795400000;nonce="wX3c8kJ2mN5pQ7rT9vY1zA";keyid="pk_test_example";alg="hmac-sha256"',
      signature: 'pcs=:DdeLFVThobIZwjMszgU2MpHBD38VroTRBVvndf0PN/I=:',
    });
    const read = await signMessage(
      credentials,
      { method: 'GET', url: 'https://api.example/payment-intent?page=1&limit=10' },
      { created: 1795400000, nonce: 'Qm9uZGlhLTIwMjYtMTEtMjk' },
    );
    expect(read.headers).toEqual({
      'signature-input':
        'pcs=("@method" "@path" "@query");created=1795400000;nonce="Qm9uZGlhLTIwMjYtMTEtMjk";keyid="pk_test_example";alg="hmac-sha256"',
      signature: 'pcs=:/Z4BBYar49jQiYtwHE2C2LpaMFIKyWW95K3fcHSPDZE=:',
    });
  });

  it('signs every request version 3 with a nonce of its own: two equal changes in one second carry different signatures', async () => {
    const middleware = signingMiddleware({ apiKey: 'pk_test', apiSecret: 'test_secret' });
    const send = async (method: string, body?: string) => {
      const request = new Request('http://localhost/payer', { method, body, headers: body ? { 'content-type': 'application/json' } : {} });
      const signed = (await middleware.onRequest!({ request } as never)) as Request;
      return {
        input: signed.headers.get('signature-input')!,
        signature: signed.headers.get('signature'),
        digest: signed.headers.get('content-digest'),
        v1: signed.headers.get('api-key'),
      };
    };
    const first = await send('POST', '{"firstName":"Ana"}');
    const again = await send('POST', '{"firstName":"Ana"}');
    const removed = await send('DELETE');
    expect(again.signature).not.toBe(first.signature);
    expect(first.digest).toBe(again.digest);
    expect(first.input).toMatch(
      /^pcs=\("@method" "@path" "content-digest"\);created=\d+;nonce="[A-Za-z0-9_-]{16,64}";keyid="pk_test";alg="hmac-sha256"$/,
    );
    expect(removed.input).toMatch(/^pcs=\("@method" "@path"\);/);
    expect(removed.digest).toBeNull();
    expect(first.v1).toBeNull();
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

  it('verifies the contract vector (§13) on a URL with its own query and fragment, and refuses what was changed', async () => {
    const parameters = {
      paymentIntentId: '3f1c2b9a-0d4e-4f7a-9a51-6b2f0c8e7d10',
      externalReference: 'order #42',
      status: 'APPROVED',
      timestamp: '1795400000',
    };
    const at = new Date(1795400000 * 1000 + 10_000);
    const url = signedRedirectUrl('https://shop.example/return?cart=7#done', parameters, 'test_secret');
    // The contract's vector, computed with openssl (libs/kernel's redirect-signature.spec.ts says how).
    expect(new URL(url).searchParams.get('signature')).toBe('7d54fb584a9157698b4f265747153e36e6190e76987c0a2073e53edba68dee99');
    expect(await verifyRedirect(url, 'test_secret', { now: at })).toEqual({ valid: true, parameters });
    const tampered = new URL(url);
    tampered.searchParams.set('status', 'REJECTED');
    expect(await verifyRedirect(tampered, 'test_secret', { now: at })).toEqual({ valid: false, reason: 'BAD_SIGNATURE' });
    expect(await verifyRedirect(url, 'other_secret', { now: at })).toEqual({ valid: false, reason: 'BAD_SIGNATURE' });
    const missing = new URL(url);
    missing.searchParams.delete('timestamp');
    expect(await verifyRedirect(missing, 'test_secret', { now: at })).toEqual({ valid: false, reason: 'MISSING_PARAMETER' });
    const later = new Date(at.getTime() + 3600_000);
    expect(await verifyRedirect(url, 'test_secret', { now: later })).toEqual({ valid: false, reason: 'STALE' });
    expect((await verifyRedirect(url, 'test_secret', { now: later, maxAgeSeconds: 7200 })).valid).toBe(true);
  });

  it('verifies the raw query of a return whose externalReference holds a space, a slash and !()', async () => {
    // As the service's redirect carries it; the signature computed with openssl over these very bytes.
    const query =
      'externalReference=order+1001%2FA+%28gift%29%21&paymentIntentId=3f1c2b9a-0d4e-4f7a-9a51-6b2f0c8e7d10&status=APPROVED' +
      '&timestamp=1795400000&signature=10134231ce423ab067452eb48cffe89ebe1a4811f748648e1da9f37c313e6351';
    const at = new Date(1795400000 * 1000);
    const verdict = await verifyRedirect(`https://shop.example/return?${query}`, 'test_secret', { now: at });
    expect(verdict).toEqual({
      valid: true,
      parameters: {
        externalReference: 'order 1001/A (gift)!',
        paymentIntentId: '3f1c2b9a-0d4e-4f7a-9a51-6b2f0c8e7d10',
        status: 'APPROVED',
        timestamp: '1795400000',
      },
    });
    // The same value written with %20 (not as the service writes it) is another query: not what was signed.
    const respelled = `https://shop.example/return?${query.replace('order+1001', 'order%201001')}`;
    expect(await verifyRedirect(respelled, 'test_secret', { now: at })).toEqual({ valid: false, reason: 'BAD_SIGNATURE' });
  });
});
