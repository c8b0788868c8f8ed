import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'settlement_account' })
export class SettlementAccountOrmEntity {
  @PrimaryColumn({ name: 'settlement_account_id', type: 'uuid' }) settlementAccountId: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ name: 'bank_id', type: 'uuid' }) bankId: string;
  @Column({ name: 'account_number', type: 'varchar', length: 77 }) accountNumber: string;
  @Column({ name: 'account_type', type: 'text' }) accountType: string;
  @Column({ name: 'holder_document', type: 'varchar', length: 32, nullable: true }) holderDocument: string | null;
  @Column({ name: 'hold_until', type: 'timestamptz', nullable: true }) holdUntil: Date | null;
  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true }) confirmedAt: Date | null;
  @Column({ name: 'confirmed_by', type: 'varchar', length: 320, nullable: true }) confirmedBy: string | null;
  @Column({ name: 'payout_waiting_since', type: 'date', nullable: true }) payoutWaitingSince: string | null;
  @Column({ name: 'returned_payout_id', type: 'uuid', nullable: true }) returnedPayoutId: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
