import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsUUID } from 'class-validator';
import { Optional } from '@pcs/http';

export class MerchantCountryProcessorsQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Required for business credentials with more than one merchant' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;
}

export class RelateCountryProcessorsDto {
  @ApiProperty({ type: [String], format: 'uuid' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  countryProcessorsId: string[];

  @ApiPropertyOptional({ format: 'uuid', description: 'Required for business credentials with more than one merchant' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;
}

export class UpdateMerchantCountryProcessorDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Move the relationship to another country processor (onboarding starts over)' })
  @Optional()
  @IsUUID('all')
  countryProcessorId?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  active?: boolean;
}
