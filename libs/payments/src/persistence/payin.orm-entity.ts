import { bigintTransformer } from '@pcs/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'payin' })
export class PayinOrmEntity {
  @PrimaryColumn({ name: 'transaction_id', type: 'uuid' }) transactionId: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @Column({ name: 'payment_intent_id', type: 'uuid' }) paymentIntentId: string;
  @Column({ name: 'account_id', type: 'uuid', nullable: true }) accountId: string | null;
  @Column({ name: 'transaction_type', type: 'text' }) transactionType: string;
  @Column({ name: 'concept_code', type: 'text' }) conceptCode: string;
  @Column({ type: 'text' }) status: string;
  @Column({ name: 'manual_refund_status', type: 'text', nullable: true }) manualRefundStatus: string | null;
  @Column({ name: 'country_processor_id', type: 'uuid', nullable: true }) countryProcessorId: string | null;
  @Column({ type: 'text', nullable: true }) gateway: string | null;
  @Column({ name: 'external_id', type: 'varchar', length: 128, nullable: true }) externalId: string | null;
  @Column({ name: 'external_status', type: 'varchar', length: 64, nullable: true }) externalStatus: string | null;
  @Column({ name: 'transaction_sync_date', type: 'timestamptz', nullable: true }) transactionSyncDate: Date | null;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'bigint', transformer: bigintTransformer }) amount: number;
  @Column({ name: 'subtotal_amount', type: 'bigint', transformer: bigintTransformer }) subtotalAmount: number;
  @Column({ name: 'tax_amount', type: 'bigint', transformer: bigintTransformer }) taxAmount: number;
  @Column({ name: 'tip_amount', type: 'bigint', transformer: bigintTransformer }) tipAmount: number;
  @Column({ name: 'received_amount', type: 'bigint', transformer: bigintTransformer }) receivedAmount: number;
  @Column({ type: 'varchar', length: 512, nullable: true }) description: string | null;
  @Column({ name: 'merchant_name', type: 'varchar', length: 128 }) merchantName: string;
  @Column({ name: 'person_first_name', type: 'varchar', length: 128, nullable: true }) personFirstName: string | null;
  @Column({ name: 'person_last_name', type: 'varchar', length: 128, nullable: true }) personLastName: string | null;
  @Column({ name: 'masked_pan', type: 'varchar', length: 32, nullable: true }) maskedPan: string | null;
  @Column({ name: 'card_type', type: 'varchar', length: 32, nullable: true }) cardType: string | null;
  @Column({ name: 'payment_intent_initiator', type: 'text' }) paymentIntentInitiator: string;
  @Column({ name: 'session_expires_at', type: 'timestamptz', nullable: true }) sessionExpiresAt: Date | null;
  @Column({ name: 'liquidation_date', type: 'timestamptz', nullable: true }) liquidationDate: Date | null;
  @Column({ name: 'fee_amount', type: 'bigint', transformer: bigintTransformer }) feeAmount: number;
  @Column({ name: 'fee_tax_amount', type: 'bigint', transformer: bigintTransformer }) feeTaxAmount: number;
  @Column({ name: 'processor_fee_amount', type: 'bigint', nullable: true, transformer: bigintTransformer }) processorFeeAmount:
    number | null;
  @Column({ name: 'processor_financing_fee_amount', type: 'bigint', nullable: true, transformer: bigintTransformer })
  processorFinancingFeeAmount: number | null;
  @Column({ type: 'smallint' }) installments: number;
  @Column({ name: 'installment_amount', type: 'bigint', nullable: true, transformer: bigintTransformer }) installmentAmount: number | null;
  @Column({ name: 'payer_total_amount', type: 'bigint', nullable: true, transformer: bigintTransformer }) payerTotalAmount: number | null;
  @Column({ name: 'funds_flow', type: 'text' }) fundsFlow: string;
  @Column({ name: 'liquidation_source', type: 'text', nullable: true }) liquidationSource: string | null;
  @Column({ type: 'text', nullable: true }) origin: string | null;
  @Column({ name: 'settles_dispute_id', type: 'uuid', nullable: true }) settlesDisputeId: string | null;
  @Column({ name: 'refunded_elsewhere', type: 'boolean' }) refundedElsewhere: boolean;
  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true }) cancelledAt: Date | null;
  @Column({ name: 'cancellation_reason', type: 'text', nullable: true }) cancellationReason: string | null;
  @Column({ name: 'reconcile_at', type: 'timestamptz', nullable: true }) reconcileAt: Date | null;
  @Column({ name: 'confirmed_by_operation', type: 'uuid', nullable: true }) confirmedByOperation: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
