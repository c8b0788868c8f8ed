import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { BusinessService } from '@pcs/businesses';
import { CatalogService, CountryProcessor } from '@pcs/catalog';
import { inTransaction, isUniqueViolation } from '@pcs/database';
import { Caller, DomainError, isMerchantCaller } from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { MerchantCountryProcessor, MerchantCountryProcessorProps } from './domain/merchant-country-processor';
import { MerchantAccess } from './merchant-access';
import { merchantCountryProcessorFromRow, merchantCountryProcessorToRow } from './persistence/merchant.mapper';
import { MerchantCountryProcessorOrmEntity } from './persistence/merchant-country-processor.orm-entity';
import { MerchantOrmEntity } from './persistence/merchant.orm-entity';

export interface MerchantCountryProcessorView {
  readonly relationship: Readonly<MerchantCountryProcessorProps>;
  readonly countryProcessor: CountryProcessor;
}

export interface MerchantCountryProcessorChanges {
  readonly countryProcessorId?: string;
  readonly active?: boolean;
}

@Injectable()
export class MerchantCountryProcessorService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: MerchantAccess,
    private readonly catalog: CatalogService,
    private readonly businesses: BusinessService,
  ) {}

  /** Operation 8. */
  async list(caller: Caller, merchantId?: string): Promise<MerchantCountryProcessorView[]> {
    const id = await this.access.resolveMerchantId(caller, merchantId);
    const rows = await this.dataSource.manager.find(MerchantCountryProcessorOrmEntity, {
      where: { merchantId: id },
      order: { createdAt: 'ASC', merchantCountryProcessorId: 'ASC' },
    });
    return this.views(rows.map(merchantCountryProcessorFromRow));
  }

  /**
   * Operation 9. Relating is idempotent: processors already related are
   * returned as they are, so a retried request creates nothing twice.
   */
  async relate(
    caller: Caller,
    merchantId: string | undefined,
    countryProcessorIds: readonly string[],
  ): Promise<MerchantCountryProcessorView[]> {
    const id = await this.access.resolveMerchantId(caller, merchantId);
    const rows = await inTransaction(this.dataSource, (manager) => this.relateWithin(manager, caller.businessId, id, countryProcessorIds));
    return this.views(rows.map(merchantCountryProcessorFromRow));
  }

  /** Relates inside the caller's transaction (also used by the merchant update). */
  async relateWithin(
    manager: EntityManager,
    businessId: string,
    merchantId: string,
    countryProcessorIds: readonly string[],
  ): Promise<MerchantCountryProcessorOrmEntity[]> {
    const wanted = [...new Set(countryProcessorIds)];
    await this.assertEnabled(businessId, wanted, manager);
    const now = new Date();
    const fresh = wanted.map((countryProcessorId) =>
      merchantCountryProcessorToRow(
        MerchantCountryProcessor.relate({ merchantCountryProcessorId: crypto.randomUUID(), merchantId, countryProcessorId, now }),
      ),
    );
    if (fresh.length > 0) {
      await manager
        .createQueryBuilder()
        .insert()
        .into(MerchantCountryProcessorOrmEntity)
        .values(fresh)
        .orIgnore() // ON CONFLICT DO NOTHING: already related stays as it is
        .execute();
    }
    return manager.find(MerchantCountryProcessorOrmEntity, {
      where: { merchantId, countryProcessorId: In(wanted.length > 0 ? wanted : ['00000000-0000-0000-0000-000000000000']) },
      order: { createdAt: 'ASC', merchantCountryProcessorId: 'ASC' },
    });
  }

  /** Operation 37: switch the relationship on or off, or move it to another processor. */
  async update(
    caller: Caller,
    merchantCountryProcessorId: string,
    changes: MerchantCountryProcessorChanges,
  ): Promise<MerchantCountryProcessorView> {
    const saved = await inTransaction(this.dataSource, async (manager) => {
      const row = await manager.findOne(MerchantCountryProcessorOrmEntity, {
        where: { merchantCountryProcessorId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!row || !(await this.isVisible(caller, row.merchantId, manager))) {
        throw new DomainError('MERCHANT_COUNTRY_PROCESSOR_NOT_FOUND');
      }
      const relationship = merchantCountryProcessorFromRow(row);
      const now = new Date();
      if (changes.countryProcessorId !== undefined) {
        await this.assertEnabled(caller.businessId, [changes.countryProcessorId], manager);
        relationship.switchProcessor(changes.countryProcessorId, now);
      }
      if (changes.active !== undefined) relationship.setActive(changes.active, now);
      try {
        await manager.save(merchantCountryProcessorToRow(relationship));
      } catch (error) {
        if (isUniqueViolation(error, 'merchant_country_processor_unique'))
          throw new DomainError('MERCHANT_COUNTRY_PROCESSOR_ALREADY_EXISTS');
        throw error;
      }
      return relationship;
    });
    return (await this.views([saved]))[0];
  }

  /** Completes onboarding of every pending relationship of a merchant (operator approval). */
  async completeOnboarding(merchantId: string, manager: EntityManager): Promise<void> {
    const rows = await manager.find(MerchantCountryProcessorOrmEntity, {
      where: { merchantId, onboardingStatus: 'ONBOARDING' },
      lock: { mode: 'pessimistic_write' },
    });
    const now = new Date();
    for (const row of rows) {
      const relationship = merchantCountryProcessorFromRow(row);
      relationship.completeOnboarding(now);
      await manager.save(merchantCountryProcessorToRow(relationship));
    }
  }

  /** Country processors a merchant offers to payers: ACTIVE, active, and active at the platform. */
  async offeredCountryProcessors(merchantId: string, manager: EntityManager = this.dataSource.manager): Promise<CountryProcessor[]> {
    const rows = await manager.find(MerchantCountryProcessorOrmEntity, {
      where: { merchantId, onboardingStatus: 'ACTIVE', active: true },
    });
    const processors = await this.catalog.findCountryProcessors(rows.map((r) => r.countryProcessorId));
    return processors.filter((p) => p.active);
  }

  private async isVisible(caller: Caller, merchantId: string, manager: EntityManager): Promise<boolean> {
    if (isMerchantCaller(caller) && caller.merchantId !== merchantId) return false;
    return manager.exists(MerchantOrmEntity, { where: { merchantId, businessId: caller.businessId, deletedAt: IsNull() } });
  }

  private async assertEnabled(businessId: string, countryProcessorIds: readonly string[], manager: EntityManager): Promise<void> {
    const enabled = await this.businesses.enabledCountryProcessorIds(businessId, countryProcessorIds, manager);
    const missing = countryProcessorIds.filter((id) => !enabled.has(id));
    if (missing.length > 0) throw new DomainError('COUNTRY_PROCESSOR_NOT_ENABLED', undefined, { ids: missing.join(', ') });
  }

  private async views(relationships: MerchantCountryProcessor[]): Promise<MerchantCountryProcessorView[]> {
    const snapshots = relationships.map((r) => r.snapshot());
    const processors = new Map(
      (await this.catalog.findCountryProcessors(snapshots.map((s) => s.countryProcessorId))).map((p) => [p.countryProcessorId, p]),
    );
    return snapshots.map((relationship) => ({ relationship, countryProcessor: processors.get(relationship.countryProcessorId)! }));
  }
}
