import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { PageQueryDto } from '@pcs/http';
import { OptionalEmail, OptionalPhone } from '../../shared/validation';
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

  @OptionalEmail()
  email?: string;

  @ApiPropertyOptional({ type: PayerAddressDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PayerAddressDto)
  address?: PayerAddressDto;

  @OptionalPhone()
  phone?: string;
}
