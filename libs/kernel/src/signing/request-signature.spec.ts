import { signatureMatches, signPayload } from './request-signature';
import { SecretBox } from '@pcs/config';
import * as crypto from 'node:crypto';

describe('request signature (contract §5 test vectors)', () => {
  it('signs a body with the contract test vector', () => {
    expect(signPayload('test_secret', '{"amount":100,"currency":"UYU"}')).toBe(
      '8ee2ba75bc2e456fc81722d4b5d7187efb0cd6754d679bb13bf7b3309d0391e4',
    );
  });

  it('signs a GET over {} with the contract test vector', () => {
    expect(signPayload('test_secret', '{}')).toBe('748a263298986af60d952005bd6587eb7fe36a5a9f1ddaf94ca4cb46729473cb');
  });

  it('matches when any candidate payload carries the signature, and only then', () => {
    const signature = signPayload('test_secret', '{}');
    expect(signatureMatches('test_secret', signature, ['', '{}'])).toBe(true);
    expect(signatureMatches('test_secret', signature, ['{"a":1}'])).toBe(false);
    expect(signatureMatches('other_secret', signature, ['{}'])).toBe(false);
  });

  it('refuses signatures that are not 64 lowercase hex characters', () => {
    const signature = signPayload('test_secret', '{}');
    expect(signatureMatches('test_secret', signature.slice(0, 63), ['{}'])).toBe(false);
    expect(signatureMatches('test_secret', `${signature}00`, ['{}'])).toBe(false);
    expect(signatureMatches('test_secret', 'z'.repeat(64), ['{}'])).toBe(false);
  });
});

describe('SecretBox', () => {
  const box = new SecretBox(crypto.randomBytes(32));

  it('round-trips a secret and never stores it in clear', () => {
    const sealed = box.seal('sk_very_secret', 'pk_1');
    expect(sealed).not.toContain('sk_very_secret');
    expect(box.open(sealed, 'pk_1')).toBe('sk_very_secret');
  });

  it('uses a fresh nonce each time', () => {
    expect(box.seal('same', 'pk_1')).not.toBe(box.seal('same', 'pk_1'));
  });

  it('refuses a ciphertext moved to another key, tampered with, or opened with another master key', () => {
    const sealed = box.seal('sk_very_secret', 'pk_1');
    expect(() => box.open(sealed, 'pk_2')).toThrow();
    const parts = sealed.split(':');
    const body = Buffer.from(parts[3], 'base64');
    body[0] ^= 1;
    expect(() => box.open([parts[0], parts[1], parts[2], body.toString('base64')].join(':'), 'pk_1')).toThrow();
    expect(() => new SecretBox(crypto.randomBytes(32)).open(sealed, 'pk_1')).toThrow();
  });
});
