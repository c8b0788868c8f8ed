import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { Optional, NestedObject } from '@pcs/http';
import { asMerchantId, CountryCode, DocumentType, InvalidRequestError } from '@pcs/kernel';
import type { PayerRequest } from '@pcs/payers';
import { AddressDto } from '../../shared/address.dto';
import { OptionalEmail, OptionalPhone } from '../../shared/validation';

/** A payer's address; `countryId` is accepted as another name for `country` (specification's identification example). */
export class PayerAddressDto extends AddressDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Same as `country`' })
  @Optional()
  @IsUUID('all')
  countryId?: string;
}

/** Payer creation request (specification); reused as `payerData` inside other requests. */
export class PayerRequestDto {
  @ApiPropertyOptional({ maxLength: 128 })
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  firstName?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  lastName?: string;

  @ApiPropertyOptional({ enum: DocumentType })
  @Optional()
  @IsEnum(DocumentType)
  documentType?: DocumentType;

  @ApiPropertyOptional({
    maxLength: 128,
    description:
      'Checked for its type and country: Uruguayan cédula with check digit, Argentine DNI of 7–8 digits, passport of 6–20 letters and digits',
  })
  @Optional()
  @IsString()
  @MaxLength(128)
  document?: string;

  @OptionalEmail()
  email?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Required for business credentials with more than one merchant' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ type: PayerAddressDto })
  @Optional()
  @NestedObject(() => PayerAddressDto)
  address?: PayerAddressDto;

  @OptionalPhone()
  phone?: string;

  @ApiPropertyOptional({ enum: CountryCode, description: "The payer's country; defaults to the merchant's" })
  @Optional()
  @IsEnum(CountryCode)
  country?: CountryCode;

  @ApiPropertyOptional({ maxLength: 256 })
  @Optional()
  @IsString()
  @MaxLength(256)
  deviceFingerprint?: string;
}

/** The DTO as the payers context takes it: `address.countryId` folded into `address.country`. */
export function toPayerRequest(dto: PayerRequestDto, field = 'address'): PayerRequest {
  const { address, merchantId, ...rest } = dto;
  return { ...rest, merchantId: asMerchantId(merchantId), ...(address ? { address: toPayerAddress(address, field) } : {}) };
}

export function toPayerAddress(address: PayerAddressDto, field = 'address'): PayerRequest['address'] {
  const { countryId, ...rest } = address;
  if (countryId && rest.country && countryId !== rest.country) {
    throw new InvalidRequestError([`${field}.countryId`], `${field}.country and ${field}.countryId name different countries`);
  }
  return { ...rest, ...(countryId || rest.country ? { country: rest.country ?? countryId } : {}) };
}
