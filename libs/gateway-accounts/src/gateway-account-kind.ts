import type { CountryProcessor } from '@pcs/catalog';

/**
 * What the accounts context needs to know of a provider (contract §16, §20):
 * the credential fields it seals, those it shows a hint of, and which of the
 * merchant's payment methods may be routed to it. Each adapter registers its
 * kind; the accounts themselves (sealing, hints, routing, one table) are the
 * same for every provider.
 */
/** One setting of an account (never a secret): a text or a flag. */
export type AccountSetting = string | boolean;

export interface GatewayAccountKind {
  /** The provider's name, as the catalog and the routes know it (MERCADO_PAGO, DLOCAL). */
  readonly provider: string;
  /** How merchants know it (in messages). */
  readonly displayName: string;
  /** The credential fields, each sealed at rest and never answered. */
  readonly secrets: readonly string[];
  /** Those of them the API shows as `<field>Hint`: `…` and their last 4 characters. */
  readonly hinted: readonly string[];
  /** The methods routed when the request names none, given what the merchant offers. */
  defaultMethods(offered: readonly CountryProcessor[]): string[];
  /** Why one of the merchant's methods cannot be routed to the provider, or null when it can. */
  refusal(method: string, offered: readonly CountryProcessor[]): string | null;
}

/** `…` and the last 4 characters; a value too short to keep anything back shows nothing of itself. */
export function credentialHint(value: string): string {
  return value.length >= 12 ? `…${value.slice(-4)}` : '…';
}
