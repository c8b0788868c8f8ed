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
 * `paymentIntentId`, `status` and `timestamp` sorted by name, each
 * `name=value` pair exactly as it appears in the query string (nothing is
 * decoded or re-encoded), joined with `&`; and the timestamp recent. A redirect
 * proves where the payer came from, not that the money arrived: confirm with
 * GET /payment-intent/{id} or a webhook before shipping.
 */
export async function verifyRedirect(
  url: string | URL,
  apiSecret: string,
  options: { maxAgeSeconds?: number; now?: Date } = {},
): Promise<RedirectVerification> {
  const parsed = new URL(url);
  const query = parsed.searchParams;
  // The pairs as received (the URL parser leaves a form-encoded query as it is).
  const pairs = parsed.search.slice(1).split('&');
  const signedPairs = PARAMETERS.map((name) => pairs.find((pair) => pair.startsWith(`${name}=`)));
  const signature = query.get('signature');
  if (signature === null || signedPairs.some((pair) => pair === undefined)) return { valid: false, reason: 'MISSING_PARAMETER' };
  if (!constantTimeEqual(await hmacSha256Hex(apiSecret, signedPairs.join('&')), signature))
    return { valid: false, reason: 'BAD_SIGNATURE' };
  const parameters = Object.fromEntries(PARAMETERS.map((name) => [name, query.get(name)!])) as RedirectParameters;
  const age = (options.now ?? new Date()).getTime() / 1000 - Number(parameters.timestamp);
  if (!Number.isFinite(age) || Math.abs(age) > (options.maxAgeSeconds ?? 300)) return { valid: false, reason: 'STALE' };
  return { valid: true, parameters };
}
