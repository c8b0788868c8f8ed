import type { BusinessId, MerchantId } from './ids';

/**
 * Who is calling, as established by a verified signature. Business
 * credentials act on every merchant of the business; merchant credentials on
 * their own merchant only (contract §4).
 */
export interface Caller {
  readonly credentialId: string;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId | null;
}

export function isMerchantCaller(caller: Caller): caller is Caller & { merchantId: MerchantId } {
  return caller.merchantId !== null;
}

/**
 * What a request may see and touch (contract §4): one business, and within
 * it one merchant (`merchantId`) or every merchant (null). Built once from
 * the caller (and a merchant it may act for) and handed to repositories.
 */
export interface TenantScope {
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId | null;
}
