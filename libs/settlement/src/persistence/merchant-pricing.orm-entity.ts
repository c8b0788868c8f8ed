import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'merchant_pricing' })
export class MerchantPricingOrmEntity {
  @PrimaryColumn({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @PrimaryColumn({ name: 'country_processor_id', type: 'uuid' }) countryProcessorId: string;
  @Column({ name: 'fee_bp', type: 'integer' }) feeBp: number;
  /** Minor units per currency. */
  @Column({ name: 'fee_fixed', type: 'jsonb' }) feeFixed: Record<string, number>;
  @Column({ name: 'settlement_delay_days', type: 'integer' }) settlementDelayDays: number;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
