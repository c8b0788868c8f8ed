import { Injectable } from '@nestjs/common';
import { afterCommit, ChangeFeed, InvalidatedCache, isUniqueViolation, managerOf } from '@pcs/database';
import { EntityManager, In } from 'typeorm';
import { MerchantCountryProcessor } from '../domain/merchant-country-processor';
import { MerchantCountryProcessorRepository, RelationshipExistsError } from '../merchant.repository';
import { merchantCountryProcessorFromRow, merchantCountryProcessorToRow } from './merchant.mapper';
import { MerchantCountryProcessorOrmEntity } from './merchant-country-processor.orm-entity';
import type { MerchantId } from '@pcs/kernel';
import { Transaction } from '@pcs/kernel';

/**
 * A merchant's country processors in PostgreSQL. Which of them it offers is
 * read by every confirmed charge, so it is kept in memory per merchant and
 * forgotten when any of the merchant's rows changes (change feed, and at once
 * after this process commits a change).
 */
@Injectable()
export class TypeOrmMerchantCountryProcessorRepository extends MerchantCountryProcessorRepository {
  private readonly offered: InvalidatedCache<string[]>;

  constructor(changes: ChangeFeed) {
    super();
    this.offered = new InvalidatedCache(changes, 'merchant-processors', { maxEntries: 10_000, ttlMs: 10 * 60_000 });
  }

  async ofMerchant(tx: Transaction, merchantId: MerchantId, countryProcessorIds?: readonly string[]): Promise<MerchantCountryProcessor[]> {
    const manager = managerOf(tx);
    if (countryProcessorIds && countryProcessorIds.length === 0) return [];
    const rows = await manager.find(MerchantCountryProcessorOrmEntity, {
      where: { merchantId, ...(countryProcessorIds ? { countryProcessorId: In([...countryProcessorIds]) } : {}) },
      order: { createdAt: 'ASC', merchantCountryProcessorId: 'ASC' },
    });
    return rows.map(merchantCountryProcessorFromRow);
  }

  async insertMissing(tx: Transaction, relationships: readonly MerchantCountryProcessor[]): Promise<void> {
    const manager = managerOf(tx);
    if (relationships.length === 0) return;
    await manager
      .createQueryBuilder()
      .insert()
      .into(MerchantCountryProcessorOrmEntity)
      .values(relationships.map(merchantCountryProcessorToRow))
      .orIgnore() // ON CONFLICT DO NOTHING: already related stays as it is
      .execute();
    for (const merchantId of new Set(relationships.map((r) => r.snapshot().merchantId))) this.forget(manager, merchantId);
  }

  /** This process forgets the merchant's offer once its change commits (others hear of it from the change feed). */
  private forget(manager: EntityManager, merchantId: MerchantId): void {
    afterCommit(manager, () => this.offered.invalidate(merchantId));
  }

  async findById(tx: Transaction, merchantCountryProcessorId: string, lock = false): Promise<MerchantCountryProcessor | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(MerchantCountryProcessorOrmEntity, {
      where: { merchantCountryProcessorId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? merchantCountryProcessorFromRow(row) : null;
  }

  async findByIds(tx: Transaction, merchantCountryProcessorIds: readonly string[]): Promise<MerchantCountryProcessor[]> {
    const manager = managerOf(tx);
    if (merchantCountryProcessorIds.length === 0) return [];
    const rows = await manager.find(MerchantCountryProcessorOrmEntity, {
      where: { merchantCountryProcessorId: In([...merchantCountryProcessorIds]) },
    });
    return rows.map(merchantCountryProcessorFromRow);
  }

  async onboarding(tx: Transaction, merchantId: MerchantId): Promise<MerchantCountryProcessor[]> {
    const manager = managerOf(tx);
    const rows = await manager.find(MerchantCountryProcessorOrmEntity, {
      where: { merchantId, onboardingStatus: 'ONBOARDING' },
      lock: { mode: 'pessimistic_write' },
    });
    return rows.map(merchantCountryProcessorFromRow);
  }

  async offeredCountryProcessorIds(tx: Transaction, merchantId: MerchantId): Promise<string[]> {
    const manager = managerOf(tx);
    const ids = await this.offered.get(
      merchantId,
      async () => {
        const rows = await manager.find(MerchantCountryProcessorOrmEntity, {
          where: { merchantId, onboardingStatus: 'ACTIVE', active: true },
          select: { countryProcessorId: true, merchantCountryProcessorId: true },
        });
        return rows.map((r) => r.countryProcessorId);
      },
      !manager.queryRunner?.isTransactionActive,
    );
    return [...(ids ?? [])];
  }

  async save(tx: Transaction, relationship: MerchantCountryProcessor): Promise<void> {
    const manager = managerOf(tx);
    try {
      await manager.save(merchantCountryProcessorToRow(relationship));
      this.forget(manager, relationship.snapshot().merchantId);
    } catch (error) {
      if (isUniqueViolation(error, 'merchant_country_processor_unique')) throw new RelationshipExistsError();
      throw error;
    }
  }
}
