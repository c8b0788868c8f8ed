import { ApiProperty } from '@nestjs/swagger';
import { Currency } from '@pcs/kernel';
import { CountryProcessorResponse } from '../catalog/catalog.responses';

export class LinkCountryProcessorResponse {
  @ApiProperty({ format: 'uuid' }) linkCountryProcessorId: string;
  @ApiProperty({ format: 'uuid' }) linkId: string;
  @ApiProperty({ format: 'uuid' }) countryProcessorId: string;
  @ApiProperty({ type: CountryProcessorResponse }) countryProcessor: CountryProcessorResponse;
}

/** The specification's Link, plus reference, status and url (contract §12). */
export class LinkResponse {
  @ApiProperty({ format: 'uuid' }) linkId: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ example: 1220, format: 'decimal' }) amount: number;
  @ApiProperty({ example: 22 }) vatPercentage: number;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ format: 'uuid' }) countryId: string;
  @ApiProperty({ format: 'date-time' }) expirationDate: string;
  @ApiProperty() used: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) paymentIntentId: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) usedAt: string | null;
  @ApiProperty({ type: [LinkCountryProcessorResponse] }) linkCountryProcessors: LinkCountryProcessorResponse[];
  @ApiProperty({ type: String, nullable: true, maxLength: 128 }) reference: string | null;
  @ApiProperty({ enum: ['ACTIVE', 'USED', 'EXPIRED'] }) status: string;
  @ApiProperty({ format: 'uri', description: "The link's hosted pay page; clients must not build it" }) url: string;
}

export class LinkDeletedResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ format: 'uuid' }) linkId: string;
}

export class LinkSharedResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ format: 'uuid' }) linkId: string;
}
