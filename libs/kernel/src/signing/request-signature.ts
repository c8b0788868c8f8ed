import * as crypto from 'node:crypto';

/** Lowercase hex HMAC-SHA256 of the payload, keyed with the secret (contract §5). */
export function signPayload(secret: string, payload: string | Buffer): string {
  return crypto.createHmac('sha256', secret).update(payload).digest('hex');
}

/**
 * True when `signature` is the HMAC of any of the candidate payloads. Every
 * candidate is computed and compared in constant time, so the time taken says
 * nothing about which candidate (if any) matched.
 */
export function signatureMatches(secret: string, signature: string, payloads: readonly (string | Buffer)[]): boolean {
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(32);
  let matched = false;
  for (const payload of payloads) {
    const expected = crypto.createHmac('sha256', secret).update(payload).digest();
    matched = crypto.timingSafeEqual(expected, given) || matched;
  }
  return matched && /^[0-9a-f]{64}$/.test(signature);
}

/** The versions of the request signature (contract §5, §29): 1 the body, 2 the request's line, 3 RFC 9421 over its components. */
export type SignatureVersion = 1 | 2 | 3;
