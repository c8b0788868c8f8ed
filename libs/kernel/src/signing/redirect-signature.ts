import * as crypto from 'node:crypto';

/**
 * The signed return to a merchant's `redirectUrl` (contract §13): the
 * parameters `paymentIntentId`, `externalReference`, `status` and
 * `timestamp` (Unix seconds), and `signature`, the lowercase hex
 * HMAC-SHA256, keyed with the API secret of the credentials that created the
 * payment intent, of the other four sorted by name and joined as
 * `name=value` with `&`, values URL-encoded as sent. This module signs for
 * the service and verifies for a merchant's server (and the tests).
 */
export const REDIRECT_PARAMETERS = ['externalReference', 'paymentIntentId', 'status', 'timestamp'] as const;
export type RedirectParameters = Record<(typeof REDIRECT_PARAMETERS)[number], string>;

/** The bytes the signature covers: the four parameters sorted by name, `name=value` joined with `&`. */
export function redirectSigningBase(parameters: RedirectParameters): string {
  return [...REDIRECT_PARAMETERS]
    .sort()
    .map((name) => `${name}=${encodeURIComponent(parameters[name])}`)
    .join('&');
}

export function signRedirect(parameters: RedirectParameters, apiSecret: string): string {
  return crypto.createHmac('sha256', apiSecret).update(redirectSigningBase(parameters)).digest('hex');
}

/** `redirectUrl` with the signed parameters added (its own query and fragment kept). */
export function signedRedirectUrl(redirectUrl: string, parameters: RedirectParameters, apiSecret: string): string {
  const url = new URL(redirectUrl);
  for (const name of REDIRECT_PARAMETERS) url.searchParams.set(name, parameters[name]);
  url.searchParams.set('signature', signRedirect(parameters, apiSecret));
  return url.toString();
}

export type RedirectVerification =
  | { readonly valid: true; readonly parameters: RedirectParameters }
  | { readonly valid: false; readonly reason: 'MISSING_PARAMETER' | 'BAD_SIGNATURE' | 'STALE' };

/**
 * What a merchant's server does on its return page: the signature matches
 * (compared in constant time) and the timestamp is recent. Then confirm with
 * B7 (or a webhook) before shipping: a redirect proves where the payer came
 * from, not that the money arrived.
 */
export function verifyRedirect(
  url: string | URL,
  apiSecret: string,
  options: { maxAgeSeconds?: number; now?: Date } = {},
): RedirectVerification {
  const query = new URL(url).searchParams;
  const values = REDIRECT_PARAMETERS.map((name) => query.get(name));
  const signature = query.get('signature');
  if (values.some((v) => v === null) || signature === null) return { valid: false, reason: 'MISSING_PARAMETER' };
  const parameters = Object.fromEntries(REDIRECT_PARAMETERS.map((name, i) => [name, values[i]!])) as RedirectParameters;
  const expected = Buffer.from(signRedirect(parameters, apiSecret));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return { valid: false, reason: 'BAD_SIGNATURE' };
  const age = (options.now ?? new Date()).getTime() / 1000 - Number(parameters.timestamp);
  if (!Number.isFinite(age) || Math.abs(age) > (options.maxAgeSeconds ?? 300)) return { valid: false, reason: 'STALE' };
  return { valid: true, parameters };
}
