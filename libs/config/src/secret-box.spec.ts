import * as crypto from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(crypto.randomBytes(32));

  it('opens what it sealed, bound to its associated data', () => {
    const sealed = box.seal('s3cret', 'api-key:abc');
    expect(box.open(sealed, 'api-key:abc')).toBe('s3cret');
    expect(() => box.open(sealed, 'api-key:other')).toThrow();
  });

  it('refuses a truncated authentication tag (GCM would accept 4 bytes and check only those)', () => {
    const sealed = box.seal('s3cret', 'ad');
    const [version, iv, tag, body] = sealed.split(':');
    for (const length of [4, 8, 12, 15]) {
      const short = Buffer.from(tag, 'base64').subarray(0, length).toString('base64');
      expect(() => box.open([version, iv, short, body].join(':'), 'ad')).toThrow('unrecognised secret format');
    }
    const long = Buffer.concat([Buffer.from(tag, 'base64'), Buffer.alloc(1)]).toString('base64');
    expect(() => box.open([version, iv, long, body].join(':'), 'ad')).toThrow('unrecognised secret format');
  });

  it('refuses an IV of another length', () => {
    const [version, , tag, body] = box.seal('s3cret', 'ad').split(':');
    expect(() => box.open([version, crypto.randomBytes(16).toString('base64'), tag, body].join(':'), 'ad')).toThrow(
      'unrecognised secret format',
    );
  });
});
