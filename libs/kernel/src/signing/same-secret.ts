import * as crypto from 'node:crypto';

/**
 * Whether a secret someone sent is the expected one, compared in constant
 * time as UTF-8 bytes. A string of the expected length may be longer in
 * bytes (a form token typed with multi-byte characters), and
 * `timingSafeEqual` throws on buffers of different lengths: those are
 * simply not the secret (contract §27, small doors).
 */
export function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
