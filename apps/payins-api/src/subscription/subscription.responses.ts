import { ApiProperty } from '@nestjs/swagger';
import { BILLING_INTERVALS, INVOICE_STATUSES, SUBSCRIPTION_STATUSES } from '@pcs/billing';
import { Currency } from '@pcs/kernel';

const instant = (description?: string) => ({ type: String, format: 'date-time', nullable: true, description });

/** A subscription (contract §31). */
export class SubscriptionResponse {
  @ApiProperty({ format: 'uuid' }) subscriptionId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ format: 'uuid' }) payerId: string;
  @ApiProperty({ format: 'uuid', description: 'Charged from the next period (an open invoice keeps the one it was made with)' })
  paymentInstrumentId: string;
  @ApiProperty({ example: 990, format: 'decimal' }) amount: number;
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ enum: BILLING_INTERVALS }) interval: string;
  @ApiProperty({ type: 'integer', example: 1 }) intervalCount: number;
  @ApiProperty({ example: 'America/Montevideo', description: 'The merchant’s: where the periods’ dates are read' }) timeZone: string;
  @ApiProperty({
    enum: SUBSCRIPTION_STATUSES,
    description:
      'TRIALING → ACTIVE; PAST_DUE while dunning retries an invoice; then UNPAID or CANCELED (the merchant’s dunning.finalStatus); PAUSED invoices nothing',
  })
  status: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) metadata: Record<string, unknown> | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) testClockId: string | null;
  @ApiProperty(instant()) trialEnd: string | null;
  @ApiProperty(instant('The last invoiced period’s start')) currentPeriodStart: string | null;
  @ApiProperty(instant()) currentPeriodEnd: string | null;
  @ApiProperty(instant('When the next period is invoiced and charged; null when nothing will be (paused, unpaid, ended)'))
  nextChargeAt: string | null;
  @ApiProperty() cancelAtPeriodEnd: boolean;
  @ApiProperty(instant()) canceledAt: string | null;
  @ApiProperty(instant()) endedAt: string | null;
  @ApiProperty(instant()) pausedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** One period's invoice (contract §31). */
export class InvoiceResponse {
  @ApiProperty({ format: 'uuid' }) invoiceId: string;
  @ApiProperty({ format: 'uuid' }) subscriptionId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ format: 'uuid' }) payerId: string;
  @ApiProperty({ format: 'uuid' }) paymentInstrumentId: string;
  @ApiProperty({ type: 'integer', description: '0 for the first period' }) periodNumber: number;
  @ApiProperty({ format: 'date-time' }) periodStart: string;
  @ApiProperty({ format: 'date-time' }) periodEnd: string;
  @ApiProperty({ example: 990, format: 'decimal' }) amount: number;
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty() description: string;
  @ApiProperty({
    enum: INVOICE_STATUSES,
    description:
      'OPEN while charged and retried; PAID; UNCOLLECTIBLE when dunning ended without payment; VOID when its subscription ended first',
  })
  status: string;
  @ApiProperty({ type: 'integer', description: 'Charges made' }) attemptCount: number;
  @ApiProperty(instant('The next try; null while one runs or none is planned (a hard decline waits for a new instrument)'))
  nextAttemptAt: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The payment intent of the latest charge' })
  paymentIntentId: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'insufficient funds' }) lastDecline: string | null;
  @ApiProperty({ type: String, enum: ['SOFT', 'HARD'], nullable: true, description: 'SOFT: retried; HARD: never retried' })
  declineKind: string | null;
  @ApiProperty(instant()) paidAt: string | null;
  @ApiProperty(instant()) closedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class SubscriptionPageResponse {
  @ApiProperty({ example: '1' }) currentPage: string;
  @ApiProperty({ example: '20' }) pageSize: string;
  @ApiProperty({ type: 'integer' }) rowCount: number;
  @ApiProperty({ type: 'integer' }) pageCount: number;
  @ApiProperty({ type: [SubscriptionResponse] }) results: SubscriptionResponse[];
}

export class InvoicePageResponse {
  @ApiProperty({ example: '1' }) currentPage: string;
  @ApiProperty({ example: '20' }) pageSize: string;
  @ApiProperty({ type: 'integer' }) rowCount: number;
  @ApiProperty({ type: 'integer' }) pageCount: number;
  @ApiProperty({ type: [InvoiceResponse] }) results: InvoiceResponse[];
}

/** A test clock (contract §31). */
export class TestClockResponse {
  @ApiProperty({ format: 'uuid' }) testClockId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ format: 'date-time' }) frozenTime: string;
  @ApiProperty({ enum: ['READY', 'ADVANCING', 'DELETED'] }) status: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty(instant()) deletedAt: string | null;
}
