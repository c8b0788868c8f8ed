import { Injectable } from '@nestjs/common';
import { BusinessService } from '@pcs/businesses';
import { CatalogService, CountryProcessor } from '@pcs/catalog';
import { BusinessId, Caller, DomainError, MerchantId, tenantScope, Transaction, UnitOfWork } from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { MerchantCountryProcessor, MerchantCountryProcessorProps } from './domain/merchant-country-processor';
import { MerchantAccess } from './merchant-access';
import { MerchantCountryProcessorRepository, MerchantRepository, RelationshipExistsError } from './merchant.repository';

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
    private readonly unitOfWork: UnitOfWork,
    private readonly access: MerchantAccess,
    private readonly catalog: CatalogService,
    private readonly businesses: BusinessService,
    private readonly relationships: MerchantCountryProcessorRepository,
    private readonly merchants: MerchantRepository,
  ) {}

  /** Operation 8. */
  async list(caller: Caller, merchantId?: MerchantId): Promise<MerchantCountryProcessorView[]> {
    const id = await this.access.resolveMerchantId(caller, merchantId);
    return this.views(await this.relationships.ofMerchant(this.unitOfWork.outside, id));
  }

  /**
   * Operation 9. Relating is idempotent: processors already related are
   * returned as they are, so a retried request creates nothing twice.
   */
  async relate(
    caller: Caller,
    merchantId: MerchantId | undefined,
    countryProcessorIds: readonly string[],
  ): Promise<MerchantCountryProcessorView[]> {
    const id = await this.access.resolveMerchantId(caller, merchantId);
    return this.views(await this.unitOfWork.run((tx) => this.relateWithin(tx, caller.businessId, id, countryProcessorIds)));
  }

  /** Relates inside the caller's transaction (also used by the merchant update). */
  async relateWithin(
    tx: Transaction,
    businessId: BusinessId,
    merchantId: MerchantId,
    countryProcessorIds: readonly string[],
  ): Promise<MerchantCountryProcessor[]> {
    const wanted = [...new Set(countryProcessorIds)];
    await this.assertEnabled(businessId, wanted, tx);
    const now = new Date();
    await this.relationships.insertMissing(
      tx,
      wanted.map((countryProcessorId) =>
        MerchantCountryProcessor.relate({ merchantCountryProcessorId: crypto.randomUUID(), merchantId, countryProcessorId, now }),
      ),
    );
    return this.relationships.ofMerchant(tx, merchantId, wanted);
  }

  /** Operation 37: switch the relationship on or off, or move it to another processor. */
  async update(
    caller: Caller,
    merchantCountryProcessorId: string,
    changes: MerchantCountryProcessorChanges,
  ): Promise<MerchantCountryProcessorView> {
    const saved = await this.unitOfWork.run(async (tx) => {
      const relationship = await this.relationships.findById(tx, merchantCountryProcessorId, true);
      if (!relationship || !(await this.merchants.findVisible(tx, tenantScope(caller), relationship.snapshot().merchantId))) {
        throw new DomainError('MERCHANT_COUNTRY_PROCESSOR_NOT_FOUND');
      }
      const now = new Date();
      if (changes.countryProcessorId !== undefined) {
        await this.assertEnabled(caller.businessId, [changes.countryProcessorId], tx);
        relationship.switchProcessor(changes.countryProcessorId, now);
      }
      if (changes.active !== undefined) relationship.setActive(changes.active, now);
      try {
        await this.relationships.save(tx, relationship);
      } catch (error) {
        if (error instanceof RelationshipExistsError) throw new DomainError('MERCHANT_COUNTRY_PROCESSOR_ALREADY_EXISTS');
        throw error;
      }
      return relationship;
    });
    return (await this.views([saved]))[0];
  }

  /**
   * The relationships with these ids that the caller may see (their merchant
   * visible to it), with their country processors; unknown and foreign ones
   * are simply absent.
   */
  async findVisible(
    caller: Caller,
    merchantCountryProcessorIds: readonly string[],
    tx: Transaction = this.unitOfWork.outside,
  ): Promise<MerchantCountryProcessorView[]> {
    const found = await this.relationships.findByIds(tx, [...new Set(merchantCountryProcessorIds)]);
    const visible: MerchantCountryProcessor[] = [];
    for (const relationship of found) {
      if (await this.merchants.findVisible(tx, tenantScope(caller), relationship.snapshot().merchantId)) visible.push(relationship);
    }
    return this.views(visible);
  }

  /** A relationship by id for the operator's commands, which act for no caller; null when unknown. */
  async findForOperator(merchantCountryProcessorId: string): Promise<MerchantCountryProcessorView | null> {
    const relationship = await this.relationships.findById(this.unitOfWork.outside, merchantCountryProcessorId);
    return relationship ? (await this.views([relationship]))[0] : null;
  }

  /** Completes onboarding of every pending relationship of a merchant (operator approval). */
  async completeOnboarding(merchantId: MerchantId, tx: Transaction): Promise<void> {
    const now = new Date();
    for (const relationship of await this.relationships.onboarding(tx, merchantId)) {
      relationship.completeOnboarding(now);
      await this.relationships.save(tx, relationship);
    }
  }

  /** Country processors a merchant offers to payers: ACTIVE, active, and active at the platform. */
  async offeredCountryProcessors(merchantId: MerchantId, tx: Transaction = this.unitOfWork.outside): Promise<CountryProcessor[]> {
    const processors = await this.catalog.findCountryProcessors(await this.relationships.offeredCountryProcessorIds(tx, merchantId));
    return processors.filter((p) => p.active);
  }

  private async assertEnabled(businessId: BusinessId, countryProcessorIds: readonly string[], tx: Transaction): Promise<void> {
    const enabled = await this.businesses.enabledCountryProcessorIds(businessId, countryProcessorIds, tx);
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
