import { ApiProperty } from '@nestjs/swagger';
import { DocumentType } from '@pcs/kernel';
import { AddressDto } from '../shared/address.dto';

export class PayerResponse {
  @ApiProperty({ format: 'uuid' }) payerId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) externalId: string | null;
  @ApiProperty({ type: String, nullable: true }) firstName: string | null;
  @ApiProperty({ type: String, nullable: true }) lastName: string | null;
  @ApiProperty({ enum: DocumentType, nullable: true }) documentType: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Normalised: separators removed' }) documentNumber: string | null;
  @ApiProperty({ type: String, nullable: true }) email: string | null;
  @ApiProperty({ type: String, nullable: true }) phone: string | null;
  @ApiProperty({ type: AddressDto, nullable: true }) address: AddressDto | null;
  @ApiProperty({ format: 'uuid' }) businessId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
}

export class PayerPageResponse {
  @ApiProperty({ example: '1' }) currentPage: string;
  @ApiProperty({ example: '20' }) pageSize: string;
  @ApiProperty({ type: 'integer' }) rowCount: number;
  @ApiProperty({ type: 'integer' }) pageCount: number;
  @ApiProperty({ type: [PayerResponse] }) results: PayerResponse[];
}
