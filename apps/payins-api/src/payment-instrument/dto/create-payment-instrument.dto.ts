import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsEnum, IsObject, IsOptional, IsString, IsUUID, Length, ValidateNested } from 'class-validator';
import { CountryCode, PaymentMethodName } from '@pcs/kernel';
import { PayerRequestDto } from '../../payer/dto/payer-request.dto';
import { MaxJsonSize } from '../../shared/max-json-size.validator';

/** Payment instrument creation request (specification). */
export class CreatePaymentInstrumentDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  payerId: string;

  @ApiPropertyOptional({ type: PayerRequestDto, description: 'Completes the payer: fills what it does not have yet, never overwrites' })
  @IsOptional()
  @ValidateNested()
  @Type(() => PayerRequestDto)
  payerData?: PayerRequestDto;

  @ApiProperty({ enum: PaymentMethodName })
  @IsEnum(PaymentMethodName)
  paymentMethodName: PaymentMethodName;

  @ApiPropertyOptional({ type: [String], example: ['URY'], description: 'ISO 3166 alpha-3 codes where the instrument may be used; defaults to `country`' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @IsString({ each: true })
  @Length(3, 3, { each: true })
  countries?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Free-form, at most 4 KiB; card data is refused' })
  @IsOptional()
  @IsObject()
  @MaxJsonSize(4096)
  metadata?: Record<string, unknown>;

  @ApiProperty({ enum: CountryCode })
  @IsEnum(CountryCode)
  country: CountryCode;
}

