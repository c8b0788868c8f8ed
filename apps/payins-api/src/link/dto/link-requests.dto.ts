import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsEnum,
  IsISO8601,
  IsEmail,
  IsNumber,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
} from 'class-validator';
import { NestedObject, Optional, PageQueryDto } from '@pcs/http';
import { CountryCode, Currency, PaymentInstrumentTypeName, PaymentMethodName } from '@pcs/kernel';
import { PaymentIntentAdditionalInfoDto } from '../../payment-intent/dto/payment-intent-additional-info.dto';

export const LINK_STATUSES = ['ACTIVE', 'USED', 'EXPIRED'] as const;

/** Link creation request (operation 30). */
export class CreateLinkDto {
  @ApiProperty({ example: 1220, description: 'VAT included, in `currency`' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount: number;

  @ApiProperty({ example: 22, description: 'One the country allows (URY 0/10/22, ARG 0/10.5/21/27)' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  vatPercentage: number;

  @ApiProperty({ enum: Currency })
  @IsEnum(Currency)
  currency: Currency;

  @ApiProperty({
    type: [String],
    format: 'uuid',
    description: 'merchantCountryProcessorIds: all of one merchant, ACTIVE and active, in `country`, taking `currency`',
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true })
  merchantCountryProcessors: string[];

  @ApiProperty({ enum: CountryCode })
  @IsEnum(CountryCode)
  country: CountryCode;

  @ApiPropertyOptional({ format: 'uuid', description: 'Must be the owner of merchantCountryProcessors when sent' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @Optional()
  @IsString()
  @MaxLength(255)
  description?: string;

  @ApiPropertyOptional({ maxLength: 128, description: "The merchant's own reference" })
  @Optional()
  @IsString()
  @MaxLength(128)
  reference?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'In the future, at most 365 days ahead; default 7 days after creation' })
  @Optional()
  @IsISO8601({ strict: true })
  expirationDate?: string;
}

/** Link update request (operation 31): every field optional; what is sent changes, under creation's rules. */
export class UpdateLinkDto {
  @ApiPropertyOptional({ example: 1220 })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount?: number;

  @ApiPropertyOptional({ example: 22 })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  vatPercentage?: number;

  @ApiPropertyOptional({ enum: Currency })
  @Optional()
  @IsEnum(Currency)
  currency?: Currency;

  @ApiPropertyOptional({ type: [String], format: 'uuid' })
  @Optional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true })
  merchantCountryProcessors?: string[];

  @ApiPropertyOptional({ maxLength: 255 })
  @Optional()
  @IsString()
  @MaxLength(255)
  description?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @Optional()
  @IsString()
  @MaxLength(128)
  reference?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @Optional()
  @IsISO8601({ strict: true })
  expirationDate?: string;
}

/** Payment intent from link request (operation 24). */
export class LinkPaymentIntentDto {
  @ApiProperty({ enum: PaymentInstrumentTypeName })
  @IsEnum(PaymentInstrumentTypeName)
  paymentInstrumentTypeName: PaymentInstrumentTypeName;

  @ApiProperty({ enum: PaymentMethodName })
  @IsEnum(PaymentMethodName)
  paymentMethodName: PaymentMethodName;

  @ApiPropertyOptional({ description: "When sent, must equal the link's amount" })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount?: number;

  @ApiPropertyOptional({ maxLength: 255, description: "Replaces the link's description on the payment intent" })
  @Optional()
  @IsString()
  @MaxLength(255)
  description?: string;

  @ApiPropertyOptional({ type: PaymentIntentAdditionalInfoDto })
  @Optional()
  @NestedObject(() => PaymentIntentAdditionalInfoDto)
  paymentIntentAdditionalInfo?: PaymentIntentAdditionalInfoDto;
}

export class ListLinksQuery extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ enum: LINK_STATUSES })
  @Optional()
  @IsEnum(LINK_STATUSES)
  status?: (typeof LINK_STATUSES)[number];
}

/** Link share request (operation 34). */
export class ShareLinkDto {
  @ApiProperty({ maxLength: 128, example: 'ana@example.uy' })
  @IsEmail()
  @MaxLength(128)
  receiverEmail: string;

  @ApiProperty({ maxLength: 128, example: 'Ana' })
  @IsString()
  @Matches(/\S/, { message: 'receiverName must not be blank' })
  @MaxLength(128)
  receiverName: string;
}
