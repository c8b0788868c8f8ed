import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsOptional, IsUUID } from 'class-validator';

export class MerchantCountryProcessorsQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Required for business credentials with more than one merchant' })
  @IsOptional()
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
  @IsOptional()
  @IsUUID('all')
  merchantId?: string;
}

export class UpdateMerchantCountryProcessorDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Move the relationship to another country processor (onboarding starts over)' })
  @IsOptional()
  @IsUUID('all')
  countryProcessorId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}
