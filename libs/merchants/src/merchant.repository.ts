import type { InstallmentPolicy } from './domain/installment-policy';
import type { RoutingRule } from './domain/routing-rules';
import type { CardTestingGuardSettings } from './domain/card-testing-guard';
import type { DunningSettings } from './domain/dunning';
import { BusinessId, MerchantId, Page, PageRequest, TenantScope, Transaction } from '@pcs/kernel';
import { Merchant } from './domain/merchant';
import type { PayoutSchedule } from './domain/payout-schedule';
import { MerchantConfiguration } from './domain/merchant-configuration';
import { MerchantCountryProcessor } from './domain/merchant-country-processor';

/**
 * Where the merchants context keeps its aggregates. Ports are abstract
 * classes (Nest injects them without tokens); the TypeORM adapters live in
 * persistence/. Every method takes the unit of work first: the caller's
 * transaction, or `UnitOfWork.outside` outside one.
 */
export abstract class MerchantRepository {
  /** A live merchant within the scope (contract §4), optionally locked for update. */
  abstract findVisible(tx: Transaction, scope: TenantScope, merchantId: MerchantId, lock?: boolean): Promise<Merchant | null>;
  /** A merchant by id, for the operator and the service's own flows; deleted ones only when asked. Unlocked reads come from memory. */
  abstract findById(
    tx: Transaction,
    merchantId: MerchantId,
    options?: { lock?: boolean; includeDeleted?: boolean },
  ): Promise<Merchant | null>;
  /** Up to `limit` ids of a business's live merchants. */
  abstract liveIdsOfBusiness(tx: Transaction, businessId: BusinessId, limit: number): Promise<MerchantId[]>;
  /** Operation 1: newest first; the search term matches name, fantasy name, email or tax id. */
  abstract list(tx: Transaction, scope: TenantScope, page: PageRequest, searchTerm?: string): Promise<Page<Merchant>>;
  abstract insert(tx: Transaction, merchant: Merchant): Promise<void>;
  abstract save(tx: Transaction, merchant: Merchant): Promise<void>;
}

/** A country's VAT as the merchant configured it, with the record's own id (shown by operation 6). */
export interface StoredCountryVat {
  readonly merchantCountryConfigurationId: string;
  readonly countryId: string;
  readonly vatRateBp: number;
}

export abstract class MerchantConfigurationRepository {
  abstract load(tx: Transaction, merchantId: MerchantId, lock?: boolean): Promise<MerchantConfiguration | null>;
  abstract insert(tx: Transaction, configuration: MerchantConfiguration, now: Date): Promise<void>;
  /**
   * Saves the settings; with `replaceCountryVats`, the country VATs become
   * exactly the configuration's (the ids of countries kept are preserved).
   * A short name already taken throws ShortNameTakenError.
   */
  abstract save(tx: Transaction, configuration: MerchantConfiguration, now: Date, replaceCountryVats: boolean): Promise<void>;
  /** The stored country VATs, by country id. */
  abstract countryVats(tx: Transaction, merchantId: MerchantId): Promise<StoredCountryVat[]>;
  abstract vatRateFor(tx: Transaction, merchantId: MerchantId, countryId: string): Promise<number | null>;
  /** The merchant taking fast payments under a short name (case-insensitive), if any. */
  abstract fastPaymentMerchantId(tx: Transaction, shortName: string): Promise<MerchantId | null>;
  /** The payout schedules of these merchants (a merchant without a configuration is absent). */
  abstract payoutSchedules(tx: Transaction, merchantIds: readonly MerchantId[]): Promise<Map<MerchantId, PayoutSchedule>>;
  /** The merchant's installment policy alone (read by attempts and payers' pages; none: one installment everywhere). */
  abstract installmentPolicy(tx: Transaction, merchantId: MerchantId): Promise<InstallmentPolicy>;
  /** The merchant's card-testing guard alone (contract §30; read at every attempt from a public page). */
  abstract cardTestingGuard(tx: Transaction, merchantId: MerchantId): Promise<CardTestingGuardSettings>;
  abstract dunning(tx: Transaction, merchantId: MerchantId): Promise<DunningSettings>;
  /** The merchant's routing rules alone (read at every initialize; none: no rule). */
  abstract routing(tx: Transaction, merchantId: MerchantId): Promise<RoutingRule[]>;
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
    tx: Transaction,
    merchantId: MerchantId,
    countryProcessorIds?: readonly string[],
  ): Promise<MerchantCountryProcessor[]>;
  /** Inserts relationships; one that already exists (merchant and processor) stays as it is. */
  abstract insertMissing(tx: Transaction, relationships: readonly MerchantCountryProcessor[]): Promise<void>;
  abstract findById(tx: Transaction, merchantCountryProcessorId: string, lock?: boolean): Promise<MerchantCountryProcessor | null>;
  abstract findByIds(tx: Transaction, merchantCountryProcessorIds: readonly string[]): Promise<MerchantCountryProcessor[]>;
  /** Relationships still ONBOARDING, locked for update. */
  abstract onboarding(tx: Transaction, merchantId: MerchantId): Promise<MerchantCountryProcessor[]>;
  /** Ids of the country processors of the merchant's ACTIVE, active relationships. */
  abstract offeredCountryProcessorIds(tx: Transaction, merchantId: MerchantId): Promise<string[]>;
  /** Saves a relationship; moving it onto a processor it already has throws RelationshipExistsError. */
  abstract save(tx: Transaction, relationship: MerchantCountryProcessor): Promise<void>;
}

export class RelationshipExistsError extends Error {
  constructor() {
    super('the merchant already has a relationship with that country processor');
    this.name = 'RelationshipExistsError';
  }
}
