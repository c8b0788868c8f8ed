import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsNumber, IsString, IsUUID, Matches } from 'class-validator';
import { Optional, QueryDecimal } from '@pcs/http';
import { Currency } from '@pcs/kernel';

/** A card's first 6 or 8 digits (contract §25). */
export const BIN = /^\d{6}(\d{2})?$/;

/** The quote's amount and currency, whichever API asks. */
export class InstallmentQuoteAmountQuery {
  @ApiProperty({ type: 'number', format: 'decimal', example: 120000, description: 'What the payer pays without interest, major units' })
  @QueryDecimal()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount: number;

  @ApiProperty({ enum: Currency, example: Currency.ARS })
  @IsEnum(Currency)
  currency: Currency;

  @ApiPropertyOptional({ pattern: '^\\d{6}(\\d{2})?$', example: '45099500', description: "The card's first 6 or 8 digits" })
  @Optional()
  @IsString()
  @Matches(BIN, { message: 'bin must be the card’s first 6 or 8 digits' })
  bin?: string;
}

/** GET /installments on the payins API: the processor by its id, the card by its BIN, or a saved card instead of both. */
export class InstallmentQuoteQuery extends InstallmentQuoteAmountQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Required when the business has several merchants' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The country processor that would collect the payment (with bin)' })
  @Optional()
  @IsUUID('all')
  countryProcessorId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A saved card of one of the merchant’s payers, instead of bin' })
  @Optional()
  @IsUUID('all')
  paymentInstrumentId?: string;
}
