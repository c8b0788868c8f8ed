import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PixMandateTerms } from '../domain/payment-instrument';

@Entity({ name: 'payment_instrument' })
export class PaymentInstrumentOrmEntity {
  @PrimaryColumn({ name: 'payment_instrument_id', type: 'uuid' })
  paymentInstrumentId: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'merchant_id', type: 'uuid' })
  merchantId: string;

  @Column({ name: 'payer_id', type: 'uuid' })
  payerId: string;

  @Column({ name: 'payment_method_id', type: 'uuid' })
  paymentMethodId: string;

  @Column({ name: 'payment_instrument_type_id', type: 'uuid', nullable: true })
  paymentInstrumentTypeId: string | null;

  @Column({ name: 'country_id', type: 'uuid' })
  countryId: string;

  @Column({ type: 'text', array: true })
  countries: string[];

  @Column({ type: 'text' })
  status: string;

  @Column({ type: 'boolean' })
  active: boolean;

  @Column({ type: 'boolean' })
  validated: boolean;

  @Column({ name: 'external_id', type: 'varchar', length: 128, nullable: true })
  externalId: string | null;

  @Column({ name: 'card_brand', type: 'varchar', length: 32, nullable: true })
  cardBrand: string | null;

  @Column({ name: 'card_last4', type: 'char', length: 4, nullable: true })
  cardLast4: string | null;

  @Column({ type: 'text', nullable: true })
  processor: string | null;

  @Column({ name: 'pix_mandate', type: 'jsonb', nullable: true })
  pixMandate: PixMandateTerms | null;

  @Column({ name: 'card_bin', type: 'varchar', length: 8, nullable: true })
  cardBin: string | null;

  @Column({ name: 'card_exp_month', type: 'smallint', nullable: true })
  cardExpMonth: number | null;

  @Column({ name: 'card_exp_year', type: 'smallint', nullable: true })
  cardExpYear: number | null;

  @Column({ type: 'jsonb', nullable: true })
  metadata: Record<string, unknown> | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
