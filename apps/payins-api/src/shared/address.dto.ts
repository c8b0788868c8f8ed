import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUUID, MaxLength } from 'class-validator';
import { Optional } from '@pcs/http';

/** Address (specification): every field optional; `country` is the country's uuid. */
export class AddressDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'countryId of a supported country' })
  @Optional()
  @IsUUID('all')
  country?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @Optional()
  @IsString()
  @MaxLength(128)
  state?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @Optional()
  @IsString()
  @MaxLength(128)
  city?: string;

  @ApiPropertyOptional({ maxLength: 256 })
  @Optional()
  @IsString()
  @MaxLength(256)
  street?: string;

  @ApiPropertyOptional({ maxLength: 32 })
  @Optional()
  @IsString()
  @MaxLength(32)
  doorNumber?: string;

  @ApiPropertyOptional({ maxLength: 32 })
  @Optional()
  @IsString()
  @MaxLength(32)
  apartmentNumber?: string;

  @ApiPropertyOptional({ maxLength: 16 })
  @Optional()
  @IsString()
  @MaxLength(16)
  zipCode?: string;
}
