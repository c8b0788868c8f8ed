import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'webhook_endpoint' })
export class WebhookEndpointOrmEntity {
  @PrimaryColumn({ name: 'webhook_endpoint_id', type: 'uuid' }) webhookEndpointId: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'merchant_id', type: 'uuid', nullable: true }) merchantId: string | null;
  @Column({ type: 'varchar', length: 2048 }) url: string;
  @Column({ type: 'varchar', length: 256, nullable: true }) description: string | null;
  @Column({ name: 'enabled_events', type: 'text', array: true, nullable: true }) enabledEvents: string[] | null;
  @Column({ type: 'boolean' }) disabled: boolean;
  @Column({ name: 'disabled_reason', type: 'varchar', length: 256, nullable: true }) disabledReason: string | null;
  @Column({ name: 'secret_ciphertext', type: 'text' }) secretCiphertext: string;
  @Column({ name: 'previous_secret_ciphertext', type: 'text', nullable: true }) previousSecretCiphertext: string | null;
  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true }) previousSecretExpiresAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}
