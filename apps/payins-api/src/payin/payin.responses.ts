import { ApiProperty } from '@nestjs/swagger';
import { Currency, FUNDS_FLOWS, LIQUIDATION_SOURCES, REFUND_ORIGINS, TransactionStatus } from '@pcs/kernel';

class PersonResponse {
  @ApiProperty({ type: String, nullable: true }) lastName: string | null;
  @ApiProperty({ type: String, nullable: true }) firstName: string | null;
}

class PaymentInstrumentDataResponse {
  @ApiProperty({ type: String, nullable: true, example: '************1111' }) maskedPan: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'VISA' }) cardType: string | null;
}

export class PayinResponse {
  @ApiProperty({ format: 'uuid' }) transactionId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "The merchant's service account" }) accountId: string | null;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The payout that swept its balance transaction' })
  payoutRequestId: string | null;
  @ApiProperty({ format: 'uuid' }) paymentIntentId: string;
  @ApiProperty() merchantName: string;
  @ApiProperty({ enum: TransactionStatus }) status: string;
  @ApiProperty({ type: String, nullable: true, description: "The gateway's reference" }) externalId: string | null;
  @ApiProperty({ type: String, nullable: true }) externalStatus: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) transactionSyncDate: string | null;
  @ApiProperty({ enum: ['PAYIN', 'REFUND'] }) transactionType: string;
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ format: 'decimal' }) amount: number;
  @ApiProperty({ format: 'decimal' }) subtotalAmount: number;
  @ApiProperty({ format: 'decimal' }) taxAmount: number;
  @ApiProperty({ format: 'decimal' }) tipAmount: number;
  @ApiProperty({ format: 'decimal' }) receivedAmount: number;
  @ApiProperty({ description: "The fee fixed at approval (0 until then; a refund's is 0)", format: 'decimal' }) feeAmount: number;
  @ApiProperty({ description: "The country's tax on the fee", format: 'decimal' }) feeTaxAmount: number;
  @ApiProperty({
    description:
      'receivedAmount − feeAmount − feeTaxAmount, and − financingFeeAmount in PLATFORM funds flow (0 until approved; a refund’s is −amount)',
    format: 'decimal',
  })
  netAmount: number;
  @ApiProperty({
    type: Number,
    format: 'decimal',
    nullable: true,
    description: 'The processor’s own fee when it reports one (never charged twice)',
  })
  processorFeeAmount: number | null;
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: 24,
    description: 'The installments the payer paid in (contract §25); 1: a single payment',
  })
  installments: number;
  @ApiProperty({ type: Number, format: 'decimal', nullable: true, description: 'Each installment, when paid in installments' })
  installmentAmount: number | null;
  @ApiProperty({
    type: Number,
    format: 'decimal',
    nullable: true,
    description: 'What the payer paid in all, with any interest the payer pays (never the merchant’s money), when paid in installments',
  })
  payerTotalAmount: number | null;
  @ApiProperty({
    format: 'decimal',
    description: 'The financing fee the merchant pays for an interest-free plan (the processor’s; 0 for none)',
  })
  financingFeeAmount: number;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: ['PAYIN', 'REFUND', 'MANUAL_REFUND'] }) conceptCode: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      "When the money becomes available: the processor's own release date where it reports one (Mercado Pago's money_release_date), otherwise approval plus the processor's settlement delay in the country's business days (start of that day, its time zone); a refund's approval",
  })
  liquidationDate: string | null;
  @ApiProperty({
    enum: LIQUIDATION_SOURCES,
    nullable: true,
    description: 'Where liquidationDate came from on an approved collection: the processor’s release date, or our business-day calendar',
  })
  liquidationSource: string | null;
  @ApiProperty({
    enum: FUNDS_FLOWS,
    description:
      'Whose processor account collected it (contract §23): PLATFORM, the business’s (its money is paid out by payouts); MERCHANT, the merchant’s own (the processor pays the merchant; only the fee is owed). A refund takes its collection’s',
  })
  fundsFlow: string;
  @ApiProperty({
    enum: REFUND_ORIGINS,
    nullable: true,
    description:
      'Who made a refund: the APIs, the dashboard, a link’s page, or the processor itself (its panel or API); null on collections',
  })
  origin: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) cancelledAt: string | null;
  @ApiProperty({ type: String, nullable: true }) cancellationReason: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) createdAt: string | null;
  @ApiProperty({ type: PersonResponse }) person: PersonResponse;
  @ApiProperty({ type: PaymentInstrumentDataResponse }) paymentInstrumentData: PaymentInstrumentDataResponse;
  @ApiProperty({ enum: ['MERCHANT', 'PAYER'] }) paymentIntentInitiator: string;
}

export class PayinPageResponse {
  @ApiProperty({ example: '1' }) currentPage: string;
  @ApiProperty({ example: '20' }) pageSize: string;
  @ApiProperty({ type: 'integer' }) rowCount: number;
  @ApiProperty({ type: 'integer' }) pageCount: number;
  @ApiProperty({ type: [PayinResponse] }) results: PayinResponse[];
}

class SummaryFigures {
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ description: 'Approved collections, major units', format: 'decimal' }) collected: number;
  @ApiProperty({ description: 'Approved collection attempts', type: 'integer' }) approved: number;
  @ApiProperty({ description: 'Rejected collection attempts', type: 'integer' }) rejected: number;
}

export class PayinSummaryDayResponse extends SummaryFigures {
  @ApiProperty({ example: '2026-11-24', description: 'UTC day' }) day: string;
}

export class PayinSummaryMethodResponse extends SummaryFigures {
  @ApiProperty({ example: 'VISA' }) paymentMethodName: string;
}

export class PayinSummaryTotalResponse extends SummaryFigures {
  @ApiProperty({ description: 'Refunds approved or under way, major units', format: 'decimal' }) refunded: number;
  @ApiProperty({ type: Number, nullable: true, description: 'approved / (approved + rejected), 4 decimals; null without either' })
  approvalRate: number | null;
}

export class PayinSummaryResponse {
  @ApiProperty({ example: '2026-10-26' }) dateFrom: string;
  @ApiProperty({ example: '2026-11-24' }) dateUntil: string;
  @ApiProperty({ type: [PayinSummaryDayResponse], description: 'Per UTC day and currency (days without payins are absent)' })
  days: PayinSummaryDayResponse[];
  @ApiProperty({ type: [PayinSummaryMethodResponse], description: 'Per payment method and currency, most collected first' })
  paymentMethods: PayinSummaryMethodResponse[];
  @ApiProperty({ type: [PayinSummaryTotalResponse], description: 'Per currency, over the whole span' })
  totals: PayinSummaryTotalResponse[];
}
