/**
 * Who is calling, as established by a verified signature. Business
 * credentials act on every merchant of the business; merchant credentials on
 * their own merchant only (contract §4).
 */
export interface Caller {
  readonly credentialId: string;
  readonly businessId: string;
  readonly merchantId: string | null;
}

export function isMerchantCaller(caller: Caller): caller is Caller & { merchantId: string } {
  return caller.merchantId !== null;
}
