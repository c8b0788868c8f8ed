import * as crypto from 'node:crypto';

/**
 * An admin's confirmation of a settlement account, as the dashboard hands it
 * to the payins API (contract §30): the API has no route that takes a
 * person's code, so the dashboard checks the admin's fresh code itself and
 * sends this instead — what was confirmed (the business, the merchant, the
 * currency, the account's bank and number), by whom and when, under an
 * HMAC keyed from the master key. A credential alone cannot make one, and
 * nothing a credential sends is a code that counts towards anyone's lockout.
 */
export interface SettlementConfirmation {
  readonly businessId: string;
  readonly merchantId: string;
  readonly currency: string;
  readonly bankId: string;
  readonly accountNumber: string;
  /** The admin who confirmed with a fresh code (their email). */
  readonly confirmedBy: string;
  /** Unix seconds. */
  readonly at: number;
}

/** How long a confirmation is good for once made (the dashboard sends it at once). */
export const SETTLEMENT_CONFIRMATION_SECONDS = 300;

function keyOf(masterKey: Buffer): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), 'pcs settlement confirmation v1', 32));
}

/** The confirmation as the dashboard sends it: `<claims, base64url JSON>.<HMAC-SHA256, base64url>` under the current master key. */
export function signSettlementConfirmation(masterKey: Buffer, claims: SettlementConfirmation): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${crypto.createHmac('sha256', keyOf(masterKey)).update(body).digest('base64url')}`;
}

/**
 * A confirmation's claims when its HMAC verifies under a generation of the
 * master key ring and it was made within SETTLEMENT_CONFIRMATION_SECONDS
 * (a minute's clock difference allowed ahead); null otherwise.
 */
export function readSettlementConfirmation(ring: readonly Buffer[], token: string, nowSeconds: number): SettlementConfirmation | null {
  const match = /^([A-Za-z0-9_-]{1,4000})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, body, mac] = match;
  const given = Buffer.from(mac, 'base64url');
  const verified = ring.some((masterKey) => {
    const expected = crypto.createHmac('sha256', keyOf(masterKey)).update(body).digest();
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
  if (!verified) return null;
  let claims: Partial<SettlementConfirmation>;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<SettlementConfirmation>;
  } catch {
    return null;
  }
  const texts = [claims.businessId, claims.merchantId, claims.currency, claims.bankId, claims.accountNumber, claims.confirmedBy];
  if (!texts.every((text) => typeof text === 'string') || typeof claims.at !== 'number') return null;
  if (claims.at < nowSeconds - SETTLEMENT_CONFIRMATION_SECONDS || claims.at > nowSeconds + 60) return null;
  return claims as SettlementConfirmation;
}
