import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A merchant's account at an outside processor, its secrets sealed (contract §16). */
@Entity({ name: 'gateway_account' })
export class GatewayAccountOrmEntity {
  @PrimaryColumn({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @PrimaryColumn({ type: 'varchar', length: 32 }) provider: 'MERCADO_PAGO';
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'access_token_sealed', type: 'text' }) accessTokenSealed: string;
  @Column({ name: 'webhook_secret_sealed', type: 'text' }) webhookSecretSealed: string;
  @Column({ name: 'access_token_hint', type: 'varchar', length: 8 }) accessTokenHint: string;
  @Column({ name: 'payment_methods', type: 'text', array: true }) paymentMethods: string[];
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
