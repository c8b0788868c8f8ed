import { bigintTransformer } from '@pcs/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'merchant' })
export class MerchantOrmEntity {
  @PrimaryColumn({ name: 'merchant_id', type: 'uuid' })
  merchantId: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'country_id', type: 'uuid' })
  countryId: string;

  @Column({ type: 'text' })
  type: string;

  @Column({ name: 'merchant_name', type: 'varchar', length: 128 })
  merchantName: string;

  @Column({ name: 'fantasy_name', type: 'varchar', length: 128, nullable: true })
  fantasyName: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  phone: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  email: string | null;

  @Column({ name: 'tax_id_number', type: 'varchar', length: 64, nullable: true })
  taxIdNumber: string | null;

  @Column({ name: 'web_site', type: 'varchar', length: 256, nullable: true })
  webSite: string | null;

  @Column({ name: 'date_of_foundation', type: 'timestamptz', nullable: true })
  dateOfFoundation: Date | null;

  @Column({ name: 'monthly_load', type: 'bigint', nullable: true, transformer: bigintTransformer })
  monthlyLoad: number | null;

  @Column({ name: 'monthly_load_usd', type: 'bigint', nullable: true, transformer: bigintTransformer })
  monthlyLoadUsd: number | null;

  @Column({ name: 'monthly_tpv_usd', type: 'bigint', nullable: true, transformer: bigintTransformer })
  monthlyTpvUsd: number | null;

  @Column({ name: 'average_transaction_usd', type: 'bigint', nullable: true, transformer: bigintTransformer })
  averageTransactionUsd: number | null;

  @Column({ name: 'average_annual_billing', type: 'bigint', nullable: true, transformer: bigintTransformer })
  averageAnnualBilling: number | null;

  @Column({ type: 'text' })
  status: string;

  @Column({ name: 'approved_at', type: 'timestamptz', nullable: true })
  approvedAt: Date | null;

  @Column({ type: 'text', nullable: true })
  metadata: string | null;

  @Column({ type: 'text', array: true })
  currencies: string[];

  @Column({ name: 'transfers_type', type: 'text', nullable: true })
  transfersType: string | null;

  @Column({ type: 'jsonb', nullable: true })
  address: Record<string, string> | null;

  @Column({ name: 'service_account_id', type: 'uuid', nullable: true })
  serviceAccountId: string | null;

  @Column({ name: 'settlement_bank_id', type: 'uuid', nullable: true })
  settlementBankId: string | null;

  @Column({ name: 'settlement_bank_bank_id', type: 'uuid', nullable: true })
  settlementBankBankId: string | null;

  @Column({ name: 'settlement_account_number', type: 'varchar', length: 77, nullable: true })
  settlementAccountNumber: string | null;

  @Column({ name: 'settlement_currency', type: 'char', length: 3, nullable: true })
  settlementCurrency: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
