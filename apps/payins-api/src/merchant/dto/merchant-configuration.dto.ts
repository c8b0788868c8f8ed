import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsEmail, IsNumber, IsString, Length, MaxLength } from 'class-validator';
import { Optional, NestedObjects } from '@pcs/http';

export class MerchantCountryConfigurationDto {
  @ApiProperty({ example: 'URY' })
  @IsString()
  @Length(3, 3)
  countryIsoAlpha3: string;

  @ApiProperty({ example: 22, description: "One of the country's allowed VAT percentages" })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  vatPercentage: number;
}

/** Configuration request (specification). Fields not sent keep their value. */
export class MerchantConfigurationDto {
  @ApiPropertyOptional({ example: 'cafe-centro', description: '3–32 lowercase letters, digits or inner hyphens; unique' })
  @Optional()
  @IsString()
  @MaxLength(32)
  shortName?: string;

  @ApiPropertyOptional({ type: [String], example: ['ops@example.com'] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(10)
  @MaxLength(128, { each: true })
  @IsEmail({}, { each: true })
  notificationEmails?: string[];

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  paymentSuccessNotification?: boolean;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  paymentErrorNotification?: boolean;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  fastPaymentsEnabled?: boolean;

  @ApiPropertyOptional({ type: [MerchantCountryConfigurationDto], description: 'Replaces the whole set when sent' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(10)
  @NestedObjects(() => MerchantCountryConfigurationDto)
  merchantCountryConfigurations?: MerchantCountryConfigurationDto[];
}
