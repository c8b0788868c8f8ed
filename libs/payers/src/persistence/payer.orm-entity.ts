import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'payer' })
export class PayerOrmEntity {
  @PrimaryColumn({ name: 'payer_id', type: 'uuid' })
  payerId: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'merchant_id', type: 'uuid' })
  merchantId: string;

  @Column({ name: 'external_id', type: 'uuid', nullable: true })
  externalId: string | null;

  @Column({ name: 'first_name', type: 'varchar', length: 128, nullable: true })
  firstName: string | null;

  @Column({ name: 'last_name', type: 'varchar', length: 128, nullable: true })
  lastName: string | null;

  @Column({ name: 'document_type', type: 'text', nullable: true })
  documentType: string | null;

  @Column({ name: 'document_number', type: 'varchar', length: 128, nullable: true })
  documentNumber: string | null;

  @Column({ name: 'country_id', type: 'uuid', nullable: true })
  countryId: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  email: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  phone: string | null;

  @Column({ type: 'jsonb', nullable: true })
  address: Record<string, string> | null;

  @Column({ name: 'device_fingerprint', type: 'varchar', length: 256, nullable: true })
  deviceFingerprint: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  // search_text is a generated column: written by PostgreSQL, never by us.
  @Column({ name: 'search_text', type: 'text', select: false, insert: false, update: false, nullable: true })
  searchText?: string;
}
