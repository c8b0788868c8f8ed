import { constantTimeEqual, hmacSha256Hex } from './signing';

const PARAMETERS = ['externalReference', 'paymentIntentId', 'status', 'timestamp'] as const;

export type RedirectParameters = Record<(typeof PARAMETERS)[number], string>;

export type RedirectVerification =
  | { readonly valid: true; readonly parameters: RedirectParameters }
  | { readonly valid: false; readonly reason: 'MISSING_PARAMETER' | 'BAD_SIGNATURE' | 'STALE' };

/**
 * What a merchant's return page does with the B2B checkout's redirect
 * (contract §13): `signature` must be the hex HMAC-SHA256, keyed with the API
 * secret that created the payment intent, of `externalReference`,
 * `paymentIntentId`, `status` and `timestamp` sorted by name, `name=value`
 * (values URL-encoded) joined with `&`; and the timestamp recent. A redirect
 * proves where the payer came from, not that the money arrived: confirm with
 * GET /payment-intent/{id} or a webhook before shipping.
 */
export async function verifyRedirect(
  url: string | URL,
  apiSecret: string,
  options: { maxAgeSeconds?: number; now?: Date } = {},
): Promise<RedirectVerification> {
  const query = new URL(url).searchParams;
  const signature = query.get('signature');
  const values = PARAMETERS.map((name) => query.get(name));
  if (signature === null || values.some((value) => value === null)) return { valid: false, reason: 'MISSING_PARAMETER' };
  const parameters = Object.fromEntries(PARAMETERS.map((name, i) => [name, values[i]!])) as RedirectParameters;
  const base = PARAMETERS.map((name) => `${name}=${encodeURIComponent(parameters[name])}`).join('&');
  if (!constantTimeEqual(await hmacSha256Hex(apiSecret, base), signature)) return { valid: false, reason: 'BAD_SIGNATURE' };
  const age = (options.now ?? new Date()).getTime() / 1000 - Number(parameters.timestamp);
  if (!Number.isFinite(age) || Math.abs(age) > (options.maxAgeSeconds ?? 300)) return { valid: false, reason: 'STALE' };
  return { valid: true, parameters };
}
