import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsOptional, IsString, IsUUID, Matches, MaxLength, ValidateNested } from 'class-validator';
import { PageQueryDto } from '@pcs/http';
import { PHONE_MESSAGE, PHONE_PATTERN } from '../../shared/validation';
import { PayerAddressDto } from './payer-request.dto';

export class ListPayersQuery extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Matches first name, last name, email or document number, ignoring case and accents' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  searchTerm?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  merchantId?: string;
}

/** Payer update request (specification). */
export class UpdatePayerDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'The merchant\'s own id for this payer (shown as externalId)' })
  @IsOptional()
  @IsUUID('all')
  merchantExternalId?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @MaxLength(128)
  @IsEmail()
  email?: string;

  @ApiPropertyOptional({ type: PayerAddressDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PayerAddressDto)
  address?: PayerAddressDto;

  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  @Matches(PHONE_PATTERN, { message: PHONE_MESSAGE })
  phone?: string;
}
