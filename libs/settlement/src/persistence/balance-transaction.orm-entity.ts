import { bigintTransformer } from '@pcs/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'balance_transaction' })
export class BalanceTransactionOrmEntity {
  @PrimaryColumn({ name: 'balance_transaction_id', type: 'uuid' }) balanceTransactionId: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'text' }) type: string;
  @Column({ type: 'bigint', transformer: bigintTransformer }) amount: number;
  @Column({ type: 'bigint', transformer: bigintTransformer }) fee: number;
  @Column({ type: 'bigint', transformer: bigintTransformer }) net: number;
  /** The processor's financing fee within `fee` (contract §25: an interest-free installment plan's, PLATFORM flow). */
  @Column({ name: 'financing_fee', type: 'bigint', transformer: bigintTransformer, insert: false, update: false }) financingFee: number;
  @Column({ name: 'available_on', type: 'timestamptz' }) availableOn: Date;
  @Column({ name: 'source_id', type: 'uuid' }) sourceId: string;
  @Column({ name: 'payout_id', type: 'uuid', nullable: true }) payoutId: string | null;
  @Column({ type: 'varchar', length: 512, nullable: true }) description: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
