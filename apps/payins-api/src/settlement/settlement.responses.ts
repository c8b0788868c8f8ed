import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Currency } from '@pcs/kernel';
import { ACCOUNT_TYPES, BALANCE_TRANSACTION_TYPES, PAYOUT_STATUSES } from '@pcs/settlement';

export class BankResponse {
  @ApiProperty({ format: 'uuid' }) bankId: string;
  @ApiProperty({ enum: ['URY', 'ARG', 'BRA'] }) country: string;
  @ApiProperty({
    example: '011',
    description: 'The official code: BCU (Uruguay), BCRA (Argentina; 000: virtual accounts, CVU), COMPE (Brazil)',
  })
  code: string;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ example: '00000000', description: "Brazil: the bank's ISPB" }) ispb?: string;
}

export class SettlementAccountResponse {
  @ApiProperty({ format: 'uuid' }) settlementAccountId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ format: 'uuid' }) bankId: string;
  @ApiProperty() bankName: string;
  @ApiProperty() accountNumber: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) accountType: string;
  @ApiProperty({ type: String, nullable: true }) holderDocument: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Until when payouts to it wait after it was set or changed (contract §24); null: they go',
  })
  holdUntil: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'A payout a bank gave back from this account (RETURNED): no payout goes to it until it is changed or confirmed; null: they go',
  })
  returnedPayoutId: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When a dashboard admin confirmed it (ending its hold, or the stop of a returned payout)',
  })
  confirmedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class UpcomingAvailabilityResponse {
  @ApiProperty({ format: 'date-time', description: 'When it becomes available' }) availableOn: string;
  @ApiProperty({ description: 'Major units', format: 'decimal' }) amount: number;
}

export class CurrencyBalanceResponse {
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ description: 'The net of transactions not available yet (major units)', format: 'decimal' }) pending: number;
  @ApiProperty({
    description: 'The net of available transactions, payouts included; negative after refunds: the next payout nets it',
    format: 'decimal',
  })
  available: number;
  @ApiProperty({ description: 'Payouts PENDING or IN_TRANSIT', format: 'decimal' }) inTransit: number;
  @ApiProperty({ type: [UpcomingAvailabilityResponse], description: 'What becomes available when (the pending amount, by date)' })
  upcoming: UpcomingAvailabilityResponse[];
}

export class BalanceResponse {
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ type: [CurrencyBalanceResponse] }) balances: CurrencyBalanceResponse[];
}

export class BalanceTransactionResponse {
  @ApiProperty({ format: 'uuid' }) balanceTransactionId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ enum: BALANCE_TRANSACTION_TYPES }) type: string;
  @ApiProperty({ description: 'Major units, signed: money in is positive', format: 'decimal' }) amount: number;
  @ApiProperty({ description: 'The fee and its tax (a payin’s), and the financing fee below, major units', format: 'decimal' }) fee: number;
  @ApiProperty({
    description: 'Of fee, the processor’s financing fee of an interest-free installment plan (contract §25), major units; 0 for none',
    format: 'decimal',
  })
  financingFee: number;
  @ApiProperty({ description: 'amount − fee', format: 'decimal' }) net: number;
  @ApiProperty({ enum: ['PENDING', 'AVAILABLE'] }) status: string;
  @ApiProperty({ format: 'date-time' }) availableOn: string;
  @ApiProperty({ format: 'uuid', description: "The payin's or refund's transactionId, the payout's id, or the adjustment's own" })
  sourceId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The payout that swept it, or its own payout' })
  payoutId: string | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class BalanceTransactionPageResponse {
  @ApiProperty({ example: '1' }) currentPage: string;
  @ApiProperty({ example: '20' }) pageSize: string;
  @ApiProperty({ type: 'integer' }) rowCount: number;
  @ApiProperty({ type: 'integer' }) pageCount: number;
  @ApiProperty({ type: [BalanceTransactionResponse] }) results: BalanceTransactionResponse[];
}

export class PayoutSettlementBankResponse {
  @ApiProperty({ format: 'uuid' }) settlementAccountId: string;
  @ApiProperty({ format: 'uuid' }) bankId: string;
  @ApiProperty({ type: String, nullable: true }) bankName: string | null;
  @ApiProperty() accountNumber: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) accountType: string;
  @ApiProperty({ enum: Currency }) currency: string;
}

export class PayoutResponse {
  @ApiProperty({ format: 'uuid' }) payoutId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ description: 'Major units', format: 'decimal' }) amount: number;
  @ApiProperty({ enum: PAYOUT_STATUSES }) status: string;
  @ApiProperty({ type: PayoutSettlementBankResponse, description: 'The settlement account as it was when the payout was made' })
  settlementBank: PayoutSettlementBankResponse;
  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'When it reaches (or reached) the account' })
  arrivalDate: string | null;
  @ApiProperty({ type: String, nullable: true }) bankReference: string | null;
  @ApiProperty({ type: String, nullable: true }) failureReason: string | null;
  @ApiProperty({ description: 'How many balance transactions it swept (0 for a payout of a given amount)', type: 'integer' })
  transactionCount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) paidAt: string | null;
}

export class PayoutPageResponse {
  @ApiProperty({ example: '1' }) currentPage: string;
  @ApiProperty({ example: '20' }) pageSize: string;
  @ApiProperty({ type: 'integer' }) rowCount: number;
  @ApiProperty({ type: 'integer' }) pageCount: number;
  @ApiProperty({ type: [PayoutResponse] }) results: PayoutResponse[];
}

export class PricingFixedFeeResponse {
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ description: 'Major units', format: 'decimal' }) amount: number;
}

/** A merchant country processor's price (read-only; the operator sets it). */
export class PricingResponse {
  @ApiProperty({ example: 3.49, description: 'Of what the payer paid, tip included' }) percentage: number;
  @ApiProperty({ type: [PricingFixedFeeResponse], description: 'A fixed fee per currency (none: 0)' }) fixed: PricingFixedFeeResponse[];
  @ApiProperty({ description: 'Business days until the money is available (0: at approval)', type: 'integer' }) settlementDelayDays: number;
}
