import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsEnum,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Currency, TransfersType } from '@pcs/kernel';
import { AddressDto } from '../../shared/address.dto';
import { OptionalEmail, OptionalPhone } from '../../shared/validation';

export class SettlementBankDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  settlementBankId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  bankId?: string;

  @ApiPropertyOptional({ maxLength: 64 })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9A-Za-z-]{4,64}$/, { message: '$property must have 4 to 64 letters, digits or hyphens' })
  accountNumber?: string;

  @ApiPropertyOptional({ enum: Currency })
  @IsOptional()
  @IsEnum(Currency)
  currency?: Currency;
}

export class AccountDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  serviceAccount?: string;

  @ApiPropertyOptional({ type: SettlementBankDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => SettlementBankDto)
  settlementBank?: SettlementBankDto;
}

/** Merchant update request (specification). Every field optional; sent fields replace. */
export class UpdateMerchantDto {
  @ApiPropertyOptional({ type: AccountDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => AccountDto)
  account?: AccountDto;

  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  merchantName?: string;

  @ApiPropertyOptional({ enum: TransfersType })
  @IsOptional()
  @IsEnum(TransfersType)
  transfersType?: TransfersType;

  @OptionalEmail()
  email?: string;

  @OptionalPhone()
  phone?: string;

  @ApiPropertyOptional({ type: AddressDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto;

  @ApiPropertyOptional({ maxLength: 4096 })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  metadata?: string;

  @ApiPropertyOptional({ enum: Currency, isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(9)
  @IsEnum(Currency, { each: true })
  currencies?: Currency[];

  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'Country processors to relate to the merchant (added to the existing ones)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  countryProcessorsId?: string[];
}
