import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Currency, DISPUTE_STATUSES, PayinType } from '@pcs/kernel';
import { PAYMENT_INTENT_STATUSES } from '@pcs/payments';
import { CountryProcessorResponse } from '../catalog/catalog.responses';

/** A dispute of the payment, as the intent shows it (contract §21). */
export class PaymentIntentDisputeResponse {
  @ApiProperty({ format: 'uuid' }) disputeId: string;
  @ApiProperty({ enum: DISPUTE_STATUSES }) status: string;
  @ApiProperty({ example: 1500.5, description: 'The amount the payer’s bank took back', format: 'decimal' }) amount: number;
}

/** The installment plan a payment was paid in (contract §25). */
export class PaymentIntentInstallmentPlanResponse {
  @ApiProperty({ type: 'integer', minimum: 2, maximum: 24, example: 6 }) installments: number;
  @ApiProperty({
    type: Number,
    format: 'decimal',
    nullable: true,
    example: 20000,
    description: 'Each installment the payer pays; null where the processor does not tell it (dLocal)',
  })
  installmentAmount: number | null;
  @ApiProperty({
    type: Number,
    format: 'decimal',
    nullable: true,
    example: 120000,
    description: 'What the payer pays in all, with any interest the payer pays (never the merchant’s money); null where not told',
  })
  payerTotalAmount: number | null;
  @ApiProperty({
    type: Number,
    format: 'decimal',
    example: 15000,
    description: 'The financing fee the merchant pays for an interest-free plan (0 when none)',
  })
  financingFeeAmount: number;
}

/** One collection attempt of the intent (contract §26). */
export class PaymentIntentAttemptResponse {
  @ApiProperty({ format: 'uuid', description: 'The attempt’s payin (GET /payin)' }) transactionId: string;
  @ApiProperty({ type: String, nullable: true, example: 'DLOCAL', description: 'The processor it went to' }) processor: string | null;
  @ApiProperty({
    enum: ['PENDING', 'SCHEDULED', 'APPROVED', 'REJECTED', 'CANCELLED', 'EXPIRED', 'FAILED'],
    description: 'The payin’s status; FAILED: the processor could not be reached (the next one of the routing rule was tried)',
  })
  status: string;
  @ApiProperty({ type: String, nullable: true, example: 'PROCESSOR_UNAVAILABLE', description: 'Why it failed, was refused or ended' })
  failureReason: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
}

