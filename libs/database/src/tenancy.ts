import type { BusinessId, MerchantId, TenantScope } from '@pcs/kernel';

/**
 * A tenant scope (contract §4) as repositories apply it: every read and
 * write of a tenant's rows goes through one of these two, so the rule
 * "the business always, the merchant when the scope has one" is written once.
 */

/** The scope as a TypeORM `where` fragment over entities with `businessId` and `merchantId`. */
export function scopeWhere(scope: TenantScope): { businessId: BusinessId; merchantId?: MerchantId } {
  return scope.merchantId === null ? { businessId: scope.businessId } : { businessId: scope.businessId, merchantId: scope.merchantId };
}

/**
 * The scope as an SQL condition over `<alias>.business_id` and
 * `<alias>.merchant_id`, its values appended to `values` (numbered
 * parameters, `$n`).
 */
export function scopeCondition(scope: TenantScope, alias: string, values: unknown[]): string {
  const business = `${alias}.business_id = $${values.push(scope.businessId)}`;
  return scope.merchantId === null ? business : `${business} AND ${alias}.merchant_id = $${values.push(scope.merchantId)}`;
}

/** The scope as a condition with named parameters (TypeORM's query builder: `:scopeBusinessId`). */
export function scopeNamedCondition(scope: TenantScope, alias: string): { sql: string; parameters: Record<string, string> } {
  return scope.merchantId === null
    ? { sql: `${alias}.business_id = :scopeBusinessId`, parameters: { scopeBusinessId: scope.businessId } }
    : {
        sql: `${alias}.business_id = :scopeBusinessId AND ${alias}.merchant_id = :scopeMerchantId`,
        parameters: { scopeBusinessId: scope.businessId, scopeMerchantId: scope.merchantId },
      };
}
