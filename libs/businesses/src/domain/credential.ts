import type { BusinessId, CredentialScope, MerchantId, SignatureVersion } from '@pcs/kernel';
import * as crypto from 'node:crypto';

/** A freshly issued key pair; the secret is shown once and stored sealed. */
export interface IssuedCredentials {
  readonly apiKey: string;
  readonly apiSecret: string;
}

export function generateCredentials(): IssuedCredentials {
  return {
    apiKey: `pk_${crypto.randomBytes(16).toString('hex')}`,
    apiSecret: `sk_${crypto.randomBytes(32).toString('base64url')}`,
  };
}

export interface CredentialOwner {
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId | null;
}

/** A credential is usable until revoked, and until its grace period ends once rotated. */
export function isUsable(credential: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): boolean {
  return credential.revokedAt === null && (credential.expiresAt === null || credential.expiresAt > now);
}

export const DEFAULT_ROTATION_GRACE_MINUTES = 60;

/** Signing versions (contracts §5, §17, §29): the body; the body and a time; RFC 9421 over method, path, query and body. */

export type { SignatureVersion };

export function asSignatureVersion(value: number | null | undefined): SignatureVersion {
  return value === 2 || value === 3 ? value : 1;
}

/** A pair as stored: the secret sealed (AES-256-GCM, bound to its key), never in plain text. */
export interface StoredCredential {
  readonly credentialId: string;
  readonly apiKey: string;
  readonly secretCiphertext: string;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId | null;
  readonly createdAt?: Date;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
  /** The lowest signing version accepted (contracts §17 and §29): `credentials:require-version`. */
  readonly minSignatureVersion?: SignatureVersion;
  /** The secret before the last rotation on this key (contract §22), verified too until its grace ends. */
  readonly previousSecretCiphertext?: string | null;
  readonly previousSecretExpiresAt?: Date | null;
  /** A restricted credential's scopes (contract §29); absent or null: a full credential. */
  readonly scopes?: readonly CredentialScope[] | null;
}

/** A credential as the operator and the team page see it: never a secret, with the last use of each of its secrets. */
export interface CredentialSummary {
  readonly apiKey: string;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId | null;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
  readonly usable: boolean;
  readonly lastUsedAt: Date | null;
  /** Until when the previous secret still verifies (after a rotation on the same key), and when it was last used. */
  readonly previousSecretExpiresAt: Date | null;
  readonly previousSecretLastUsedAt: Date | null;
  /** A restricted credential's scopes (contract §29); null: a full credential. */
  readonly scopes?: readonly CredentialScope[] | null;
}
