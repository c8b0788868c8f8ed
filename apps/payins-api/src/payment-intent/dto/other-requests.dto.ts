import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum, IsNotEmpty, IsNumber, IsOptional, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
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
  @IsOptional()
  @IsString()
  @MaxLength(512)
  comment?: string;

  @ApiPropertyOptional({ enum: PaymentInstrumentTypeName })
  @IsOptional()
  @IsEnum(PaymentInstrumentTypeName)
  paymentInstrumentTypeName?: PaymentInstrumentTypeName;

  @ApiPropertyOptional({ enum: PaymentMethodName })
  @IsOptional()
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
  @IsOptional()
  @ValidateNested()
  @Type(() => PaymentIntentAdditionalInfoDto)
  paymentIntentAdditionalInfo?: PaymentIntentAdditionalInfoDto;
}

export class InitializePaymentDto {
  @ApiProperty({ format: 'uuid', description: 'One of the intent\'s available country processors (operation 20)' })
  @IsUUID('all')
  countryProcessorId: string;

  @ApiPropertyOptional({ type: PaymentIntentAdditionalInfoDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PaymentIntentAdditionalInfoDto)
  paymentIntentAdditionalInfo?: PaymentIntentAdditionalInfoDto;
}

export class RefundDto {
  @ApiPropertyOptional({ example: 100, description: 'Major units; omit (or send an empty body) to refund everything refundable' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  requestedRefundAmount?: number;
}

export class ManualRefundDto extends RefundDto {
  @ApiProperty({ enum: ManualRefundStatus })
  @IsEnum(ManualRefundStatus)
  status: ManualRefundStatus;
}

