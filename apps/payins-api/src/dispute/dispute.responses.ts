import { ApiProperty } from '@nestjs/swagger';
import { Currency, DISPUTE_PROCESSORS, DISPUTE_REASONS, DISPUTE_STATUSES } from '@pcs/kernel';

export class DisputeEvidenceResponse {
  @ApiProperty({ example: 'delivery-receipt.pdf' }) fileName: string;
  @ApiProperty({ enum: ['application/pdf', 'image/png', 'image/jpeg'] }) contentType: string;
  @ApiProperty({ example: 48213, description: 'Bytes', type: 'integer' }) size: number;
  @ApiProperty({ format: 'date-time' }) uploadedAt: string;
}

/** A dispute (contract §21). */
export class DisputeResponse {
  @ApiProperty({ format: 'uuid' }) disputeId: string;
  @ApiProperty({ format: 'uuid' }) paymentIntentId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({
    example: 1500.5,
    format: 'decimal',
    description: 'What the payer’s bank took back (debited from the balance when the dispute opened)',
  })
  amount: number;
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ enum: DISPUTE_REASONS }) reason: string;
  @ApiProperty({
    enum: DISPUTE_STATUSES,
    description: 'NEEDS_RESPONSE → UNDER_REVIEW (evidence submitted) → WON or LOST; or ACCEPTED (the merchant gave up)',
  })
  status: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'The last moment evidence is taken; null when the processor gives none (evidence is still taken)',
  })
  evidenceDueBy: string | null;
  @ApiProperty({ type: [DisputeEvidenceResponse] }) evidence: DisputeEvidenceResponse[];
  @ApiProperty({ enum: DISPUTE_PROCESSORS }) processor: string;
  @ApiProperty({ example: '234000062890459000', description: 'The processor’s id of the case' }) processorReference: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) closedAt: string | null;
}

export class DisputePageResponse {
  @ApiProperty({ example: '1' }) currentPage: string;
  @ApiProperty({ example: '20' }) pageSize: string;
  @ApiProperty({ type: 'integer' }) rowCount: number;
  @ApiProperty({ type: 'integer' }) pageCount: number;
  @ApiProperty({ type: [DisputeResponse] }) results: DisputeResponse[];
}
