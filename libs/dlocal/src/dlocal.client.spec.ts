import * as crypto from 'node:crypto';
import { verifyDLocalCallback, verifyDLocalSignature } from './dlocal.client';

describe("dLocal's signatures", () => {
  const secret = 'the-secret-key';
  const login = 'sak223k2wdksdl2';
  const date = '2018-02-20T15:44:42.310Z';

  it("verifies a notification's Authorization over X-Login + X-Date + the raw body, and nothing else", () => {
    const body = Buffer.from('{"id":"D-4-1","status":"PAID"}');
    const signature = crypto.createHmac('sha256', secret).update(`${login}${date}${body.toString()}`).digest('hex');
    expect(verifyDLocalSignature(secret, login, date, body, `V2-HMAC-SHA256, Signature: ${signature}`)).toBe(true);
    expect(
      verifyDLocalSignature(secret, login, date, Buffer.from('{"id":"D-4-1","status":"PAID" }'), `V2-HMAC-SHA256, Signature: ${signature}`),
    ).toBe(false);
    expect(verifyDLocalSignature(secret, login, '2018-02-20T15:44:42.311Z', body, `V2-HMAC-SHA256, Signature: ${signature}`)).toBe(false);
    expect(verifyDLocalSignature('another-secret', login, date, body, `V2-HMAC-SHA256, Signature: ${signature}`)).toBe(false);
    expect(verifyDLocalSignature(secret, login, date, body, signature)).toBe(false);
    expect(verifyDLocalSignature(secret, login, date, body, 'V2-HMAC-SHA256, Signature: zz')).toBe(false);
  });

  it("verifies a callback's signature over X-Login + date + {status:…,paymentId:…}", () => {
    const fields = { paymentId: 'D-4-1', status: 'APPROVED', date };
    const signature = crypto.createHmac('sha256', secret).update(`${login}${date}{status:APPROVED,paymentId:D-4-1}`).digest('hex');
    expect(verifyDLocalCallback(secret, login, { ...fields, signature })).toBe(true);
    expect(verifyDLocalCallback(secret, login, { ...fields, status: 'REJECTED', signature })).toBe(false);
    expect(verifyDLocalCallback(secret, login, { ...fields, signature: 'not-hex' })).toBe(false);
  });
});
