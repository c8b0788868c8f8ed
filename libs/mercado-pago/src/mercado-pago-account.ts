import { AccountSetting, GatewayAccountKind, GatewayAccounts } from '@pcs/gateway-accounts';
import type { Transaction } from '@pcs/kernel';

export const MERCADO_PAGO = 'MERCADO_PAGO';
/** Its API where the settings name none (MERCADOPAGO_API_URL; contract §16: each request at most 10 s). */
export const MERCADO_PAGO_API = {
  url: 'https://api.mercadopago.com',
  timeoutMs: 10_000,
  browserScript: 'https://sdk.mercadopago.com/js/v2',
} as const;

/** An account's credentials, opened: only for the adapter's requests and the notification check. */
export interface MercadoPagoCredentials {
  readonly merchantId: string;
  readonly accessToken: string;
  readonly webhookSecret: string;
  readonly paymentMethods: readonly string[];
  /** The application's public key (its card fields in the payer's browser), when the merchant gave it. */
  readonly publicKey: string | null;
  /** Whether the account has automatic payments: saved cards charged without their security code (contract §31). */
  readonly offSessionEnabled: boolean;
}

/**
 * A merchant's Mercado Pago account (contract §16): its access token and
 * webhook secret, sealed; a hint of the token is shown. Any method the
 * merchant offers may be routed to it (MERCADO_PAGO when none is named).
 */
export const MERCADO_PAGO_ACCOUNT: GatewayAccountKind = {
  provider: MERCADO_PAGO,
  displayName: 'Mercado Pago',
  secrets: ['accessToken', 'webhookSecret'],
  hinted: ['accessToken'],
  defaultMethods: () => [MERCADO_PAGO],
  refusal: () => null,
};

/** The account's public key and whether it has automatic payments (its settings; no secret is opened), or null without one. */
export async function mercadoPagoSettings(
  accounts: GatewayAccounts,
  merchantId: string,
  tx?: Transaction,
): Promise<Pick<MercadoPagoCredentials, 'publicKey' | 'offSessionEnabled'> | null> {
  const settings = await accounts.settings(merchantId, MERCADO_PAGO, tx);
  return settings && settingsOf(settings);
}

const settingsOf = (settings: Readonly<Record<string, AccountSetting>>) => ({
  publicKey: typeof settings.publicKey === 'string' ? settings.publicKey : null,
  offSessionEnabled: settings.offSessionEnabled === true,
});

/** The merchant's opened Mercado Pago credentials, or null when it has no account. */
export async function mercadoPagoCredentials(accounts: GatewayAccounts, merchantId: string): Promise<MercadoPagoCredentials | null> {
  const account = await accounts.credentials(merchantId, MERCADO_PAGO);
  if (!account) return null;
  return {
    merchantId,
    accessToken: account.secrets.accessToken,
    webhookSecret: account.secrets.webhookSecret,
    paymentMethods: account.paymentMethods,
    ...settingsOf(account.settings),
  };
}
