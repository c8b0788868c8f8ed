import { dictionary } from '@zxcvbn-ts/language-common';

/** PCI DSS 8.3.6: at least 12 characters, letters and digits; 128 at most (scrypt hashes what it is given). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
/** PCI DSS 8.3.7: none of the person's last four, the current one included. */
export const PASSWORD_HISTORY = 4;

export type PasswordProblem = 'too-short' | 'too-long' | 'needs-letter-and-digit' | 'common' | 'is-email' | 'reused';

/**
 * The common passwords no one may choose: zxcvbn-ts's list of the most used
 * passwords (about 49,000, from published breach corpora; a maintained
 * package, not a list typed here), compared without case.
 */
let common: Set<string> | null = null;
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common;
}

export function commonPasswordCount(): number {
  return commonPasswords().size;
}

/** What is wrong with a new password before it is compared with the person's last ones; null when nothing. */
export function passwordProblem(password: string, email: string): PasswordProblem | null {
  const length = [...password.normalize('NFC')].length;
  if (length < PASSWORD_MIN_LENGTH) return 'too-short';
  if (length > PASSWORD_MAX_LENGTH) return 'too-long';
  if (!/\p{L}/u.test(password) || !/\p{Nd}/u.test(password)) return 'needs-letter-and-digit';
  const lowered = password.toLowerCase();
  if (lowered === email.trim().toLowerCase() || lowered === email.trim().toLowerCase().split('@')[0]) return 'is-email';
  if (commonPasswords().has(lowered)) return 'common';
  return null;
}
