import type { Reseal } from '@pcs/config';
import type { EntityManager } from 'typeorm';
import { CredentialSummary, StoredCredential } from './domain/credential';
import type { BusinessId, MerchantId, TenantScope } from '@pcs/kernel';

/** Where businesses and the country processors enabled for them are kept (port; the TypeORM adapter is in persistence/). */
export abstract class BusinessRepository {
  abstract insert(manager: EntityManager, business: { businessId: BusinessId; name: string }): Promise<void>;
  abstract exists(manager: EntityManager, businessId: BusinessId): Promise<boolean>;
  abstract enableCountryProcessors(manager: EntityManager, businessId: BusinessId, countryProcessorIds: readonly string[]): Promise<void>;
  /** The business's enabled processors, oldest first. */
  abstract enabledCountryProcessors(
    manager: EntityManager,
    businessId: BusinessId,
  ): Promise<{ businessCountryProcessorId: string; countryProcessorId: string }[]>;
  /** The subset of `countryProcessorIds` enabled for the business. */
  abstract enabledAmong(manager: EntityManager, businessId: BusinessId, countryProcessorIds: readonly string[]): Promise<Set<string>>;
}

/** Where API credentials are kept (port; the TypeORM adapter is in persistence/). */
export abstract class CredentialRepository {
  abstract insert(manager: EntityManager, credential: StoredCredential): Promise<void>;
  abstract findByApiKey(manager: EntityManager, apiKey: string): Promise<StoredCredential | null>;
  abstract findById(manager: EntityManager, credentialId: string): Promise<StoredCredential | null>;
  /** A new secret on the same key; the current one becomes the previous one until `previousExpiresAt` (contract §22). */
  abstract replaceSecret(manager: EntityManager, credentialId: string, secretCiphertext: string, previousExpiresAt: Date): Promise<void>;
  /** The last use of one of a credential's secrets, to the minute; a later minute only. */
  abstract recordUse(manager: EntityManager, credentialId: string, secret: 'current' | 'previous', minute: Date): Promise<void>;
  /** The credentials of a business and of its merchants, with their last uses. */
  abstract summariesOf(manager: EntityManager, scope: TenantScope): Promise<CredentialSummary[]>;
  abstract exists(manager: EntityManager, apiKey: string): Promise<boolean>;
  /** Every credential's secrets (current and previous) sealed again, rows locked in the manager's transaction; how many. */
  abstract resealAll(manager: EntityManager, reseal: Reseal): Promise<number>;
  /**
   * Serialises work on one owner's credentials (a transaction-scoped advisory
   * lock): concurrent rotations of an owner run one after another.
   */
  abstract lockOwner(manager: EntityManager, owner: { businessId: BusinessId; merchantId: MerchantId | null }): Promise<void>;
  /** The owner's pairs that are not revoked. */
  abstract unrevokedOf(
    manager: EntityManager,
    owner: { businessId: BusinessId; merchantId: MerchantId | null },
  ): Promise<StoredCredential[]>;
  abstract setExpiry(manager: EntityManager, credentialId: string, expiresAt: Date): Promise<void>;
  /** Revokes a key (false when it was not usable, or unknown). */
  abstract revoke(manager: EntityManager, apiKey: string, at: Date): Promise<boolean>;
  /** False when no credential has that key. */
  abstract setRequireTimestamp(manager: EntityManager, apiKey: string, required: boolean): Promise<boolean>;
  /**
   * Records a signed request until `expiresAt`; false when it was recorded
   * before (a replay). A few expired records are removed on the way.
   */
  abstract recordSignedRequest(manager: EntityManager, apiKey: string, signature: string, expiresAt: Date): Promise<boolean>;
  abstract forgetSignedRequest(manager: EntityManager, apiKey: string, signature: string): Promise<void>;
  abstract revokeAllOfMerchant(manager: EntityManager, merchantId: MerchantId, at: Date): Promise<void>;
  /** Each merchant's unrevoked, non-expiring pairs, newest first. */
  abstract openEndedOfMerchants(manager: EntityManager, merchantIds: readonly MerchantId[]): Promise<StoredCredential[]>;
}
