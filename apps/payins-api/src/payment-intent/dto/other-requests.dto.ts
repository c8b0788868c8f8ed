import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsInt, IsNotEmpty, IsNumber, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { Optional, NestedObject } from '@pcs/http';
import { CountryCode, Currency, ManualRefundStatus, PaymentInstrumentTypeName, PaymentMethodName } from '@pcs/kernel';
import { PaymentIntentAdditionalInfoDto } from './payment-intent-additional-info.dto';

/** Fast payment intent request (operation 18). The specification marks no field required; these four are needed. */
export class FastPaymentIntentDto {
  @ApiProperty({ example: 250 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount: number;

  @ApiProperty({ enum: Currency })
  @IsEnum(Currency)
  currency: Currency;

  @ApiPropertyOptional({ maxLength: 512 })
  @Optional()
  @IsString()
  @MaxLength(512)
  comment?: string;

  @ApiPropertyOptional({ enum: PaymentInstrumentTypeName })
  @Optional()
  @IsEnum(PaymentInstrumentTypeName)
  paymentInstrumentTypeName?: PaymentInstrumentTypeName;

  @ApiPropertyOptional({ enum: PaymentMethodName })
  @Optional()
  @IsEnum(PaymentMethodName)
  paymentMethodName?: PaymentMethodName;

  @ApiProperty({ example: 'cafe-centro' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  merchantShortName: string;

  @ApiProperty({ enum: CountryCode })
  @IsEnum(CountryCode)
  countryCode: CountryCode;

  @ApiPropertyOptional({ type: PaymentIntentAdditionalInfoDto })
  @Optional()
  @NestedObject(() => PaymentIntentAdditionalInfoDto)
  paymentIntentAdditionalInfo?: PaymentIntentAdditionalInfoDto;
}

export class InitializePaymentDto {
  @ApiProperty({ format: 'uuid', description: "One of the intent's available country processors (operation 20)" })
  @IsUUID('all')
  countryProcessorId: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 24,
    example: 6,
    description:
      'Installments (contract §25): a plan of the merchant’s offer, preselected on the page where the payer chooses; refused for a processor whose own page lets the payer choose (Mercado Pago, dLocal)',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(24)
  installments?: number;

  @ApiPropertyOptional({ type: PaymentIntentAdditionalInfoDto })
  @Optional()
  @NestedObject(() => PaymentIntentAdditionalInfoDto)
  paymentIntentAdditionalInfo?: PaymentIntentAdditionalInfoDto;
}

export class RefundDto {
  @ApiPropertyOptional({ example: 100, description: 'Major units; omit (or send an empty body) to refund everything refundable' })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  requestedRefundAmount?: number;
}

export class ManualRefundDto extends RefundDto {
  @ApiProperty({ enum: ManualRefundStatus })
  @IsEnum(ManualRefundStatus)
  status: ManualRefundStatus;
}
