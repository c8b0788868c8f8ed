import { bigintTransformer } from '@pcs/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'link' })
export class LinkOrmEntity {
  @PrimaryColumn({ name: 'link_id', type: 'uuid' }) linkId: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @Column({ name: 'country_id', type: 'uuid' }) countryId: string;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'bigint', transformer: bigintTransformer }) amount: number;
  @Column({ name: 'vat_rate_bp', type: 'integer' }) vatRateBp: number;
  @Column({ type: 'varchar', length: 255, nullable: true }) description: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) reference: string | null;
  @Column({ name: 'expiration_date', type: 'timestamptz' }) expirationDate: Date;
  @Column({ type: 'boolean' }) used: boolean;
  @Column({ name: 'used_at', type: 'timestamptz', nullable: true }) usedAt: Date | null;
  @Column({ name: 'payment_intent_id', type: 'uuid', nullable: true }) paymentIntentId: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

@Entity({ name: 'link_country_processor' })
export class LinkCountryProcessorOrmEntity {
  @PrimaryColumn({ name: 'link_country_processor_id', type: 'uuid' }) linkCountryProcessorId: string;
  @Column({ name: 'link_id', type: 'uuid' }) linkId: string;
  @Column({ name: 'country_processor_id', type: 'uuid' }) countryProcessorId: string;
}
