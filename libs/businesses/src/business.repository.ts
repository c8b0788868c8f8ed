import type { Reseal } from '@pcs/config';
import { CredentialSummary, SignatureVersion, StoredCredential } from './domain/credential';
import { BusinessId, MerchantId, TenantScope, Transaction } from '@pcs/kernel';

/** Where businesses and the country processors enabled for them are kept (port; the TypeORM adapter is in persistence/). */
export abstract class BusinessRepository {
  abstract insert(tx: Transaction, business: { businessId: BusinessId; name: string }): Promise<void>;
  abstract exists(tx: Transaction, businessId: BusinessId): Promise<boolean>;
  abstract enableCountryProcessors(tx: Transaction, businessId: BusinessId, countryProcessorIds: readonly string[]): Promise<void>;
  /** The business's enabled processors, oldest first. */
  abstract enabledCountryProcessors(
    tx: Transaction,
    businessId: BusinessId,
  ): Promise<{ businessCountryProcessorId: string; countryProcessorId: string }[]>;
  /** The subset of `countryProcessorIds` enabled for the business. */
  abstract enabledAmong(tx: Transaction, businessId: BusinessId, countryProcessorIds: readonly string[]): Promise<Set<string>>;
}

/** Where API credentials are kept (port; the TypeORM adapter is in persistence/). */
export abstract class CredentialRepository {
  abstract insert(tx: Transaction, credential: StoredCredential): Promise<void>;
  abstract findByApiKey(tx: Transaction, apiKey: string): Promise<StoredCredential | null>;
  abstract findById(tx: Transaction, credentialId: string): Promise<StoredCredential | null>;
  /** A new secret on the same key; the current one becomes the previous one until `previousExpiresAt` (contract §22). */
  abstract replaceSecret(tx: Transaction, credentialId: string, secretCiphertext: string, previousExpiresAt: Date): Promise<void>;
  /** The last use of one of a credential's secrets, to the minute; a later minute only. */
  abstract recordUse(tx: Transaction, credentialId: string, secret: 'current' | 'previous', minute: Date): Promise<void>;
  /** The credentials of a business and of its merchants, with their last uses. */
  abstract summariesOf(tx: Transaction, scope: TenantScope): Promise<CredentialSummary[]>;
  abstract exists(tx: Transaction, apiKey: string): Promise<boolean>;
  /** Every credential's secrets (current and previous) sealed again, rows locked in the transaction; how many. */
  abstract resealAll(tx: Transaction, reseal: Reseal): Promise<number>;
  /**
   * Serialises work on one owner's credentials (a transaction-scoped advisory
   * lock): concurrent rotations of an owner run one after another.
   */
  abstract lockOwner(tx: Transaction, owner: { businessId: BusinessId; merchantId: MerchantId | null }): Promise<void>;
  /** The owner's pairs that are not revoked. */
  abstract unrevokedOf(tx: Transaction, owner: { businessId: BusinessId; merchantId: MerchantId | null }): Promise<StoredCredential[]>;
  abstract setExpiry(tx: Transaction, credentialId: string, expiresAt: Date): Promise<void>;
  /** Revokes a key (false when it was not usable, or unknown). */
  abstract revoke(tx: Transaction, apiKey: string, at: Date): Promise<boolean>;
  /** False when no credential has that key. */
  abstract setMinSignatureVersion(tx: Transaction, apiKey: string, version: SignatureVersion): Promise<boolean>;
  /**
   * Records a signed request until `expiresAt`; false when it was recorded
   * before (a replay). A few expired records are removed on the way.
   */
  /** Records many at once (distinct pairs); answers the indexes of those that were not recorded before. */
  abstract recordSignedRequests(
    tx: Transaction,
    records: readonly { apiKey: string; signature: string; expiresAt: Date }[],
  ): Promise<Set<number>>;
  abstract forgetSignedRequest(tx: Transaction, apiKey: string, signature: string): Promise<void>;
  abstract revokeAllOfMerchant(tx: Transaction, merchantId: MerchantId, at: Date): Promise<void>;
  /** Each merchant's unrevoked, non-expiring pairs, newest first. */
  abstract openEndedOfMerchants(tx: Transaction, merchantIds: readonly MerchantId[]): Promise<StoredCredential[]>;
}
