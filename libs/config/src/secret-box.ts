import * as crypto from 'node:crypto';

const VERSION = 'v1';

/**
 * AES-256-GCM encryption of secrets at rest. The associated data binds each
 * ciphertext to what it belongs to (an api key, an endpoint, a person), so a
 * ciphertext copied onto another row does not decrypt. Sealing uses the
 * master key; opening tries it, then the previous master key during a
 * rotation (contract §22: the previous one is read until every secret is
 * sealed again under the new one).
 */
/** Opens a sealed value with either key and seals it again under the current one (SecretBox.reseal). */
export type Reseal = (sealed: string, associatedData: string) => string;

export class SecretBox {
  constructor(
    private readonly key: Buffer,
    private readonly previousKeys: readonly Buffer[] = [],
  ) {
    for (const k of [key, ...previousKeys]) if (k.length !== 32) throw new Error('SecretBox needs 32-byte keys');
  }

  seal(plaintext: string, associatedData: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  open(sealed: string, associatedData: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('unrecognised secret format');
    // GCM accepts tags as short as 4 bytes: a forger would need to guess only
    // 32 bits. Ours are always 16 (contract §27), and nothing shorter opens.
    const tagBytes = Buffer.from(tag, 'base64');
    const ivBytes = Buffer.from(iv, 'base64');
    if (tagBytes.length !== 16 || ivBytes.length !== 12) throw new Error('unrecognised secret format');
    let failure: unknown;
    for (const key of [this.key, ...this.previousKeys]) {
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: 16 });
        decipher.setAAD(Buffer.from(associatedData, 'utf8'));
        decipher.setAuthTag(tagBytes);
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }

  /** The same secret sealed again under the master key (the rotation of the master key). */
  reseal(sealed: string, associatedData: string): string {
    return this.seal(this.open(sealed, associatedData), associatedData);
  }
}
