import { Injectable } from '@nestjs/common';
import { Caller, DomainError, MerchantId, TenantScope, tenantScope, Transaction, UnitOfWork } from '@pcs/kernel';
import { Merchant } from './domain/merchant';
import { MerchantRepository } from './merchant.repository';

/**
 * The tenancy rule of contract §4, in one place. A merchant is visible to the
 * credentials of its business, and to its own merchant credentials; to anyone
 * else it does not exist (404, never 403).
 */
@Injectable()
export class MerchantAccess {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly merchants: MerchantRepository,
  ) {}

  /**
   * The merchant a request acts on. Merchant credentials imply their merchant;
   * a business with a single merchant implies it; otherwise it must be named.
   */
  async resolveMerchantId(caller: Caller, merchantId?: MerchantId | null, tx: Transaction = this.unitOfWork.outside): Promise<MerchantId> {
    if (merchantId) return (await this.loadVisible(caller, merchantId, tx)).id;
    const own = tenantScope(caller).merchantId;
    if (own) return own;
    const ids = await this.merchants.liveIdsOfBusiness(tx, caller.businessId, 2);
    if (ids.length === 1) return ids[0];
    throw new DomainError('MERCHANT_REQUIRED');
  }

  /**
   * What a read may see (contract §4): the merchant it names (visible to the
   * caller, else MERCHANT_NOT_FOUND), the merchant caller's own, or the
   * caller's whole business.
   */
  async scopeOf(caller: Caller, merchantId?: MerchantId | null): Promise<TenantScope> {
    if (merchantId) return { businessId: caller.businessId, merchantId: (await this.loadVisible(caller, merchantId)).id };
    return tenantScope(caller);
  }

  /** The merchant if the caller may see it; MERCHANT_NOT_FOUND otherwise. */
  async loadVisible(caller: Caller, merchantId: MerchantId, tx: Transaction = this.unitOfWork.outside, lock = false): Promise<Merchant> {
    const merchant = await this.merchants.findVisible(tx, tenantScope(caller), merchantId, lock);
    if (!merchant) throw new DomainError('MERCHANT_NOT_FOUND');
    return merchant;
  }
}
