import { bigintTransformer } from '@pcs/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'dispute' })
export class DisputeOrmEntity {
  @PrimaryColumn({ name: 'dispute_id', type: 'uuid' }) disputeId: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @Column({ name: 'payment_intent_id', type: 'uuid' }) paymentIntentId: string;
  @Column({ name: 'charge_id', type: 'uuid' }) chargeId: string;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'bigint', transformer: bigintTransformer }) amount: number;
  @Column({ type: 'text' }) reason: string;
  @Column({ type: 'text' }) status: string;
  @Column({ name: 'evidence_due_by', type: 'timestamptz', nullable: true }) evidenceDueBy: Date | null;
  @Column({ type: 'text' }) processor: string;
  @Column({ name: 'processor_reference', type: 'varchar', length: 128 }) processorReference: string;
  @Column({ name: 'funds_flow', type: 'text' }) fundsFlow: string;
  @Column({ type: 'text' }) kind: string;
  @Column({ name: 'submitting_until', type: 'timestamptz', nullable: true }) submittingUntil: Date | null;
  @Column({ name: 'submitted_at', type: 'timestamptz', nullable: true }) submittedAt: Date | null;
  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true }) closedAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** An evidence file's row; its bytes (`content`) are read only when they are sent. */
@Entity({ name: 'dispute_evidence' })
export class DisputeEvidenceOrmEntity {
  @PrimaryColumn({ name: 'evidence_id', type: 'uuid' }) evidenceId: string;
  @Column({ name: 'dispute_id', type: 'uuid' }) disputeId: string;
  @Column({ name: 'file_number', type: 'smallint' }) fileNumber: number;
  @Column({ name: 'file_name', type: 'varchar', length: 255 }) fileName: string;
  @Column({ name: 'content_type', type: 'text' }) contentType: string;
  @Column({ type: 'integer' }) size: number;
  @Column({ type: 'char', length: 64 }) sha256: string;
  @Column({ type: 'bytea', select: false }) content: Buffer;
  @Column({ name: 'uploaded_at', type: 'timestamptz' }) uploadedAt: Date;
  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true }) sentAt: Date | null;
}
