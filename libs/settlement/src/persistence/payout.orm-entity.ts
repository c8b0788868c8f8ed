import { bigintTransformer } from '@pcs/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'payout' })
export class PayoutOrmEntity {
  @PrimaryColumn({ name: 'payout_id', type: 'uuid' }) payoutId: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'bigint', transformer: bigintTransformer }) amount: number;
  @Column({ type: 'text' }) status: string;
  @Column({ type: 'text' }) rail: string;
  @Column({ type: 'text' }) origin: string;
  @Column({ name: 'settlement_account_id', type: 'uuid' }) settlementAccountId: string;
  @Column({ name: 'bank_id', type: 'uuid' }) bankId: string;
  @Column({ name: 'account_number', type: 'varchar', length: 77 }) accountNumber: string;
  @Column({ name: 'account_type', type: 'text' }) accountType: string;
  @Column({ name: 'holder_document', type: 'varchar', length: 32, nullable: true }) holderDocument: string | null;
  @Column({ name: 'transaction_count', type: 'integer' }) transactionCount: number;
  @Column({ name: 'arrival_date', type: 'date', nullable: true }) arrivalDate: string | null;
  @Column({ name: 'bank_reference', type: 'varchar', length: 128, nullable: true }) bankReference: string | null;
  @Column({ name: 'failure_reason', type: 'varchar', length: 512, nullable: true }) failureReason: string | null;
  @Column({ name: 'exported_at', type: 'timestamptz', nullable: true }) exportedAt: Date | null;
  @Column({ name: 'batch_id', type: 'uuid', nullable: true }) batchId: string | null;
  @Column({ name: 'returned_at', type: 'timestamptz', nullable: true }) returnedAt: Date | null;
  @Column({ name: 'scheduled_for', type: 'date', nullable: true }) scheduledFor: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true }) paidAt: Date | null;
}
