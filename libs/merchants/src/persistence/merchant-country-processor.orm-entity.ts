import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'merchant_country_processor' })
export class MerchantCountryProcessorOrmEntity {
  @PrimaryColumn({ name: 'merchant_country_processor_id', type: 'uuid' })
  merchantCountryProcessorId: string;

  @Column({ name: 'merchant_id', type: 'uuid' })
  merchantId: string;

  @Column({ name: 'country_processor_id', type: 'uuid' })
  countryProcessorId: string;

  @Column({ name: 'onboarding_status', type: 'text' })
  onboardingStatus: string;

  @Column({ type: 'boolean' })
  active: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
