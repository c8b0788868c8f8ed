import * as crypto from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import * as QRCode from 'qrcode';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
/** One step of drift either way is accepted (a phone's clock a little off). */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'PCS dashboard';

/** Seals a secret at rest (the service's SecretBox: AES-256-GCM under the master key), bound to what it belongs to. */
export interface SecretSealer {
  seal(plaintext: string, associatedData: string): string;
  open(sealed: string, associatedData: string): string;
}

/** A new seed: 20 random bytes (160 bits, RFC 4226's recommendation), as base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, email: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** The otpauth:// address an authenticator app scans, and its QR code as inline SVG (no script, no image fetched). */
export async function enrolmentOf(secret: string, email: string): Promise<{ uri: string; qrSvg: string }> {
  const uri = totp(secret, email).toString();
  return { uri, qrSvg: await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }) };
}

/** The time step a code belongs to (within the window), or null when it is not the seed's code now. */
export function totpStepOf(secret: string, email: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret, email).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The code of a seed at a moment (enrolment checks and tests). */
export function totpCodeOf(secret: string, now = Date.now()): string {
  return totp(secret, 'x').generate({ timestamp: now });
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Ten recovery codes of 24 base32 characters each (120 bits), shown once in groups of four. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: 24 }, () => BASE32[crypto.randomInt(32)])
      .join('')
      .replace(/(.{4})(?=.)/g, '$1-'),
  );
}

/** A recovery code as stored: the SHA-256 of its characters (high-entropy: no slow hash needed), whatever the case and dashes typed. */
export function recoveryCodeHash(code: string): string | null {
  const normalized = code.toUpperCase().replace(/[\s-]/g, '');
  if (!/^[A-Z2-7]{24}$/.test(normalized)) return null;
  return crypto.createHash('sha256').update(normalized).digest('hex');
}
