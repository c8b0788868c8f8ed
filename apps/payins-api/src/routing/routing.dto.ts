import { ApiProperty } from '@nestjs/swagger';
import { IsEnum, IsNumber, IsString, Length, Matches } from 'class-validator';
import { Optional, QueryDecimal } from '@pcs/http';
import { Currency } from '@pcs/kernel';

/**
 * GET /merchant/:merchantId/routing/simulate (contract §26): the facts of an attempt. Each is required;
 * a missing one is refused after the merchant is found (another tenant's merchant is a 404 first).
 */
export class RoutingSimulationQuery {
  @ApiProperty({ example: 'VISA', description: 'The payment method' })
  @Optional()
  @IsString()
  @Length(1, 64)
  @Matches(/^[A-Za-z0-9_]+$/, { message: 'paymentMethod must be a payment method name' })
  paymentMethod?: string;

  @ApiProperty({ example: 'URY', description: 'The country (ISO alpha-3)' })
  @Optional()
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'country must be three capital letters (ISO alpha-3)' })
  country?: string;

  @ApiProperty({ enum: Currency, example: Currency.UYU })
  @Optional()
  @IsEnum(Currency)
  currency?: Currency;

  @ApiProperty({ type: 'number', format: 'decimal', example: 1500, description: 'What the payer pays, major units' })
  @Optional()
  @QueryDecimal()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount?: number;
}
