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
// printf '%s' 'externalReference=order%20%2342&paymentIntentId=…&status=APPROVED&timestamp=1795400000' | openssl dgst -sha256 -hmac test_secret
const VECTOR = '01642abe360d3e097e270a38d5816e4f6de40caec976b78ece71cb26bbb311b1';

describe('the signed return to the merchant (contract §13)', () => {
  it('signs the four parameters sorted by name, URL-encoded, with the API secret', () => {
    expect(redirectSigningBase(PARAMETERS)).toBe(
      'externalReference=order%20%2342&paymentIntentId=3f1c2b9a-0d4e-4f7a-9a51-6b2f0c8e7d10&status=APPROVED&timestamp=1795400000',
    );
    expect(signRedirect(PARAMETERS, 'test_secret')).toBe(VECTOR);
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

  it("the README's few lines of Node verify what the service signs, and refuse a tampered return", () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
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
