import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsEmail, IsNumber, IsOptional, IsString, Length, MaxLength, ValidateNested } from 'class-validator';

export class MerchantCountryConfigurationDto {
  @ApiProperty({ example: 'URY' })
  @IsString()
  @Length(3, 3)
  countryIsoAlpha3: string;

  @ApiProperty({ example: 22, description: 'One of the country\'s allowed VAT percentages' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  vatPercentage: number;
}

/** Configuration request (specification). Fields not sent keep their value. */
export class MerchantConfigurationDto {
  @ApiPropertyOptional({ example: 'cafe-centro', description: '3–32 lowercase letters, digits or inner hyphens; unique' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  shortName?: string;

  @ApiPropertyOptional({ type: [String], example: ['ops@example.com'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @MaxLength(128, { each: true })
  @IsEmail({}, { each: true })
  notificationEmails?: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  paymentSuccessNotification?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  paymentErrorNotification?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  fastPaymentsEnabled?: boolean;

  @ApiPropertyOptional({ type: [MerchantCountryConfigurationDto], description: 'Replaces the whole set when sent' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => MerchantCountryConfigurationDto)
  merchantCountryConfigurations?: MerchantCountryConfigurationDto[];
}
