import { Caller, isBusinessWide, narrowScope, scopeCovers, tenantScope } from './caller';
import { BusinessId, MerchantId } from './ids';

const business = 'b0000000-0000-4000-8000-000000000001' as BusinessId;
const other = 'b0000000-0000-4000-8000-000000000002' as BusinessId;
const mine = 'a0000000-0000-4000-8000-000000000001' as MerchantId;
const theirs = 'a0000000-0000-4000-8000-000000000002' as MerchantId;
const businessCaller: Caller = { credentialId: 'c1', businessId: business, merchantId: null };
const merchantCaller: Caller = { credentialId: 'c2', businessId: business, merchantId: mine };

describe('tenant scope (contract §4)', () => {
  it('is built from the caller: the whole business for business credentials, one merchant for a merchant’s', () => {
    expect(tenantScope(businessCaller)).toEqual({ businessId: business, merchantId: null });
    expect(tenantScope(merchantCaller)).toEqual({ businessId: business, merchantId: mine });
    expect(isBusinessWide(tenantScope(businessCaller))).toBe(true);
    expect(isBusinessWide(tenantScope(merchantCaller))).toBe(false);
  });

  it('narrows to a named merchant, and to nothing when a merchant’s credentials name another', () => {
    expect(narrowScope(tenantScope(businessCaller), undefined)).toEqual({ businessId: business, merchantId: null });
    expect(narrowScope(tenantScope(businessCaller), theirs)).toEqual({ businessId: business, merchantId: theirs });
    expect(narrowScope(tenantScope(merchantCaller), mine)).toEqual({ businessId: business, merchantId: mine });
    expect(narrowScope(tenantScope(merchantCaller), theirs)).toBeNull();
  });

  it('covers what its business owns, and of it only its merchant’s when it has one', () => {
    expect(scopeCovers(tenantScope(businessCaller), { businessId: business, merchantId: theirs })).toBe(true);
    expect(scopeCovers(tenantScope(businessCaller), { businessId: other, merchantId: theirs })).toBe(false);
    expect(scopeCovers(tenantScope(merchantCaller), { businessId: business, merchantId: mine })).toBe(true);
    expect(scopeCovers(tenantScope(merchantCaller), { businessId: business, merchantId: theirs })).toBe(false);
    expect(scopeCovers(tenantScope(merchantCaller), { businessId: other, merchantId: mine })).toBe(false);
  });
});
