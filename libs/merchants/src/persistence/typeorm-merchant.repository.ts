import { Injectable } from '@nestjs/common';
import { afterCommit, ChangeFeed, InvalidatedCache, managerOf, scopeNamedCondition, scopeWhere } from '@pcs/database';
import {
  asMerchantId,
  BusinessId,
  MerchantId,
  narrowScope,
  Page,
  pageOffset,
  PageRequest,
  scopeCovers,
  TenantScope,
  Transaction,
} from '@pcs/kernel';
import { Brackets, EntityManager, IsNull } from 'typeorm';
import { Merchant } from '../domain/merchant';
import { MerchantRepository } from '../merchant.repository';
import { merchantFromRow, merchantToRow } from './merchant.mapper';
import { MerchantOrmEntity } from './merchant.orm-entity';

/**
 * Merchants in PostgreSQL. Reads without a lock come from memory: nearly every
 * request reads its merchant, which rarely changes. The database announces
 * every change (trigger, change feed) to every process; this one also forgets
 * what it changed as soon as it commits.
 */
@Injectable()
export class TypeOrmMerchantRepository extends MerchantRepository {
  private readonly cache: InvalidatedCache<MerchantOrmEntity>;

  constructor(changes: ChangeFeed) {
    super();
    this.cache = new InvalidatedCache(changes, 'merchant', { maxEntries: 10_000, ttlMs: 10 * 60_000 });
  }

  async findVisible(tx: Transaction, scope: TenantScope, merchantId: MerchantId, lock = false): Promise<Merchant | null> {
    const manager = managerOf(tx);
    const narrowed = narrowScope(scope, merchantId);
    if (!narrowed) return null;
    if (!lock) {
      const row = await this.cachedRow(manager, merchantId);
      // A copy: the aggregate may change what it is given.
      return row && scopeCovers(narrowed, row) && row.deletedAt === null ? merchantFromRow(structuredClone(row)) : null;
    }
    const row = await manager.findOne(MerchantOrmEntity, {
      where: { ...scopeWhere(narrowed), deletedAt: IsNull() },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? merchantFromRow(row) : null;
  }

  async findById(
    tx: Transaction,
    merchantId: MerchantId,
    options: { lock?: boolean; includeDeleted?: boolean } = {},
  ): Promise<Merchant | null> {
    const manager = managerOf(tx);
    if (!options.lock) {
      const row = await this.cachedRow(manager, merchantId);
      return row && (options.includeDeleted || row.deletedAt === null) ? merchantFromRow(structuredClone(row)) : null;
    }
    const row = await manager.findOne(MerchantOrmEntity, {
      where: { merchantId, ...(options.includeDeleted ? {} : { deletedAt: IsNull() }) },
      lock: { mode: 'pessimistic_write' },
    });
    return row ? merchantFromRow(row) : null;
  }

  /** The merchant's row (deleted ones too) from memory, or read (and kept, outside a transaction). */
  private cachedRow(manager: EntityManager, merchantId: MerchantId): Promise<MerchantOrmEntity | null> {
    return this.cache.get(
      merchantId,
      () => manager.findOne(MerchantOrmEntity, { where: { merchantId } }),
      !manager.queryRunner?.isTransactionActive,
    );
  }

  async liveIdsOfBusiness(tx: Transaction, businessId: BusinessId, limit: number): Promise<MerchantId[]> {
    const manager = managerOf(tx);
    const rows = await manager.find(MerchantOrmEntity, {
      where: { businessId, deletedAt: IsNull() },
      select: { merchantId: true },
      take: limit,
    });
    return rows.map((r) => asMerchantId(r.merchantId));
  }

  async list(tx: Transaction, scope: TenantScope, page: PageRequest, searchTerm?: string): Promise<Page<Merchant>> {
    const manager = managerOf(tx);
    const inScope = scopeNamedCondition(scope, 'm');
    const query = manager.createQueryBuilder(MerchantOrmEntity, 'm').where(`${inScope.sql} AND m.deleted_at IS NULL`, inScope.parameters);
    const term = searchTerm?.trim();
    if (term) {
      const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query.andWhere(
        new Brackets((q) =>
          q
            .where('m.merchant_name ILIKE :pattern', { pattern })
            .orWhere('m.fantasy_name ILIKE :pattern')
            .orWhere('m.email ILIKE :pattern')
            .orWhere('m.tax_id_number ILIKE :pattern'),
        ),
      );
    }
    const [rows, total] = await query
      .orderBy('m.created_at', 'DESC')
      .addOrderBy('m.merchant_id', 'ASC')
      .skip(pageOffset(page))
      .take(page.limit)
      .getManyAndCount();
    return { items: rows.map(merchantFromRow), page: page.page, limit: page.limit, total };
  }

  async insert(tx: Transaction, merchant: Merchant): Promise<void> {
    const manager = managerOf(tx);
    await manager.insert(MerchantOrmEntity, merchantToRow(merchant));
  }

  async save(tx: Transaction, merchant: Merchant): Promise<void> {
    const manager = managerOf(tx);
    await manager.save(merchantToRow(merchant));
    afterCommit(manager, () => this.cache.invalidate(merchant.id));
  }
}