export class PaymentIntentResponse {
  @ApiProperty({ format: 'uuid' }) paymentIntentId: string;
  @ApiProperty({ format: 'uuid' }) businessId: string;
  @ApiProperty({ format: 'uuid', description: 'The merchant that collects the payment (beyond the specification)' }) merchantId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) payerId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) paymentInstrumentId: string | null;
  @ApiProperty({ enum: PayinType }) payinType: string;
  @ApiProperty({ enum: PAYMENT_INTENT_STATUSES }) paymentIntentStatus: string;
  @ApiProperty({ type: String, nullable: true }) lastPaymentError: string | null;
  @ApiProperty({ type: String, nullable: true }) externalReference: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The gateway's reference of the approved charge" }) externalChargeId:
    string | null;
  @ApiProperty({ type: String, nullable: true }) externalInvoiceId: string | null;
  @ApiProperty({ type: String, nullable: true }) invoiceEmail: string | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ example: 1229.92, description: 'Amount without VAT', format: 'decimal' }) subtotalAmount: number;
  @ApiProperty({ example: 270.58, format: 'decimal' }) taxAmount: number;
  @ApiProperty({ example: 0, format: 'decimal' }) tipAmount: number;
  @ApiProperty({ example: 1500.5, description: 'What the payer pays: amount plus tip', format: 'decimal' }) totalAmount: number;
  @ApiProperty({ example: 0, description: 'Collected so far (the total once SUCCEEDED)', format: 'decimal' }) receivedAmount: number;
  @ApiProperty({
    example: 0,
    description:
      'Refunded: what the processor refunded (ours, its own, manual refunds confirmed there) plus refunds pending and manual refunds ' +
      'settled by other means (contract §28). Exact in any order; while one of our refunds is pending beside one the processor made ' +
      'itself it may pass receivedAmount, until the processor answers ours.',
    format: 'decimal',
  })
  refundedAmount: number;
  @ApiProperty({
    example: 0,
    description:
      'What a refund may still ask for: receivedAmount less refundedAmount and what open or lost disputes hold, never below 0 ' +
      '(contract §28). Clients use it instead of computing it.',
    format: 'decimal',
  })
  refundableAmount: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Typed number by the specification without a meaning; always null' })
  confirmationInstrument: null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: "Typed number by the specification without a meaning; always null (see the creation wrapper's nextAction)",
  })
  nextAction: null;
  @ApiProperty({ type: Number, nullable: true, description: 'Typed number by the specification without a meaning; always null' })
  statementDescriptor: null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) cancelledAt: string | null;
  @ApiProperty({ type: String, nullable: true }) cancellationReason: string | null;
  @ApiProperty({ type: String, nullable: true }) receiptEmail: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'OFF_SESSION' }) setupFutureUsage: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The request's metadata as a JSON string" }) metadata: string | null;
  @ApiProperty({ type: String, nullable: true }) linkId: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
  @ApiProperty({ example: 1 }) exchangeRate: number;
  @ApiProperty({ description: 'Whether the payer’s bank disputed the payment (contract §21)' }) disputed: boolean;
  @ApiProperty({
    type: [PaymentIntentDisputeResponse],
    description: 'Its disputes, oldest first: what they hold (all but WON ones) is debited and no longer refundable',
  })
  disputes: PaymentIntentDisputeResponse[];
  @ApiProperty({
    type: PaymentIntentInstallmentPlanResponse,
    nullable: true,
    description: 'The installment plan it was paid in (contract §25); null: a single payment, or not paid yet',
  })
  installmentPlan: PaymentIntentInstallmentPlanResponse | null;
  @ApiPropertyOptional({
    type: [PaymentIntentAttemptResponse],
    description: 'GET /payment-intent/{id} only: its collection attempts, oldest first (contract §26)',
  })
  attempts?: PaymentIntentAttemptResponse[];
}

export class PaymentIntentCreationResponse {
  @ApiProperty({ type: PaymentIntentResponse }) paymentIntent: PaymentIntentResponse;
  @ApiProperty({ enum: ['AUTOMATIC', 'MANUAL'], description: 'AUTOMATIC when confirmed at creation (confirm: true)' })
  confirmationMethod: string;
  @ApiProperty({ enum: PAYMENT_INTENT_STATUSES }) status: string;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['INITIALIZE_WITH_PAYMENT_METHOD', 'REDIRECT_TO_GATEWAY', 'WAIT_FOR_GATEWAY'],
    description: 'What has to happen next; null when nothing',
  })
  nextAction: string | null;
}

export class PaymentDataResponse {
  @ApiProperty({ type: String, nullable: true }) reference: string | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ format: 'uuid' }) countryId: string;
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ description: 'Total to pay', format: 'decimal' }) amount: number;
  @ApiProperty({ format: 'decimal' }) vatAmount: number;
  @ApiProperty({ type: String, nullable: true }) merchantFantasyName: string | null;
}

export class PaymentIntentMethodsResponse {
  @ApiProperty({ type: [CountryProcessorResponse] }) paymentIntentAvailablePaymentMethods: CountryProcessorResponse[];
  @ApiProperty({ type: PaymentDataResponse }) paymentData: PaymentDataResponse;
}

export class InitializePaymentResponse {
  @ApiProperty({ type: PaymentIntentResponse }) paymentIntent: PaymentIntentResponse;
  @ApiProperty({ example: 'sbx_chk_6f1c2e...' }) gatewayReferenceId: string;
  @ApiProperty({ example: 'http://localhost:3000/sandbox/gateway/sbx_chk_6f1c2e...' }) gatewayUrl: string;
}
