import { Injectable } from '@nestjs/common';
import * as crypto from 'node:crypto';
import type { Reseal } from '@pcs/config';
import { In, IsNull } from 'typeorm';
import { BusinessRepository, CredentialRepository } from '../business.repository';
import { asBusinessId, asMerchantId, BusinessId, isCredentialScope, MerchantId, TenantScope, Transaction } from '@pcs/kernel';
import { managerOf, scopeCondition } from '@pcs/database';
import { asSignatureVersion, CredentialSummary, SignatureVersion, StoredCredential } from '../domain/credential';
import { ApiCredentialOrmEntity } from './api-credential.orm-entity';
import { BusinessOrmEntity } from './business.orm-entity';
import { BusinessCountryProcessorOrmEntity } from './business-country-processor.orm-entity';

@Injectable()
export class TypeOrmBusinessRepository extends BusinessRepository {
  async insert(tx: Transaction, business: { businessId: BusinessId; name: string }): Promise<void> {
    const manager = managerOf(tx);
    await manager.insert(BusinessOrmEntity, business);
  }

  async exists(tx: Transaction, businessId: BusinessId): Promise<boolean> {
    const manager = managerOf(tx);
    return manager.exists(BusinessOrmEntity, { where: { businessId } });
  }

  async enableCountryProcessors(tx: Transaction, businessId: BusinessId, countryProcessorIds: readonly string[]): Promise<void> {
    const manager = managerOf(tx);
    if (countryProcessorIds.length === 0) return;
    await manager.insert(
      BusinessCountryProcessorOrmEntity,
      countryProcessorIds.map((countryProcessorId) => ({
        businessCountryProcessorId: crypto.randomUUID(),
        businessId,
        countryProcessorId,
      })),
    );
  }

  async enabledCountryProcessors(
    tx: Transaction,
    businessId: BusinessId,
  ): Promise<{ businessCountryProcessorId: string; countryProcessorId: string }[]> {
    const manager = managerOf(tx);
    const rows = await manager.find(BusinessCountryProcessorOrmEntity, {
      where: { businessId },
      order: { createdAt: 'ASC', countryProcessorId: 'ASC' },
    });
    return rows.map(({ businessCountryProcessorId, countryProcessorId }) => ({ businessCountryProcessorId, countryProcessorId }));
  }

  async enabledAmong(tx: Transaction, businessId: BusinessId, countryProcessorIds: readonly string[]): Promise<Set<string>> {
    const manager = managerOf(tx);
    if (countryProcessorIds.length === 0) return new Set();
    const rows = await manager.find(BusinessCountryProcessorOrmEntity, {
      where: { businessId, countryProcessorId: In([...countryProcessorIds]) },
      select: { countryProcessorId: true },
    });
    return new Set(rows.map((r) => r.countryProcessorId));
  }
}

@Injectable()
export class TypeOrmCredentialRepository extends CredentialRepository {
  async resealAll(tx: Transaction, reseal: Reseal): Promise<number> {
    const manager = managerOf(tx);
    const rows = await manager.query<{ credential_id: string; api_key: string; secret_ciphertext: string; previous: string | null }[]>(
      'SELECT credential_id, api_key, secret_ciphertext, previous_secret_ciphertext AS previous FROM api_credential ORDER BY credential_id FOR UPDATE',
    );
    for (const row of rows) {
      await manager.query('UPDATE api_credential SET secret_ciphertext = $2, previous_secret_ciphertext = $3 WHERE credential_id = $1', [
        row.credential_id,
        reseal(row.secret_ciphertext, row.api_key),
        row.previous && reseal(row.previous, row.api_key),
      ]);
    }
    return rows.length;
  }

  async insert(tx: Transaction, credential: StoredCredential): Promise<void> {
    const manager = managerOf(tx);
    await manager.insert(ApiCredentialOrmEntity, { ...credential, scopes: credential.scopes ? [...credential.scopes] : null });
  }

