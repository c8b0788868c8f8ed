import { DashboardUser } from '@pcs/dashboard-identity';
import type { PageLanguage } from '@pcs/pages';
import { Merchant, PayinsApi, PayinsApiError, UUID } from './payins-api';
import type { DashboardRequest } from './web';

/** What the dashboard's area controllers share: reading a typed field, the API's reason for a refusal, and whose merchant. */
/** A typed text field: trimmed, at most `max` characters, without control characters (a NUL is refused by the API and stored by no one). */
export const text = (value: unknown, max: number) =>
  typeof value === 'string'
    ? [...value]
        .filter((c) => c >= ' ' && c !== '\u007f')
        .join('')
        .trim()
        .slice(0, max)
    : '';
/** Which of the API's two texts a person reads: English in English, Spanish in Spanish and in Portuguese (the nearer one). */
export function apiTextOf(language: PageLanguage): 'EN' | 'ES' {
  return language === 'en' ? 'EN' : 'ES';
}

export const apiProblem = (error: unknown, language: PageLanguage): string => {
  if (error instanceof PayinsApiError && error.status < 500 && error.status !== 429)
    return error.body?.showMessage?.[apiTextOf(language)] ?? error.message;
  throw error;
};

/** Whose: the person's own merchant, or (for the whole business) one of `merchants`, the business's. */
export function merchantAmong(user: DashboardUser, merchants: readonly Merchant[], merchantId: unknown): string | undefined {
  // A person of one merchant: that merchant, whatever else was asked for (and nothing for another's id).
  if (user.merchantId) return merchantId === undefined || merchantId === '' || merchantId === user.merchantId ? user.merchantId : undefined;
  if (typeof merchantId !== 'string' || !UUID.test(merchantId)) return undefined;
  return merchants.some((m) => m.merchantId === merchantId) ? merchantId : undefined;
}

/** `merchantAmong` the business's merchants, asked of the API (only when the person is not of one merchant). */
export async function ownMerchant(api: PayinsApi, request: DashboardRequest, merchantId: unknown): Promise<string | undefined> {
  const { user } = request.dashboard!;
  return merchantAmong(user, user.merchantId ? [] : await api.merchants(user), merchantId);
}
