import { sameSecret } from '@pcs/kernel';
import * as crypto from 'node:crypto';

/**
 * Protection of a payer page's forms against cross-site submission: the page
 * sets a SameSite=Strict cookie holding a random nonce, and each form carries
 * an HMAC of the nonce with what the form acts on. A post without both (a
 * form on another site, which cannot read or send the cookie) changes nothing.
 */
export class FormTokens {
  private readonly key: Buffer;

  constructor(
    masterKey: Buffer,
    /** The cookie's name, and the path it is sent on. */
    readonly cookie: string,
    readonly path: string,
  ) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), `pcs page forms ${cookie}`, 32));
  }

  /** The nonce of the request's cookie, when it has a well-formed one. */
  nonceOf(cookieHeader: string | undefined): string | null {
    const match = cookieHeader
      ?.split(';')
      .map((part) => part.trim().split('='))
      .find(([name]) => name === this.cookie);
    return match && /^[\w-]{22}$/.test(match[1] ?? '') ? match[1] : null;
  }

  newNonce(): string {
    return crypto.randomBytes(16).toString('base64url');
  }

  /** base64url, not hex: a long run of digits in a form value would be refused as a card number. */
  token(subject: string, nonce: string): string {
    return crypto.createHmac('sha256', this.key).update(`${subject}:${nonce}`).digest('base64url');
  }

  verify(subject: string, nonce: string | null, given: unknown): boolean {
    if (!nonce || typeof given !== 'string') return false;
    const expected = this.token(subject, nonce);
    return sameSecret(given, expected);
  }

  cookieOptions(secure: boolean) {
    return { httpOnly: true, sameSite: 'strict' as const, path: this.path, secure };
  }
}

/**
 * The payer's details a form posted (payerName, payerEmail, payerDocument:
 * contract §20), or undefined when it posted none (the method chosen first).
 * Each a string of at most 256 characters; anything else is as if absent.
 */
export function payerDetailsOf(body: Record<string, unknown> | undefined): { name: string; email: string; document: string } | undefined {
  const text = (value: unknown) => (typeof value === 'string' && value.length <= 256 ? value.trim() : null);
  const name = text(body?.payerName);
  const email = text(body?.payerEmail);
  const document = text(body?.payerDocument);
  if (name === null && email === null && document === null) return undefined;
  return { name: name ?? '', email: email ?? '', document: document ?? '' };
}
