import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'api_credential' })
export class ApiCredentialOrmEntity {
  @PrimaryColumn({ name: 'credential_id', type: 'uuid' })
  credentialId: string;

  @Column({ name: 'api_key', type: 'varchar', length: 64, unique: true })
  apiKey: string;

  @Column({ name: 'secret_ciphertext', type: 'text' })
  secretCiphertext: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'merchant_id', type: 'uuid', nullable: true })
  merchantId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** The lowest signing version the pair accepts (contract §29): 1, 2 or 3. */
  @Column({ name: 'min_signature_version', type: 'smallint', default: 1 })
  minSignatureVersion: number;

  /** The secret before the last rotation on this key, sealed, until its grace ends. */
  @Column({ name: 'previous_secret_ciphertext', type: 'text', nullable: true })
  previousSecretCiphertext: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  /** A restricted credential's scopes (contract §29); null: a full credential. */
  @Column({ name: 'scopes', type: 'text', array: true, nullable: true })
  scopes: string[] | null;
}
