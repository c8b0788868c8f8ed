import * as fs from 'node:fs';
import * as path from 'node:path';
import { redirectSigningBase, signedRedirectUrl, signRedirect } from './redirect-signature';

const PARAMETERS = {
  paymentIntentId: '3f1c2b9a-0d4e-4f7a-9a51-6b2f0c8e7d10',
  externalReference: 'order #42',
  status: 'APPROVED',
  timestamp: '1795400000',
};
// Computed with openssl, not with this code:
// printf '%s' 'externalReference=order+%2342&paymentIntentId=…&status=APPROVED&timestamp=1795400000' | openssl dgst -sha256 -hmac test_secret
const VECTOR = '7d54fb584a9157698b4f265747153e36e6190e76987c0a2073e53edba68dee99';
// A space, a slash and the characters encodeURIComponent leaves alone (the old base differed there):
// printf '%s' 'externalReference=order+1001%2FA+%28gift%29%21&paymentIntentId=…&status=APPROVED&timestamp=1795400000' | openssl dgst -sha256 -hmac test_secret
const SLASH_VECTOR = '10134231ce423ab067452eb48cffe89ebe1a4811f748648e1da9f37c313e6351';

describe('the signed return to the merchant (contract §13)', () => {
  it('signs the four parameters sorted by name, form-encoded as in the query string, with the API secret', () => {
    expect(redirectSigningBase(PARAMETERS)).toBe(
      'externalReference=order+%2342&paymentIntentId=3f1c2b9a-0d4e-4f7a-9a51-6b2f0c8e7d10&status=APPROVED&timestamp=1795400000',
    );
    expect(signRedirect(PARAMETERS, 'test_secret')).toBe(VECTOR);
    const slashed = { ...PARAMETERS, externalReference: 'order 1001/A (gift)!' };
    expect(redirectSigningBase(slashed)).toBe(
      'externalReference=order+1001%2FA+%28gift%29%21&paymentIntentId=3f1c2b9a-0d4e-4f7a-9a51-6b2f0c8e7d10&status=APPROVED&timestamp=1795400000',
    );
    expect(signRedirect(slashed, 'test_secret')).toBe(SLASH_VECTOR);
  });

  it('signs each pair exactly as the redirect carries it: the raw query verifies without decoding anything', () => {
    const slashed = { ...PARAMETERS, externalReference: 'order 1001/A (gift)!' };
    const url = signedRedirectUrl('https://shop.example/return?cart=7', slashed, 'test_secret');
    const pairs = new URL(url).search.slice(1).split('&');
    const signed = pairs.filter((pair) => !pair.startsWith('signature=') && !pair.startsWith('cart=')).sort();
    expect(signed.join('&')).toBe(redirectSigningBase(slashed));
    expect(pairs).toContain(`signature=${SLASH_VECTOR}`);
  });

  // Verifying what this signs: libs/client's verifyRedirect (client.spec.ts), the helper merchants use.
  it("adds them to the merchant's URL, keeping its own query", () => {
    const url = signedRedirectUrl('https://shop.example/return?cart=7#done', PARAMETERS, 'test_secret');
    const parsed = new URL(url);
    expect(parsed.searchParams.get('cart')).toBe('7');
    expect(parsed.hash).toBe('#done');
    expect(parsed.searchParams.get('externalReference')).toBe('order #42');
    expect(parsed.searchParams.get('signature')).toBe(VECTOR);
  });

  it("the docs' few lines of Node verify what the service signs, and refuse a tampered return", () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'docs', 'decisions.md'), 'utf8');
    const code = /```js\n([\s\S]*?function verifyReturn[\s\S]*?)```/.exec(readme)?.[1];
    expect(code).toBeDefined();
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const verifyReturn = new Function('require', `${code}\nreturn verifyReturn;`)(require) as (url: URL, secret: string) => boolean;
    const fresh = { ...PARAMETERS, timestamp: String(Math.floor(Date.now() / 1000)) };
    const url = new URL(signedRedirectUrl('https://shop.example/return?cart=7', fresh, 'test_secret'));
    expect(verifyReturn(url, 'test_secret')).toBe(true);
    url.searchParams.set('status', 'APPROVED ');
    expect(verifyReturn(url, 'test_secret')).toBe(false);
  });
});
