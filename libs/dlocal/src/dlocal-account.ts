import type { CountryProcessor } from '@pcs/catalog';
import { GatewayAccountKind, GatewayAccounts } from '@pcs/gateway-accounts';
import { collectionMethodOf } from '@pcs/gateways';
import type { Transaction } from '@pcs/kernel';
import { DLocalCredentials } from './dlocal.client';
import { dlocalMethodOf } from './dlocal-methods';

export const DLOCAL = 'DLOCAL';
/** Its API where the settings name none (DLOCAL_API_URL: its sandbox is https://sandbox.dlocal.com; each request at most 10 s). */
export const DLOCAL_API = { url: 'https://api.dlocal.com', timeoutMs: 10_000, browserScript: 'https://js.dlocal.com/' } as const;

const served = (offered: readonly CountryProcessor[]) =>
  offered.filter((processor) => dlocalMethodOf(collectionMethodOf(processor)) !== null);

/**
 * A merchant's dLocal account (contract §20): its X-Login, X-Trans-Key and
 * secret key, sealed, each shown as a hint. Only methods dLocal collects in
 * one of the merchant's countries may be routed to it (the table in
 * dlocal-methods.ts); when none is named, every such method of the merchant.
 */
export const DLOCAL_ACCOUNT: GatewayAccountKind = {
  provider: DLOCAL,
  displayName: 'dLocal',
  secrets: ['xLogin', 'xTransKey', 'secretKey'],
  hinted: ['xLogin', 'xTransKey', 'secretKey'],
  defaultMethods: (offered) => [...new Set(served(offered).map((processor) => processor.paymentMethod.name))].sort(),
  refusal: (method, offered) => {
    if (served(offered).some((processor) => processor.paymentMethod.name === method)) return null;
    const countries = [...new Set(offered.filter((p) => p.paymentMethod.name === method).map((p) => p.country.iso3))].sort();
    return `dLocal does not collect ${method} in ${countries.join(' or ')}`;
  },
};

/** The merchant's opened dLocal credentials, or null when it has no account. */
export async function dlocalCredentials(accounts: GatewayAccounts, merchantId: string): Promise<DLocalCredentials | null> {
  const account = await accounts.credentials(merchantId, DLOCAL);
  if (!account) return null;
  return { xLogin: account.secrets.xLogin, xTransKey: account.secrets.xTransKey, secretKey: account.secrets.secretKey };
}

/** The account's Smart Fields API key (its card fields in the payer's browser, contract §31), when the merchant gave it. */
export async function dlocalSmartFieldsKey(accounts: GatewayAccounts, merchantId: string, tx?: Transaction): Promise<string | null> {
  const key = (await accounts.settings(merchantId, DLOCAL, tx))?.smartFieldsKey;
  return typeof key === 'string' ? key : null;
}
