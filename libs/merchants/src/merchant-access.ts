import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Caller, DomainError, isMerchantCaller } from '@pcs/kernel';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { MerchantOrmEntity } from './persistence/merchant.orm-entity';

/**
 * The tenancy rule of contract §4, in one place. A merchant is visible to the
 * credentials of its business, and to its own merchant credentials; to anyone
 * else it does not exist (404, never 403).
 */
@Injectable()
export class MerchantAccess {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The merchant a request acts on. Merchant credentials imply their merchant;
   * a business with a single merchant implies it; otherwise it must be named.
   */
  async resolveMerchantId(caller: Caller, merchantId?: string | null, manager?: EntityManager): Promise<string> {
    if (merchantId) return (await this.loadVisible(caller, merchantId, manager)).merchantId;
    if (isMerchantCaller(caller)) return caller.merchantId;
    const rows = await (manager ?? this.dataSource.manager).find(MerchantOrmEntity, {
      where: { businessId: caller.businessId, deletedAt: IsNull() },
      select: { merchantId: true },
      take: 2,
    });
    if (rows.length === 1) return rows[0].merchantId;
    throw new DomainError('MERCHANT_REQUIRED');
  }

  /** The merchant row if the caller may see it; MERCHANT_NOT_FOUND otherwise. */
  async loadVisible(caller: Caller, merchantId: string, manager?: EntityManager, lock = false): Promise<MerchantOrmEntity> {
    if (isMerchantCaller(caller) && caller.merchantId !== merchantId) throw new DomainError('MERCHANT_NOT_FOUND');
    const row = await (manager ?? this.dataSource.manager).findOne(MerchantOrmEntity, {
      where: { merchantId, businessId: caller.businessId, deletedAt: IsNull() },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!row) throw new DomainError('MERCHANT_NOT_FOUND');
    return row;
  }
}
