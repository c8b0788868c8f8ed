import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import { NestedObject, Optional, NestedObjects } from '@pcs/http';
import { Currency, isCurrency } from '@pcs/kernel';
import { PAYOUT_INTERVALS, PAYOUT_WEEKDAYS } from '@pcs/merchants';
import type { PayoutInterval, PayoutWeekday } from '@pcs/merchants';

/** A map of currency to a finite number (the schedule's minimums, major units); the domain checks each amount. */
function IsMinimumAmounts(): PropertyDecorator {
  return ValidateBy({
    name: 'isMinimumAmounts',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.keys(value).length <= 10 &&
        Object.entries(value).every(([currency, amount]) => isCurrency(currency) && typeof amount === 'number' && Number.isFinite(amount)),
      defaultMessage: () => '$property must map supported currencies to amounts',
    },
  });
}

/** When the merchant's available money is paid out by itself (contract §19). */
export class PayoutScheduleDto {
  @ApiProperty({ enum: PAYOUT_INTERVALS, description: 'MANUAL: only on request; DAILY (the default): every business day' })
  @IsIn(PAYOUT_INTERVALS)
  interval: PayoutInterval;

  @ApiPropertyOptional({ enum: PAYOUT_WEEKDAYS, description: 'WEEKLY only (default MONDAY)' })
  @Optional()
  @IsIn(PAYOUT_WEEKDAYS)
  weeklyAnchor?: PayoutWeekday;

  @ApiPropertyOptional({ minimum: 1, maximum: 31, description: "MONTHLY only (default 1; the month's last day when shorter)" })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(31)
  monthlyAnchor?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number' },
    example: { [Currency.UYU]: 1000 },
    description: 'Per currency, the least a scheduled payout pays (major units); a smaller balance waits',
  })
  @Optional()
  @IsObject()
  @IsMinimumAmounts()
  minimumAmount?: Record<string, number>;
}

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

  @ApiPropertyOptional({ type: PayoutScheduleDto, description: 'Replaces the schedule when sent' })
  @Optional()
  @NestedObject(() => PayoutScheduleDto)
  payoutSchedule?: PayoutScheduleDto;
}
