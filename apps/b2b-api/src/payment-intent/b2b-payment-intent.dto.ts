import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsPositive,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidationOptions,
} from 'class-validator';
import { B2bPageQueryDto, IsDateBound, NestedObject, Optional } from '@pcs/http';
import { B2bCountry, Currency, PaymentInstrumentTypeName, PaymentIntentType, PaymentMethodName } from '@pcs/kernel';
import { B2B_STATUS_CODES } from '@pcs/payments';

/**
 * An absolute https URL of at most 2,048 characters, without credentials;
 * http only for localhost and 127.0.0.1 (contract §13).
 */
export function isRedirectUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname.length > 0;
  return url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
}

function IsRedirectUrl(options?: ValidationOptions): PropertyDecorator {
  return (object, propertyName) =>
    registerDecorator({
      name: 'isRedirectUrl',
      target: object.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} must be an absolute https URL of at most 2048 characters (http only for localhost and 127.0.0.1)`,
        ...options,
      },
      validator: { validate: isRedirectUrl },
    });
}

export class AmountDetailsDto {
  @ApiPropertyOptional({ example: 50, format: 'decimal', description: 'Major units, added to the amount the payer pays; at least 0' })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  tip?: number;

  @ApiPropertyOptional({
    example: 220,
    description: "Major units, at least 0 and below amount; recorded as the tax amount. Without it: the merchant's VAT for the country",
  })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  vatAmount?: number;
}

export class InvoiceDetailsDto {
  @ApiPropertyOptional({ maxLength: 128 })
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  reference?: string;

  @ApiPropertyOptional({ maxLength: 32, example: 'A' })
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  serie?: string;

  @ApiPropertyOptional({ example: 1001 })
  @Optional()
  @IsInt()
  @IsPositive()
  @Max(Number.MAX_SAFE_INTEGER)
  number?: number;
}

export class PaymentMethodsOptionsDto {
  @ApiPropertyOptional({ enum: PaymentMethodName, isArray: true, description: 'Narrows the instrument type to these networks' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(Object.keys(PaymentMethodName).length)
  @ArrayUnique()
  @IsEnum(PaymentMethodName, { each: true })
  networks?: PaymentMethodName[];
}

export class PaymentMethodsDto {
  @ApiProperty({ enum: PaymentInstrumentTypeName, description: 'The one payment instrument type the payer may use' })
  @IsEnum(PaymentInstrumentTypeName)
  name: PaymentInstrumentTypeName;

  @ApiPropertyOptional({ type: PaymentMethodsOptionsDto })
  @Optional()
  @NestedObject(() => PaymentMethodsOptionsDto)
  options?: PaymentMethodsOptionsDto;
}

/**
 * B2B payment intent request (specification B6). The specification marks no
 * field required; the contract (§13) and this service require countryCode,
 * currency, amount and redirectUrl (a payment needs them), and merchantId as
 * everywhere (§4).
 */
export class CreateB2bPaymentIntentDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Implied by merchant credentials, or a business with one merchant' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ enum: PaymentIntentType, default: PaymentIntentType.ECO })
  @Optional()
  @IsEnum(PaymentIntentType)
  type?: PaymentIntentType;

  @ApiPropertyOptional({ maxLength: 128, description: "The merchant's own reference, returned on the redirect" })
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  externalReference?: string;

  @ApiPropertyOptional({ maxLength: 512 })
  @Optional()
  @IsString()
  @MaxLength(512)
  description?: string;

  @ApiProperty({ enum: B2bCountry })
  @IsEnum(B2bCountry)
  countryCode: B2bCountry;

  @ApiProperty({ enum: Currency, description: 'One the country accepts (URY: UYU, USD; ARG: ARS, USD; BRA: BRL, USD)' })
  @IsEnum(Currency)
  currency: Currency;

  @ApiProperty({ example: 1220, description: "Major units, VAT included, tip excluded; at most the currency's decimals" })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount: number;

  @ApiPropertyOptional({ type: AmountDetailsDto })
  @Optional()
  @NestedObject(() => AmountDetailsDto)
  amountDetails?: AmountDetailsDto;

  @ApiPropertyOptional({ type: InvoiceDetailsDto })
  @Optional()
  @NestedObject(() => InvoiceDetailsDto)
  invoiceDetails?: InvoiceDetailsDto;

  @ApiPropertyOptional({ description: 'true: every method the merchant offers there, whatever paymentMethods says' })
  @Optional()
  @IsBoolean()
  includeAllPaymentMethods?: boolean;

  @ApiPropertyOptional({ type: PaymentMethodsDto, description: 'Narrows what the payer may choose; offered by the merchant there' })
  @Optional()
  @NestedObject(() => PaymentMethodsDto)
  paymentMethods?: PaymentMethodsDto;

  @ApiProperty({ maxLength: 2048, example: 'https://shop.example/payment-return', description: 'Where the checkout returns the payer' })
  @IsString()
  @IsRedirectUrl()
  redirectUrl: string;
}

/** B5's query: the B2B paging (contract §7) and the filters of §13. */
export class ListB2bPaymentIntentsQuery extends B2bPageQueryDto {
  @ApiPropertyOptional({ enum: B2B_STATUS_CODES })
  @Optional()
  @IsIn(B2B_STATUS_CODES)
  status?: (typeof B2B_STATUS_CODES)[number];

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  externalReference?: string;

  @ApiPropertyOptional({ example: '2026-11-01', description: 'Created at or after; inclusive, a date means from its start (UTC)' })
  @Optional()
  @IsDateBound()
  dateFrom?: string;

  @ApiPropertyOptional({ example: '2026-11-30', description: 'Created at or before; inclusive, a date means until its end (UTC)' })
  @Optional()
  @IsDateBound()
  dateUntil?: string;
}
