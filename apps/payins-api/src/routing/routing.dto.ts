import { ApiProperty } from '@nestjs/swagger';
import { IsEnum, IsNumber, IsString, Length, Matches } from 'class-validator';
import { QueryDecimal } from '@pcs/http';
import { Currency } from '@pcs/kernel';

/** GET /merchant/:merchantId/routing/simulate (contract §26): the facts of an attempt. */
export class RoutingSimulationQuery {
  @ApiProperty({ example: 'VISA', description: 'The payment method' })
  @IsString()
  @Length(1, 64)
  @Matches(/^[A-Za-z0-9_]+$/, { message: 'paymentMethod must be a payment method name' })
  paymentMethod: string;

  @ApiProperty({ example: 'URY', description: 'The country (ISO alpha-3)' })
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'country must be three capital letters (ISO alpha-3)' })
  country: string;

  @ApiProperty({ enum: Currency, example: Currency.UYU })
  @IsEnum(Currency)
  currency: Currency;

  @ApiProperty({ type: 'number', format: 'decimal', example: 1500, description: 'What the payer pays, major units' })
  @QueryDecimal()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount: number;
}
