import { BusinessId, MerchantId, Page, PageRequest, TenantScope } from '@pcs/kernel';
import type { EntityManager } from 'typeorm';
import { Merchant } from './domain/merchant';
import type { PayoutSchedule } from './domain/payout-schedule';
import { MerchantConfiguration } from './domain/merchant-configuration';
import { MerchantCountryProcessor } from './domain/merchant-country-processor';

/**
 * Where the merchants context keeps its aggregates. Ports are abstract
 * classes (Nest injects them without tokens); the TypeORM adapters live in
 * persistence/. Every method takes the unit of work first: the manager of the
 * caller's transaction, or the data source's manager outside one.
 */
export abstract class MerchantRepository {
  /** A live merchant within the scope (contract §4), optionally locked for update. */
  abstract findVisible(manager: EntityManager, scope: TenantScope, merchantId: MerchantId, lock?: boolean): Promise<Merchant | null>;
  /** A merchant by id, for the operator and the service's own flows; deleted ones only when asked. Unlocked reads come from memory. */
  abstract findById(
    manager: EntityManager,
    merchantId: MerchantId,
    options?: { lock?: boolean; includeDeleted?: boolean },
  ): Promise<Merchant | null>;
  /** Up to `limit` ids of a business's live merchants. */
  abstract liveIdsOfBusiness(manager: EntityManager, businessId: BusinessId, limit: number): Promise<MerchantId[]>;
  /** Operation 1: newest first; the search term matches name, fantasy name, email or tax id. */
  abstract list(manager: EntityManager, scope: TenantScope, page: PageRequest, searchTerm?: string): Promise<Page<Merchant>>;
  abstract insert(manager: EntityManager, merchant: Merchant): Promise<void>;
  abstract save(manager: EntityManager, merchant: Merchant): Promise<void>;
}

/** A country's VAT as the merchant configured it, with the record's own id (shown by operation 6). */
export interface StoredCountryVat {
  readonly merchantCountryConfigurationId: string;
  readonly countryId: string;
  readonly vatRateBp: number;
}

export abstract class MerchantConfigurationRepository {
  abstract load(manager: EntityManager, merchantId: MerchantId, lock?: boolean): Promise<MerchantConfiguration | null>;
  abstract insert(manager: EntityManager, configuration: MerchantConfiguration, now: Date): Promise<void>;
  /**
   * Saves the settings; with `replaceCountryVats`, the country VATs become
   * exactly the configuration's (the ids of countries kept are preserved).
   * A short name already taken throws ShortNameTakenError.
   */
  abstract save(manager: EntityManager, configuration: MerchantConfiguration, now: Date, replaceCountryVats: boolean): Promise<void>;
  /** The stored country VATs, by country id. */
  abstract countryVats(manager: EntityManager, merchantId: MerchantId): Promise<StoredCountryVat[]>;
  abstract vatRateFor(manager: EntityManager, merchantId: MerchantId, countryId: string): Promise<number | null>;
  /** The merchant taking fast payments under a short name (case-insensitive), if any. */
  abstract fastPaymentMerchantId(manager: EntityManager, shortName: string): Promise<MerchantId | null>;
  /** The payout schedules of these merchants (a merchant without a configuration is absent). */
  abstract payoutSchedules(manager: EntityManager, merchantIds: readonly MerchantId[]): Promise<Map<MerchantId, PayoutSchedule>>;
}

export class ShortNameTakenError extends Error {
  constructor() {
    super('the short name is taken');
    this.name = 'ShortNameTakenError';
  }
}

export abstract class MerchantCountryProcessorRepository {
  /** A merchant's relationships, oldest first. */
  abstract ofMerchant(
    manager: EntityManager,
    merchantId: MerchantId,
    countryProcessorIds?: readonly string[],
  ): Promise<MerchantCountryProcessor[]>;
  /** Inserts relationships; one that already exists (merchant and processor) stays as it is. */
  abstract insertMissing(manager: EntityManager, relationships: readonly MerchantCountryProcessor[]): Promise<void>;
  abstract findById(manager: EntityManager, merchantCountryProcessorId: string, lock?: boolean): Promise<MerchantCountryProcessor | null>;
  abstract findByIds(manager: EntityManager, merchantCountryProcessorIds: readonly string[]): Promise<MerchantCountryProcessor[]>;
  /** Relationships still ONBOARDING, locked for update. */
  abstract onboarding(manager: EntityManager, merchantId: MerchantId): Promise<MerchantCountryProcessor[]>;
  /** Ids of the country processors of the merchant's ACTIVE, active relationships. */
  abstract offeredCountryProcessorIds(manager: EntityManager, merchantId: MerchantId): Promise<string[]>;
  /** Saves a relationship; moving it onto a processor it already has throws RelationshipExistsError. */
  abstract save(manager: EntityManager, relationship: MerchantCountryProcessor): Promise<void>;
}

export class RelationshipExistsError extends Error {
  constructor() {
    super('the merchant already has a relationship with that country processor');
    this.name = 'RelationshipExistsError';
  }
}
