import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUUID, MaxLength } from 'class-validator';
import { NestedObject, Optional, PageQueryDto } from '@pcs/http';
import { OptionalEmail, OptionalPhone } from '../../shared/validation';
import { PayerAddressDto } from './payer-request.dto';

export class ListPayersQuery extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Matches first name, last name, email or document number, ignoring case and accents' })
  @Optional()
  @IsString()
  @MaxLength(128)
  searchTerm?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;
}

/** Payer update request (specification). */
export class UpdatePayerDto {
  @ApiPropertyOptional({ format: 'uuid', description: "The merchant's own id for this payer (shown as externalId)" })
  @Optional()
  @IsUUID('all')
  merchantExternalId?: string;

  @OptionalEmail()
  email?: string;

  @ApiPropertyOptional({ type: PayerAddressDto })
  @Optional()
  @NestedObject(() => PayerAddressDto)
  address?: PayerAddressDto;

  @OptionalPhone()
  phone?: string;
}
