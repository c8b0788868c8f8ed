import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsEnum, IsObject, IsString, IsUUID, Length } from 'class-validator';
import { Optional, NestedObject } from '@pcs/http';
import { CountryCode, PaymentMethodName } from '@pcs/kernel';
import { PayerRequestDto } from '../../payer/dto/payer-request.dto';
import { MaxJsonSize } from '../../shared/max-json-size.validator';

/** Payment instrument creation request (specification). */
export class CreatePaymentInstrumentDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  payerId: string;

  @ApiPropertyOptional({ type: PayerRequestDto, description: 'Completes the payer: fills what it does not have yet, never overwrites' })
  @Optional()
  @NestedObject(() => PayerRequestDto)
  payerData?: PayerRequestDto;

  @ApiProperty({ enum: PaymentMethodName })
  @IsEnum(PaymentMethodName)
  paymentMethodName: PaymentMethodName;

  @ApiPropertyOptional({
    type: [String],
    example: ['URY'],
    description: 'ISO 3166 alpha-3 codes where the instrument may be used; defaults to `country`',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(3)
  @IsString({ each: true })
  @Length(3, 3, { each: true })
  countries?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Free-form, at most 4 KiB; card data is refused' })
  @Optional()
  @IsObject()
  @MaxJsonSize(4096)
  metadata?: Record<string, unknown>;

  @ApiProperty({ enum: CountryCode })
  @IsEnum(CountryCode)
  country: CountryCode;
}
