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
