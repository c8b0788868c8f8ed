import { Injectable } from '@nestjs/common';
import { inTransaction } from '@pcs/database';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Caller } from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { DataSource, EntityManager, In, IsNull, Repository } from 'typeorm';
import { CredentialOwner, DEFAULT_ROTATION_GRACE_MINUTES, generateCredentials, IssuedCredentials, isUsable } from './domain/credential';
import { signatureMatches } from './domain/request-signature';
import { SecretBox } from './domain/secret-box';
import { ApiCredentialOrmEntity } from './persistence/api-credential.orm-entity';

// Verifying against this when the key is unknown keeps the time of a miss
// close to the time of a hit.
const DECOY_SECRET = crypto.randomBytes(32).toString('hex');

@Injectable()
export class CredentialService {
  constructor(
    @InjectRepository(ApiCredentialOrmEntity) private readonly rows: Repository<ApiCredentialOrmEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
  ) {}

  /** Issues a new pair for the owner. Call inside the owner's creation transaction. */
  async issue(owner: CredentialOwner, manager: EntityManager = this.dataSource.manager): Promise<IssuedCredentials> {
    const issued = generateCredentials();
    await manager.insert(ApiCredentialOrmEntity, {
      credentialId: crypto.randomUUID(),
      apiKey: issued.apiKey,
      secretCiphertext: this.secretBox.seal(issued.apiSecret, issued.apiKey),
      businessId: owner.businessId,
      merchantId: owner.merchantId,
      expiresAt: null,
      revokedAt: null,
    });
    return issued;
  }

  /**
   * The caller behind a signed request, or null when anything fails: unknown,
   * revoked or expired key, or a signature that matches none of the payloads.
   */
  async authenticate(apiKey: string, signature: string, payloads: readonly (string | Buffer)[]): Promise<Caller | null> {
    const row = apiKey.length <= 64 ? await this.rows.findOne({ where: { apiKey } }) : null;
    if (!row || !isUsable(row, new Date())) {
      signatureMatches(DECOY_SECRET, signature, payloads);
      return null;
    }
    const secret = this.secretBox.open(row.secretCiphertext, row.apiKey);
    if (!signatureMatches(secret, signature, payloads)) return null;
    return { credentialId: row.credentialId, businessId: row.businessId, merchantId: row.merchantId };
  }

  /**
   * New pair for the owner; the pairs it had keep working for the grace
   * period, then never again. Concurrent rotations of one owner run one after another.
   */
  async rotate(owner: CredentialOwner, graceMinutes = DEFAULT_ROTATION_GRACE_MINUTES): Promise<IssuedCredentials> {
    if (!Number.isInteger(graceMinutes) || graceMinutes < 0) throw new Error('grace minutes must be a non-negative integer');
    return inTransaction(this.dataSource, async (manager) => {
      // Lock the owner, not just its current pairs: a concurrent rotation's new
      // pair would not be among the rows locked here. With the owner locked,
      // the next rotation reads after this one commits and sees its pair.
      if (owner.merchantId) await manager.query('SELECT 1 FROM merchant WHERE merchant_id = $1 FOR UPDATE', [owner.merchantId]);
      else await manager.query('SELECT 1 FROM business WHERE business_id = $1 FOR UPDATE', [owner.businessId]);
      const current = await manager.find(ApiCredentialOrmEntity, {
        where: { businessId: owner.businessId, merchantId: owner.merchantId ?? IsNull(), revokedAt: IsNull() },
      });
      const now = new Date();
      const graceEnd = new Date(now.getTime() + graceMinutes * 60_000);
      for (const credential of current.filter((c) => isUsable(c, now))) {
        const expiresAt = credential.expiresAt && credential.expiresAt < graceEnd ? credential.expiresAt : graceEnd;
        await manager.update(ApiCredentialOrmEntity, { credentialId: credential.credentialId }, { expiresAt });
      }
      return this.issue(owner, manager);
    });
  }

  async revoke(apiKey: string): Promise<void> {
    const result = await this.rows.update({ apiKey, revokedAt: IsNull() }, { revokedAt: new Date() });
    if (!result.affected) {
      const exists = await this.rows.exists({ where: { apiKey } });
      if (!exists) throw new Error('no credential has that api key');
    }
  }

  /** Revokes every pair of a merchant (used when the merchant is deleted). */
  async revokeAllOfMerchant(merchantId: string, manager: EntityManager): Promise<void> {
    await manager.update(ApiCredentialOrmEntity, { merchantId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /**
   * The current (newest, non-expiring) pair of each merchant, secrets
   * decrypted. Only for presenting a merchant to its owning business.
   */
  async currentMerchantCredentials(merchantIds: readonly string[]): Promise<Map<string, IssuedCredentials>> {
    const result = new Map<string, IssuedCredentials>();
    if (merchantIds.length === 0) return result;
    const rows = await this.rows.find({
      where: { merchantId: In([...merchantIds]), revokedAt: IsNull(), expiresAt: IsNull() },
      order: { createdAt: 'DESC' },
    });
    for (const row of rows) {
      if (!row.merchantId || result.has(row.merchantId)) continue;
      result.set(row.merchantId, { apiKey: row.apiKey, apiSecret: this.secretBox.open(row.secretCiphertext, row.apiKey) });
    }
    return result;
  }
}
