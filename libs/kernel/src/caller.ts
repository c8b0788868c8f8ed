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

/**
 * What a request may see and touch (contract §4): one business, and within
 * it one merchant (`merchantId`) or every merchant (null). Built once from
 * the caller (`tenantScope`), narrowed to a merchant a request names
 * (`narrowScope`), and handed to repositories, which apply it in one place
 * (`scopeWhere` and `scopeCondition` in the database library). Nothing else
 * asks whether a caller is a merchant's.
 */
export interface TenantScope {
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId | null;
}

/** The scope of a caller's credentials: its business, and its merchant for merchant credentials. */
export function tenantScope(caller: Caller): TenantScope {
  return { businessId: caller.businessId, merchantId: caller.merchantId };
}

/**
 * The scope narrowed to a merchant a request names (a filter or a path):
 * the same scope when none is named; null when the scope cannot see that
 * merchant (merchant credentials naming another), which reads as nothing.
 * Whether the merchant exists is the caller's to check (MerchantAccess).
 */
export function narrowScope(scope: TenantScope, merchantId: MerchantId | null | undefined): TenantScope | null {
  if (!merchantId) return scope;
  if (scope.merchantId !== null && scope.merchantId !== merchantId) return null;
  return { businessId: scope.businessId, merchantId };
}

/** Whether the scope spans every merchant of its business (business credentials). */
export function isBusinessWide(scope: TenantScope): boolean {
  return scope.merchantId === null;
}

/** Whether something owned by this business and merchant lies in the scope. */
export function scopeCovers(scope: TenantScope, owner: { readonly businessId: string; readonly merchantId: string }): boolean {
  return owner.businessId === scope.businessId && (scope.merchantId === null || owner.merchantId === scope.merchantId);
}
