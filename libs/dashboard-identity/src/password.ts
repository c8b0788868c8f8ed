import * as crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * scrypt (memory-hard, in Node's crypto: no native addon to build), at
 * OWASP's recommended cost: N=2^17, r=8, p=1 — 128 MiB and about a tenth of a
 * second per hash, which is what makes a stolen table slow to guess through.
 * Stored as `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64url), so that the
 * cost can be raised later and old hashes still verify.
 */
const LOG2_N = 17;
/** Below OWASP's cost only under NODE_ENV=test (as Rails' and Devise's test environments do): see hashCost. */
const TEST_FLOOR_LOG2_N = 10;
const MAX_LOG2_N = 20;

/**
 * The cost new hashes take: 17, or PASSWORD_HASH_LOG2N — higher (up to 20)
 * anywhere, lower only when NODE_ENV is `test`, where the test suite hashes
 * some hundreds of passwords and what it checks (policies, lockouts, races)
 * does not depend on the cost. A lower value anywhere else is refused.
 * Verifying reads the cost from the stored hash, whatever it is now.
 */
export function hashCost(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PASSWORD_HASH_LOG2N;
  if (raw === undefined || raw === '') return LOG2_N;
  const floor = env.NODE_ENV === 'test' ? TEST_FLOOR_LOG2_N : LOG2_N;
  const cost = Number(raw);
  if (!Number.isInteger(cost) || cost < floor || cost > MAX_LOG2_N)
    throw new Error(
      `PASSWORD_HASH_LOG2N must be an integer from ${floor} to ${MAX_LOG2_N}${floor === LOG2_N ? ' (lower only under NODE_ENV=test)' : ''}`,
    );
  return cost;
}
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function options(log2n: number, r: number, p: number): crypto.ScryptOptions {
  return { N: 2 ** log2n, r, p, maxmem: 2 * 128 * r * 2 ** log2n + 1024 * 1024 };
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const cost = hashCost();
  const hash = await scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options(cost, R, P));
  return ['scrypt', cost, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Whether the password matches the stored hash (compared in constant time); false for anything malformed. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [log2n, r, p] = parts.slice(1, 4).map(Number);
  if (![log2n, r, p].every(Number.isInteger) || log2n < 10 || log2n > 20 || r < 1 || r > 32 || p < 1 || p > 4) return false;
  const expected = Buffer.from(parts[5], 'base64url');
  const actual = await scrypt(password.normalize('NFC'), Buffer.from(parts[4], 'base64url'), expected.length, options(log2n, r, p));
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

/** A generated password: 20 characters of an alphabet without look-alikes (about 115 bits). */
/**
 * 20 characters from an alphabet without look-alikes, drawn again until it
 * holds a letter and a digit: a generated password obeys the same policy as a
 * chosen one (about one draw in twenty would otherwise have no digit, and the
 * person could not even type it back as their "current" one under the rules).
 */
export function generatePassword(): string {
  const alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  for (;;) {
    const drawn = Array.from({ length: 20 }, () => alphabet[crypto.randomInt(alphabet.length)]).join('');
    if (/[a-zA-Z]/.test(drawn) && /\d/.test(drawn)) return drawn;
  }
}
