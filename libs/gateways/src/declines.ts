/**
 * Whether a processor's refusal of a charge may be tried again later (contract §31's dunning): SOFT the card may
 * pay another day (funds, the issuer's momentary refusal, a limit, an error on the way), HARD it will not as it is
 * (lost, stolen, blacklisted, closed, expired, a number or code that is wrong, a request that cannot succeed off-session).
 * Hard declines are never retried; the payer is asked for another card. As Stripe's Smart Retries do.
 */
export type DeclineKind = 'SOFT' | 'HARD';

/** One processor's refusal codes, as its documentation lists them, each with its kind and its documented meaning. */
export type DeclineTable = Readonly<Record<string, { readonly kind: DeclineKind; readonly meaning: string }>>;

/**
 * The kind of `code` in `table`. A code the table does not know is SOFT: the retry schedule bounds what it costs, where a
 * wrong HARD would end a subscription that one more try would have paid.
 */
export function declineKindIn(table: DeclineTable, code: string | null | undefined): DeclineKind {
  return code !== null && code !== undefined && Object.hasOwn(table, code) ? table[code].kind : 'SOFT';
}
