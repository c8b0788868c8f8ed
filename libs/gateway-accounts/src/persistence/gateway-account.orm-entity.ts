import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AccountSetting } from '../gateway-account-kind';

/** A merchant's account at an outside processor, its credentials sealed field by field (contracts §16, §20). */
@Entity({ name: 'gateway_account' })
export class GatewayAccountOrmEntity {
  @PrimaryColumn({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @PrimaryColumn({ type: 'varchar', length: 32 }) provider: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  /** Each credential field sealed (AES-256-GCM, bound to the merchant, the provider and the field). */
  @Column({ name: 'secrets_sealed', type: 'jsonb' }) secretsSealed: Record<string, string>;
  /** `…` and the last 4 characters of the fields the API shows a hint of. */
  @Column({ type: 'jsonb' }) hints: Record<string, string>;
  /** What the account says besides its secrets (a public key, whether automatic payments are on), answered in full. */
  @Column({ type: 'jsonb' }) settings: Record<string, AccountSetting>;
  @Column({ name: 'payment_methods', type: 'text', array: true }) paymentMethods: string[];
  /** Whose account it is (contract §23): PLATFORM (the business's) or MERCHANT (the merchant's own). */
  @Column({ name: 'funds_flow', type: 'text' }) fundsFlow: 'PLATFORM' | 'MERCHANT';
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