  async findByApiKey(tx: Transaction, apiKey: string): Promise<StoredCredential | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(ApiCredentialOrmEntity, { where: { apiKey } });
    return row ? credentialFromRow(row) : null;
  }

  async findById(tx: Transaction, credentialId: string): Promise<StoredCredential | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(ApiCredentialOrmEntity, { where: { credentialId } });
    return row ? credentialFromRow(row) : null;
  }

  async exists(tx: Transaction, apiKey: string): Promise<boolean> {
    const manager = managerOf(tx);
    return manager.exists(ApiCredentialOrmEntity, { where: { apiKey } });
  }

  async lockOwner(tx: Transaction, owner: { businessId: BusinessId; merchantId: MerchantId | null }): Promise<void> {
    const manager = managerOf(tx);
    await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`credentials:${owner.merchantId ?? owner.businessId}`]);
  }

  async unrevokedOf(tx: Transaction, owner: { businessId: BusinessId; merchantId: MerchantId | null }): Promise<StoredCredential[]> {
    const manager = managerOf(tx);
    const rows = await manager.find(ApiCredentialOrmEntity, {
      where: { businessId: owner.businessId, merchantId: owner.merchantId ?? IsNull(), revokedAt: IsNull() },
    });
    return rows.map(credentialFromRow);
  }

  async replaceSecret(tx: Transaction, credentialId: string, secretCiphertext: string, previousExpiresAt: Date): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(
      `UPDATE api_credential SET previous_secret_ciphertext = secret_ciphertext, previous_secret_expires_at = $3, secret_ciphertext = $2
        WHERE credential_id = $1`,
      [credentialId, secretCiphertext, previousExpiresAt],
    );
    // The current secret's last use becomes the previous one's; a secret before it is gone.
    await manager.query(`DELETE FROM api_credential_use WHERE credential_id = $1 AND secret = 'previous'`, [credentialId]);
    await manager.query(`UPDATE api_credential_use SET secret = 'previous' WHERE credential_id = $1 AND secret = 'current'`, [
      credentialId,
    ]);
  }

  async recordUse(tx: Transaction, credentialId: string, secret: 'current' | 'previous', minute: Date): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(
      `INSERT INTO api_credential_use (credential_id, secret, used_at) VALUES ($1, $2, $3)
       ON CONFLICT (credential_id, secret) DO UPDATE SET used_at = EXCLUDED.used_at WHERE api_credential_use.used_at < EXCLUDED.used_at`,
      [credentialId, secret, minute],
    );
  }

  async summariesOf(tx: Transaction, scope: TenantScope): Promise<CredentialSummary[]> {
    const manager = managerOf(tx);
    const values: unknown[] = [];
    const rows: Record<string, never>[] = await manager.query(
      `SELECT c.api_key, c.business_id, c.merchant_id, c.created_at, c.expires_at, c.revoked_at, c.scopes,
              c.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > now()) AS usable,
              CASE WHEN c.previous_secret_expires_at > now() THEN c.previous_secret_expires_at END AS previous_expires_at,
              cur.used_at AS last_used_at, prev.used_at AS previous_last_used_at
         FROM api_credential c
         LEFT JOIN api_credential_use cur ON cur.credential_id = c.credential_id AND cur.secret = 'current'
         LEFT JOIN api_credential_use prev ON prev.credential_id = c.credential_id AND prev.secret = 'previous'
        WHERE ${scopeCondition(scope, 'c', values)}
        ORDER BY c.merchant_id NULLS FIRST, c.created_at DESC
        LIMIT 1000`,
      values,
    );
    return rows.map((row) => ({
      apiKey: row.api_key,
      businessId: asBusinessId(row.business_id),
      merchantId: row.merchant_id === null ? null : asMerchantId(row.merchant_id),
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
      usable: row.usable,
      lastUsedAt: row.last_used_at,
      previousSecretExpiresAt: row.previous_expires_at,
      previousSecretLastUsedAt: row.previous_last_used_at,
      scopes: row.scopes ? (row.scopes as string[]).filter(isCredentialScope) : null,
    }));
  }

  async setExpiry(tx: Transaction, credentialId: string, expiresAt: Date): Promise<void> {
    const manager = managerOf(tx);
    await manager.update(ApiCredentialOrmEntity, { credentialId }, { expiresAt });
  }

  async revoke(tx: Transaction, apiKey: string, at: Date): Promise<boolean> {
    const manager = managerOf(tx);
    const result = await manager.update(ApiCredentialOrmEntity, { apiKey, revokedAt: IsNull() }, { revokedAt: at });
    return Boolean(result.affected);
  }

  async setMinSignatureVersion(tx: Transaction, apiKey: string, version: SignatureVersion): Promise<boolean> {
    const manager = managerOf(tx);
    return Boolean((await manager.update(ApiCredentialOrmEntity, { apiKey }, { minSignatureVersion: version })).affected);
  }

  async recordSignedRequests(
    tx: Transaction,
    records: readonly { apiKey: string; signature: string; expiresAt: Date }[],
  ): Promise<Set<number>> {
    const manager = managerOf(tx);
    // One statement for many: the inserts, and the removal of a few records whose time can no longer be accepted. Each
    // record is distinct (the caller answers a repeat within one batch itself); those inserted are those not seen before.
    const rows = await manager.query<{ i: number }[]>(
      `WITH purged AS (
         DELETE FROM signed_request WHERE ctid IN (SELECT ctid FROM signed_request WHERE expires_at < now() LIMIT 50)
       ), inserted AS (
         INSERT INTO signed_request (api_key, signature, expires_at)
         SELECT api_key, signature, expires_at FROM unnest($1::varchar[], $2::char(64)[], $3::timestamptz[]) AS r(api_key, signature, expires_at)
         ON CONFLICT DO NOTHING RETURNING api_key, signature
       )
       SELECT r.i::int AS i FROM unnest($1::varchar[], $2::char(64)[]) WITH ORDINALITY AS r(api_key, signature, i)
         JOIN inserted USING (api_key, signature)`,
      [records.map((r) => r.apiKey), records.map((r) => r.signature), records.map((r) => r.expiresAt)],
    );
    return new Set(rows.map((row) => row.i - 1));
  }

  async forgetSignedRequest(tx: Transaction, apiKey: string, signature: string): Promise<void> {
    const manager = managerOf(tx);
    await manager.query('DELETE FROM signed_request WHERE api_key = $1 AND signature = $2', [apiKey, signature]);
  }

  async revokeAllOfMerchant(tx: Transaction, merchantId: MerchantId, at: Date): Promise<void> {
    const manager = managerOf(tx);
    await manager.update(ApiCredentialOrmEntity, { merchantId, revokedAt: IsNull() }, { revokedAt: at });
  }

  async openEndedOfMerchants(tx: Transaction, merchantIds: readonly MerchantId[]): Promise<StoredCredential[]> {
    const manager = managerOf(tx);
    if (merchantIds.length === 0) return [];
    const rows = await manager.find(ApiCredentialOrmEntity, {
      where: { merchantId: In([...merchantIds]), revokedAt: IsNull(), expiresAt: IsNull() },
      order: { createdAt: 'DESC' },
    });
    return rows.map(credentialFromRow);
  }
}

function credentialFromRow(row: ApiCredentialOrmEntity): StoredCredential {
  return {
    ...row,
    businessId: asBusinessId(row.businessId),
    merchantId: row.merchantId === null ? null : asMerchantId(row.merchantId),
    minSignatureVersion: asSignatureVersion(row.minSignatureVersion),
    scopes: row.scopes ? row.scopes.filter(isCredentialScope) : null,
  };
}
