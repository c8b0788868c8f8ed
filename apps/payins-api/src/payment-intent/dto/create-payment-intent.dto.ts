import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEnum,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsPositive,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { Optional, NestedObject } from '@pcs/http';
import { CountryCode, Currency, PayinType, PaymentInstrumentTypeName, PaymentMethodName } from '@pcs/kernel';
import { PayerRequestDto } from '../../payer/dto/payer-request.dto';
import { MaxJsonSize } from '../../shared/max-json-size.validator';

export class PaymentInstrumentDataDto {
  @ApiPropertyOptional({ enum: PaymentInstrumentTypeName })
  @Optional()
  @IsEnum(PaymentInstrumentTypeName)
  paymentInstrumentTypeName?: PaymentInstrumentTypeName;

  @ApiProperty({ enum: PaymentMethodName })
  @IsEnum(PaymentMethodName)
  paymentMethodName: PaymentMethodName;

  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'countryId of each country where the instrument may be used' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(3)
  @IsUUID('all', { each: true })
  countries?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @Optional()
  @IsObject()
  @MaxJsonSize(4096)
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;
}

export class PaymentIntentMetadataDto {
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  limitIssuers?: string[];
}

/** Payment intent creation request (specification, operation 17). */
export class CreatePaymentIntentDto {
  @ApiProperty({ enum: Currency })
  @IsEnum(Currency)
  currency: Currency;

  @ApiProperty({ example: 1500.5, description: "Major units, VAT included, tip excluded; at most the currency's decimals" })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount: number;

  @ApiProperty({ enum: PayinType })
  @IsEnum(PayinType)
  payinType: PayinType;

  @ApiProperty({ maxLength: 128 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  externalReference: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Required unless payerData describes a new payer' })
  @Optional()
  @IsUUID('all')
  payerId?: string;

  @ApiProperty()
  @IsBoolean()
  offSession: boolean;

  @ApiProperty({ example: 1001 })
  @IsInt()
  @IsPositive()
  @Max(Number.MAX_SAFE_INTEGER)
  invoiceNumber: number;

  @ApiProperty({ enum: CountryCode })
  @IsEnum(CountryCode)
  country: CountryCode;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  paymentInstrumentId?: string;

  @ApiPropertyOptional({ type: PaymentInstrumentDataDto })
  @Optional()
  @NestedObject(() => PaymentInstrumentDataDto)
  paymentInstrumentData?: PaymentInstrumentDataDto;

  @ApiPropertyOptional({ description: 'With an instrument: charge it now, off-session' })
  @Optional()
  @IsBoolean()
  confirm?: boolean;

  @ApiPropertyOptional({
    maxLength: 128,
    example: 'ff8080814c11e237014c1ff593b57b4d',
    description:
      'With confirm and offSession false, the payer present (contract §31): the processor’s token of the saved card with its ' +
      'security code, made in the payer’s browser by the processor’s own library from the card’s id and the code ' +
      '(docs/integration.md); the card is then charged without the account’s automatic payments. Not used where the ' +
      'processor charges a saved card without its code',
  })
  @Optional()
  @IsString()
  @Matches(/^[0-9A-Za-z_-]{8,128}$/)
  cardToken?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 24,
    example: 3,
    description: 'With confirm: the installments the saved card is charged in (contract §25), a plan of the merchant’s offer',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(24)
  installments?: number;

  @ApiPropertyOptional({ type: PayerRequestDto })
  @Optional()
  @NestedObject(() => PayerRequestDto)
  payerData?: PayerRequestDto;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  setupFutureUsage?: boolean;

  @ApiPropertyOptional({ type: PaymentIntentMetadataDto })
  @Optional()
  @NestedObject(() => PaymentIntentMetadataDto)
  metadata?: PaymentIntentMetadataDto;

  @ApiPropertyOptional({ maxLength: 512 })
  @Optional()
  @IsString()
  @MaxLength(512)
  description?: string;

  @ApiPropertyOptional({ example: 50, description: 'Major units, added to the amount' })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  tipAmount?: number;

  @ApiPropertyOptional({
    example: 22,
    description: "One of the country's allowed VAT percentages; default: the merchant's for the country, else the country's",
  })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  vatPercentage?: number;
}
