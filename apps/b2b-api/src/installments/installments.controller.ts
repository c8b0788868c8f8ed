import { Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ApiStandardErrors, CurrentCaller, Optional, QueryDecimal, SignedController } from '@pcs/http';
import { asMerchantId, Currency, moneyFromWire } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { installmentPlanRepresentation, InstallmentQuotesService } from '@pcs/payments';
import { IsEnum, IsNumber, IsString, IsUUID, Matches, MaxLength } from 'class-validator';

/** GET /installments on the B2B API: the merchant's own processor for the method answers (contract §25). */
export class B2bInstallmentQuoteQuery {
  @ApiProperty({ example: 'VISA', description: 'The card network (a payment method name of the merchant’s countries)' })
  @IsString()
  @MaxLength(64)
  paymentMethod: string;

  @ApiProperty({ type: 'number', format: 'decimal', example: 120000, description: 'What the payer pays without interest, major units' })
  @QueryDecimal()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount: number;

  @ApiProperty({ enum: Currency, example: Currency.ARS })
  @IsEnum(Currency)
  currency: Currency;

  @ApiProperty({ pattern: '^\\d{6}(\\d{2})?$', example: '45099500', description: "The card's first 6 or 8 digits" })
  @IsString()
  @Matches(/^\d{6}(\d{2})?$/, { message: 'bin must be the card’s first 6 or 8 digits' })
  bin: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Required with business credentials that have several merchants' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;
}

/** One plan, the same for every processor (contract §25). */
export class B2bInstallmentPlanResponse {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 24, example: 6 }) installments: number;
  @ApiProperty({ type: 'number', format: 'decimal', example: 20000, description: 'Each installment the payer pays' })
  installmentAmount: number;
  @ApiProperty({ type: 'number', format: 'decimal', example: 120000, description: 'What the payer pays in all' })
  totalAmount: number;
  @ApiProperty({ description: 'The payer pays nothing beyond the amount' }) interestFree: boolean;
  @ApiProperty({ type: 'number', format: 'decimal', example: 0, description: 'The payer’s interest over the plan, percent of the amount' })
  payerRate: number;
  @ApiProperty({
    type: 'number',
    format: 'decimal',
    nullable: true,
    example: 9000,
    description: 'The merchant’s financing fee where quoted',
  })
  merchantFinancingFee: number | null;
}

@SignedController('installments', 'installments')
@ApiUnauthorizedResponse({ description: 'Auth:UNAUTHORIZED' })
export class B2bInstallmentsController {
  constructor(private readonly quotes: InstallmentQuotesService) {}

  @Get()
  @ApiOperation({
    summary: 'Quote installments',
    description:
      'The plans the merchant’s processor for the method offers for the card (its BIN) and the amount, limited by the merchant’s installment policy (contract §25). The single payment is always among them.',
    operationId: 'quoteB2bInstallments',
  })
  @ApiOkResponse({ type: [B2bInstallmentPlanResponse] })
  @ApiStandardErrors()
  async quote(@CurrentCaller() caller: Caller, @Query() query: B2bInstallmentQuoteQuery): Promise<B2bInstallmentPlanResponse[]> {
    const plans = await this.quotes.quote(caller, {
      merchantId: query.merchantId ? asMerchantId(query.merchantId) : undefined,
      paymentMethod: query.paymentMethod,
      bin: query.bin,
      amount: moneyFromWire('amount', query.amount, query.currency),
    });
    return plans.map(installmentPlanRepresentation);
  }
}
