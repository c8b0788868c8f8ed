import { StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import { prefersSecretsOmitted, withoutSecrets } from './omit-secrets.interceptor';

describe('Prefer: secrets=omit', () => {
  it('reads the preference among others, in any case, quoted or not', () => {
    expect(prefersSecretsOmitted('secrets=omit')).toBe(true);
    expect(prefersSecretsOmitted('return=minimal, Secrets="omit"')).toBe(true);
    expect(prefersSecretsOmitted('secrets=keep')).toBe(false);
    expect(prefersSecretsOmitted(undefined)).toBe(false);
  });

  it('nulls every apiSecret of plain answers, and leaves files, buffers and dates as they are', () => {
    const page = [{ results: [{ merchantId: 'm', apiKey: 'k', apiSecret: 's', nested: { apiSecret: 't' } }], rowCount: 1 }];
    expect(withoutSecrets(page, 0)).toEqual([
      { results: [{ merchantId: 'm', apiKey: 'k', apiSecret: null, nested: { apiSecret: null } }], rowCount: 1 },
    ]);
    const file = new StreamableFile(Readable.from(['a,b\r\n']), { type: 'text/csv' });
    expect(withoutSecrets(file, 0)).toBe(file);
    const bytes = Buffer.from('apiSecret');
    expect(withoutSecrets(bytes, 0)).toBe(bytes);
    const at = new Date('2026-11-27T00:00:00Z');
    expect(withoutSecrets({ at }, 0)).toEqual({ at });
  });
});
