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
  /** A restricted credential's scopes (contract §29); absent or null: a full credential, which may do everything. */
  readonly scopes?: readonly CredentialScope[] | null;
}

/**
 * What a restricted credential may do (contract §29, after Stripe's restricted keys): `read` every GET
 * (never a secret), `payments:write` payment intents, refunds, links, payers and instruments,
 * `merchants:write` merchants, their configuration and webhook endpoints, `money:write` payouts,
 * settlement and gateway accounts and disputes, `secrets:read` a merchant's `apiSecret`.
 */
export const CREDENTIAL_SCOPES = ['read', 'payments:write', 'merchants:write', 'money:write', 'secrets:read'] as const;
export type CredentialScope = (typeof CREDENTIAL_SCOPES)[number];

export function isCredentialScope(value: string): value is CredentialScope {
  return (CREDENTIAL_SCOPES as readonly string[]).includes(value);
}

/** Whether a caller may act within `scope`: a full credential always; a restricted one when it holds the scope. */
export function callerHolds(caller: Caller, scope: CredentialScope): boolean {
  return !caller.scopes || caller.scopes.includes(scope);
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
