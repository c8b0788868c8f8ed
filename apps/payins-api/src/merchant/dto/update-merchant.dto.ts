import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsEnum, IsNotEmpty, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { Optional, NestedObject } from '@pcs/http';
import { Currency, TransfersType } from '@pcs/kernel';
import { AddressDto } from '../../shared/address.dto';
import { OptionalEmail, OptionalPhone } from '../../shared/validation';

export class SettlementBankDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  settlementBankId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  bankId?: string;

  @ApiPropertyOptional({
    maxLength: 77,
    description: 'Checked as the settlement account of its currency (PUT /merchant/{merchantId}/settlement-account/{currency})',
  })
  @Optional()
  @IsString()
  @Matches(/^[0-9A-Za-z@._+/ -]{4,77}$/, { message: '$property must have 4 to 77 letters, digits, spaces or - . / @ + _' })
  accountNumber?: string;

  @ApiPropertyOptional({ enum: Currency })
  @Optional()
  @IsEnum(Currency)
  currency?: Currency;
}

export class AccountDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  serviceAccount?: string;

  @ApiPropertyOptional({ type: SettlementBankDto })
  @Optional()
  @NestedObject(() => SettlementBankDto)
  settlementBank?: SettlementBankDto;
}

/** Merchant update request (specification). Every field optional; sent fields replace. */
export class UpdateMerchantDto {
  @ApiPropertyOptional({ type: AccountDto })
  @Optional()
  @NestedObject(() => AccountDto)
  account?: AccountDto;

  @ApiPropertyOptional({ maxLength: 128 })
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  merchantName?: string;

  @ApiPropertyOptional({ enum: TransfersType })
  @Optional()
  @IsEnum(TransfersType)
  transfersType?: TransfersType;

  @OptionalEmail()
  email?: string;

  @OptionalPhone()
  phone?: string;

  @ApiPropertyOptional({ type: AddressDto })
  @Optional()
  @NestedObject(() => AddressDto)
  address?: AddressDto;

  @ApiPropertyOptional({ maxLength: 4096 })
  @Optional()
  @IsString()
  @MaxLength(4096)
  metadata?: string;

  @ApiPropertyOptional({ enum: Currency, isArray: true })
  @Optional()
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(9)
  @IsEnum(Currency, { each: true })
  currencies?: Currency[];

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    description: 'Country processors to relate to the merchant (added to the existing ones)',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  countryProcessorsId?: string[];
}
