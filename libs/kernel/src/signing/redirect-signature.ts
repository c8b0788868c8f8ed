import * as crypto from 'node:crypto';

/**
 * The signed return to a merchant's `redirectUrl` (contract §13): the
 * parameters `paymentIntentId`, `externalReference`, `status` and
 * `timestamp` (Unix seconds), and `signature`, the lowercase hex
 * HMAC-SHA256, keyed with the API secret of the credentials that created the
 * payment intent, of the other four sorted by name and joined with `&`, each
 * `name=value` pair exactly as it appears in the redirect's query string:
 * form encoding, as `URLSearchParams` writes it (a space is `+`, `/` is
 * `%2F`), so a merchant verifies the raw query it received without decoding
 * or re-encoding anything. This module signs for the service; a merchant's
 * server verifies with `verifyRedirect` of libs/client.
 */
export const REDIRECT_PARAMETERS = ['externalReference', 'paymentIntentId', 'status', 'timestamp'] as const;
export type RedirectParameters = Record<(typeof REDIRECT_PARAMETERS)[number], string>;

/** The bytes the signature covers: the four parameters sorted by name, form-encoded `name=value` pairs joined with `&`. */
export function redirectSigningBase(parameters: RedirectParameters): string {
  return new URLSearchParams([...REDIRECT_PARAMETERS].sort().map((name): [string, string] => [name, parameters[name]])).toString();
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
