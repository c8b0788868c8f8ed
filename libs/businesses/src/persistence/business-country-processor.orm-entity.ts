import { Column, CreateDateColumn, Entity, PrimaryColumn, Unique } from 'typeorm';

/** A country processor the platform has enabled for a business. */
@Entity({ name: 'business_country_processor' })
@Unique('business_country_processor_unique', ['businessId', 'countryProcessorId'])
export class BusinessCountryProcessorOrmEntity {
  @PrimaryColumn({ name: 'business_country_processor_id', type: 'uuid' })
  businessCountryProcessorId: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'country_processor_id', type: 'uuid' })
  countryProcessorId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
