/*
 * Why one file: API credentials created, restricted, rotated, versioned and verified: the secret's sealing and
 * the signature's checks use the same record.
 */
import { Injectable } from '@nestjs/common';
import { ChangeFeed, InvalidatedCache } from '@pcs/database';
import { Caller, CredentialScope, MerchantId, signatureMatches, TenantScope, Transaction, UnitOfWork } from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { CredentialRepository } from './business.repository';
import {
  CredentialOwner,
  CredentialSummary,
  DEFAULT_ROTATION_GRACE_MINUTES,
  generateCredentials,
  IssuedCredentials,
  isUsable,
  SignatureVersion,
  StoredCredential,
} from './domain/credential';
import { SecretBox } from '@pcs/config';

// Verifying against this when the key is unknown keeps the time of a miss
// close to the time of a hit.
const DECOY_SECRET = crypto.randomBytes(32).toString('hex');

/**
 * Credentials of API callers. Every signed request authenticates, so pairs
 * and their opened secrets are kept in memory by api key; the database
 * announces every change of a pair (a trigger on api_credential, contract of
 * the change feed), which forgets it in every process at once, so a revoked
 * or rotated pair stops working as soon as the change commits. This process
 * also forgets at once what it changed itself.
 */
@Injectable()
export class CredentialService {
  private readonly cache: InvalidatedCache<{ row: StoredCredential; secret: string; previous: string | null }>;
  /** The minute each secret's last use was recorded in, by this process: a use writes at most once a minute. */
  private readonly recordedUse = new Map<string, number>();

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly secretBox: SecretBox,
    private readonly credentials: CredentialRepository,
    changes: ChangeFeed,
  ) {
    this.cache = new InvalidatedCache(changes, 'credential', { maxEntries: 10_000, ttlMs: 10 * 60_000 });
  }

  /** Issues a new pair for the owner. Call inside the owner's creation transaction. */
  /**
   * `secrets:rotate-master-key` (contract §22): every credential's secrets,
   * current and previous, opened with either master key and sealed again
   * under the current one, in the caller's transaction (rows locked); how many.
   */
  resealSecrets(tx: Transaction): Promise<number> {
    return this.credentials.resealAll(tx, (sealed, associatedData) => this.secretBox.reseal(sealed, associatedData));
  }

  /**
   * Issues a new pair for the owner; with `scopes`, a restricted credential
   * (contract §29: `credentials:create-restricted`), limited to them.
   */
  async issue(
    owner: CredentialOwner,
    tx: Transaction = this.unitOfWork.outside,
    scopes: readonly CredentialScope[] | null = null,
  ): Promise<IssuedCredentials> {
    const issued = generateCredentials();
    await this.credentials.insert(tx, {
      credentialId: crypto.randomUUID(),
      apiKey: issued.apiKey,
      secretCiphertext: this.secretBox.seal(issued.apiSecret, issued.apiKey),
      businessId: owner.businessId,
      merchantId: owner.merchantId,
      expiresAt: null,
      revokedAt: null,
      scopes: scopes && scopes.length ? [...new Set(scopes)] : null,
    });
    return issued;
  }

  /**
   * The caller behind a signed request, or null when anything fails: unknown,
   * revoked or expired key, or a signature that matches none of the payloads.
   */
  async authenticate(
    apiKey: string,
    signature: string,
    payloads: readonly (string | Buffer)[],
    version: 1 | 2 = 1,
  ): Promise<Caller | null> {
    const verdict = await this.verify(apiKey, (secret) => signatureMatches(secret, signature, payloads), version);
    return 'caller' in verdict ? verdict.caller : null;
  }

  /**
   * The caller of a request whose signature `matches` says a secret made,
   * or why it was refused (for metrics; the answer is the same 401 whatever
   * the reason): a signature of a version below the credential's floor
   * (`credentials:require-version`), or anything else. `matches` is tried
   * with a decoy secret when the key is unknown, so that a miss takes the
   * time of a hit.
   */
  async verify(
    apiKey: string,
    matches: (secret: string) => boolean,
    version: SignatureVersion,
  ): Promise<{ caller: Caller } | { refused: 'signature' | 'version' }> {
    const known =
      apiKey.length <= 64
        ? await this.cache.get(apiKey, async () => {
            const row = await this.credentials.findByApiKey(this.unitOfWork.outside, apiKey);
            return (
              row && {
                row,
                secret: this.secretBox.open(row.secretCiphertext, row.apiKey),
                previous: row.previousSecretCiphertext ? this.secretBox.open(row.previousSecretCiphertext, row.apiKey) : null,
              }
            );
          })
        : null;
    // Expiry is a time on the row: checked on every request, cached or not.
    const now = new Date();
    if (!known || !isUsable(known.row, now)) {
      matches(DECOY_SECRET);
      return { refused: 'signature' };
    }
    const { row, secret, previous } = known;
    // After a rotation on the same key, the previous secret verifies until its grace ends (contract §22).
    const used = matches(secret)
      ? 'current'
      : previous && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now && matches(previous)
        ? 'previous'
        : null;
    if (!used) return { refused: 'signature' };
    if (version < (row.minSignatureVersion ?? 1)) return { refused: 'version' };
    this.noteUse(row, used, now);
    return {
      caller: { credentialId: row.credentialId, businessId: row.businessId, merchantId: row.merchantId, scopes: row.scopes ?? null },
    };
  }

  /** The last use of a secret, to the minute: written once a minute at most (and never waited for), never per request. */
  private noteUse(row: StoredCredential, secret: 'current' | 'previous', now: Date): void {
    const minute = Math.floor(now.getTime() / 60_000);
    const credentialId = row.credentialId;
    // Remembered by the secret itself (its sealed form's tail), not its place: after a rotation, "current" is another secret.
    const sealed = secret === 'current' ? row.secretCiphertext : (row.previousSecretCiphertext ?? '');
    const key = `${credentialId}:${sealed.slice(-24)}`;
    if (this.recordedUse.get(key) === minute) return;
    if (this.recordedUse.size > 50_000) this.recordedUse.clear();
    this.recordedUse.set(key, minute);
    this.credentials
      .recordUse(this.unitOfWork.outside, credentialId, secret, new Date(minute * 60_000))
      .catch(() => this.recordedUse.delete(key));
  }

  /**
   * `credentials:rotate --api-key`: a new secret for the same key (contract
   * §22). The previous secret verifies too until the grace ends; a later
   * rotation ends any earlier grace (two secrets at most ever verify).
   */
  async rotateSecret(
    apiKey: string,
    graceMinutes = DEFAULT_ROTATION_GRACE_MINUTES,
  ): Promise<IssuedCredentials & { previousSecretExpiresAt: Date; businessId: string }> {
    if (!Number.isInteger(graceMinutes) || graceMinutes < 0) throw new Error('grace minutes must be a non-negative integer');
    const rotated = await this.unitOfWork.run(async (tx) => {
      const found = await this.credentials.findByApiKey(tx, apiKey);
      if (!found || !isUsable(found, new Date())) throw new Error('no usable credential has that api key');
      await this.credentials.lockOwner(tx, found);
      const row = (await this.credentials.findByApiKey(tx, apiKey))!;
      const apiSecret = generateCredentials().apiSecret;
      const previousSecretExpiresAt = new Date(Date.now() + graceMinutes * 60_000);
      await this.credentials.replaceSecret(tx, row.credentialId, this.secretBox.seal(apiSecret, apiKey), previousSecretExpiresAt);
      return { apiKey, apiSecret, previousSecretExpiresAt, businessId: row.businessId };
    });
    this.cache.invalidate(apiKey);
    return rotated;
  }

  /** `credentials:list` and the team page: a business's credentials and its merchants', with their last uses, never a secret. */
  summariesOf(scope: TenantScope): Promise<CredentialSummary[]> {
    return this.credentials.summariesOf(this.unitOfWork.outside, scope);
  }

  /**
   * A version 3 request (its nonce) and a mutating version 2 request (its
   * signature) are accepted once (contracts §17 and §29): the record is kept in
   * the database, shared by every process and kept across restarts, until its
   * time could no longer be accepted. False for a replay.
   *
   * Group commit: the records asked for while one write runs go together in
   * the next (one statement for all of them), so that recording every read's
   * nonce costs a busy API a fraction of a statement per request. A record
   * asked for twice in one group is accepted for the first only.
   */
  acceptOnce(apiKey: string, record: string, timestampSeconds: number, toleranceSeconds: number): Promise<boolean> {
    const expiresAt = new Date((timestampSeconds + toleranceSeconds + 1) * 1000);
    return new Promise<boolean>((resolve, reject) => {
      this.toRecord.push({ apiKey, signature: record, expiresAt, resolve, reject });
      if (!this.recording) void this.recordWaiting();
    });
  }

  private toRecord: {
    apiKey: string;
    signature: string;
    expiresAt: Date;
    resolve: (accepted: boolean) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private recording = false;

  private async recordWaiting(): Promise<void> {
    this.recording = true;
    try {
      while (this.toRecord.length) {
        // The rest of this turn of the event loop joins the group (requests that arrived together ask together).
        await new Promise<void>((resolve) => setImmediate(resolve));
        const group = this.toRecord.splice(0, 500);
        const first = new Map<string, number>();
        const distinct: typeof group = [];
        const repeats: typeof group = [];
        for (const asked of group) {
          const id = `${asked.apiKey}\n${asked.signature}`;
          if (first.has(id)) repeats.push(asked);
          else {
            first.set(id, distinct.length);
            distinct.push(asked);
          }
        }
        for (const repeat of repeats) repeat.resolve(false);
        try {
          const fresh = await this.credentials.recordSignedRequests(this.unitOfWork.outside, distinct);
          distinct.forEach((asked, i) => asked.resolve(fresh.has(i)));
        } catch (error) {
          for (const asked of distinct) asked.reject(error);
        }
      }
    } finally {
      this.recording = false;
    }
  }

  /** Forgets an accepted signature (its request was then refused for its rate and did nothing): it may be sent again. */
  forgetSigned(apiKey: string, signature: string): Promise<void> {
    return this.credentials.forgetSignedRequest(this.unitOfWork.outside, apiKey, signature);
  }

  /** `credentials:require-version`: the lowest signing version the pair accepts (1 takes the floor off). */
  async requireVersion(apiKey: string, version: SignatureVersion): Promise<void> {
    if (!(await this.credentials.setMinSignatureVersion(this.unitOfWork.outside, apiKey, version)))
      throw new Error('no credential has that api key');
    this.cache.invalidate(apiKey);
  }

  /**
   * The secret of a pair, decrypted, whatever its state: what signs the
   * return to a merchant from a checkout the pair opened (contract §13). Never
   * for presenting; null for an unknown id.
   */
  async secretOf(credentialId: string): Promise<string | null> {
    const row = await this.credentials.findById(this.unitOfWork.outside, credentialId);
    return row ? this.secretBox.open(row.secretCiphertext, row.apiKey) : null;
  }

  /**
   * New pair for the owner; the pairs it had keep working for the grace
   * period, then never again. Concurrent rotations of one owner run one after another.
   */
  async rotate(owner: CredentialOwner, graceMinutes = DEFAULT_ROTATION_GRACE_MINUTES): Promise<IssuedCredentials> {
    if (!Number.isInteger(graceMinutes) || graceMinutes < 0) throw new Error('grace minutes must be a non-negative integer');
    const issued = await this.unitOfWork.run(async (tx) => {
      // Lock the owner, not just its current pairs: a concurrent rotation's new
      // pair would not be among the rows locked here. With the owner locked,
      // the next rotation reads after this one commits and sees its pair.
      await this.credentials.lockOwner(tx, owner);
      const current = await this.credentials.unrevokedOf(tx, owner);
      const now = new Date();
      const graceEnd = new Date(now.getTime() + graceMinutes * 60_000);
      for (const credential of current.filter((c) => isUsable(c, now))) {
        const expiresAt = credential.expiresAt && credential.expiresAt < graceEnd ? credential.expiresAt : graceEnd;
        await this.credentials.setExpiry(tx, credential.credentialId, expiresAt);
      }
      return this.issue(owner, tx);
    });
    this.cache.clear();
    return issued;
  }

  async revoke(apiKey: string): Promise<void> {
    const tx = this.unitOfWork.outside;
    if (!(await this.credentials.revoke(tx, apiKey, new Date())) && !(await this.credentials.exists(tx, apiKey))) {
      throw new Error('no credential has that api key');
    }
    this.cache.invalidate(apiKey);
  }

  /**
   * Revokes every pair of a merchant (used when the merchant is deleted),
   * in the caller's transaction: the change feed forgets them when it commits.
   */
  async revokeAllOfMerchant(merchantId: MerchantId, tx: Transaction): Promise<void> {
    await this.credentials.revokeAllOfMerchant(tx, merchantId, new Date());
  }

  /** Forgets every pair kept in memory: for a change this process committed outside this service (a merchant's deletion). */
  forgetCached(): void {
    this.cache.clear();
  }

  /**
   * The current (newest, non-expiring) pair of each merchant, secrets
   * decrypted. Only for presenting a merchant to its owning business.
   */
  async currentMerchantCredentials(merchantIds: readonly MerchantId[]): Promise<Map<string, IssuedCredentials>> {
    const result = new Map<string, IssuedCredentials>();
    if (merchantIds.length === 0) return result;
    const rows = await this.credentials.openEndedOfMerchants(this.unitOfWork.outside, merchantIds);
    for (const row of rows) {
      if (!row.merchantId || result.has(row.merchantId)) continue;
      result.set(row.merchantId, { apiKey: row.apiKey, apiSecret: this.secretBox.open(row.secretCiphertext, row.apiKey) });
    }
    return result;
  }
}
