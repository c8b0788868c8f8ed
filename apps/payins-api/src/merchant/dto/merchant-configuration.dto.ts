/*
 * Why one file: every nested shape of operation 7's request, as its OpenAPI schema shows them.
 */
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
import { CARD_TESTING_GUARD_RANGES, DUNNING_LIMITS, PAYOUT_INTERVALS, PAYOUT_WEEKDAYS } from '@pcs/merchants';
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

/** Dunning of subscriptions (contract §31): the fields sent; the others keep their value. */
export class DunningDto {
  @ApiPropertyOptional({
    type: [Number],
    example: [1, 3, 5, 7],
    description: `Days after an invoice's date its soft declines are tried again: at most ${DUNNING_LIMITS.maxRetries}, each 1–${DUNNING_LIMITS.maxDay} and after the one before ([]: never retried)`,
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(DUNNING_LIMITS.maxRetries)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(DUNNING_LIMITS.maxDay, { each: true })
  retryDays?: number[];

  @ApiPropertyOptional({
    enum: ['UNPAID', 'CANCELED'],
    example: 'UNPAID',
    description: 'What a subscription becomes when its last try fails',
  })
  @Optional()
  @IsIn(['UNPAID', 'CANCELED'])
  finalStatus?: 'UNPAID' | 'CANCELED';
}

/** The public pages' card-testing guard (contract §30): the fields sent; the others keep their value. */
export class CardTestingGuardDto {
  @ApiPropertyOptional({ example: true, description: 'Whether the link pay page, the B2B checkout and the sandbox page count and refuse' })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    example: 3,
    description: 'Declines of one card (fingerprint) within the window before it is refused',
  })
  @Optional()
  @IsInt()
  @Min(CARD_TESTING_GUARD_RANGES.maxDeclinesPerCard[0])
  @Max(CARD_TESTING_GUARD_RANGES.maxDeclinesPerCard[1])
  maxDeclinesPerCard?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    example: 10,
    description:
      'Declines from one client address within the window before it is refused; also the declines of one link or checkout (from any address)',
  })
  @Optional()
  @IsInt()
  @Min(CARD_TESTING_GUARD_RANGES.maxDeclinesPerAddress[0])
  @Max(CARD_TESTING_GUARD_RANGES.maxDeclinesPerAddress[1])
  maxDeclinesPerAddress?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 10000,
    example: 30,
    description: 'Attempts started from one client address within the window before it is refused',
  })
  @Optional()
  @IsInt()
  @Min(CARD_TESTING_GUARD_RANGES.maxAttemptsPerAddress[0])
  @Max(CARD_TESTING_GUARD_RANGES.maxAttemptsPerAddress[1])
  maxAttemptsPerAddress?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1440, example: 60, description: 'The window the counts cover, in minutes' })
  @Optional()
  @IsInt()
  @Min(CARD_TESTING_GUARD_RANGES.windowMinutes[0])
  @Max(CARD_TESTING_GUARD_RANGES.windowMinutes[1])
  windowMinutes?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 10080,
    example: 60,
    description: 'How long a card, address or link is refused, in minutes',
  })
  @Optional()
  @IsInt()
  @Min(CARD_TESTING_GUARD_RANGES.blockMinutes[0])
  @Max(CARD_TESTING_GUARD_RANGES.blockMinutes[1])
  blockMinutes?: number;
}

/** A merchant's installments in one country (contract §25). */
export class CountryInstallmentsDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 24, example: 12, description: 'The most installments a payer may choose (1: none)' })
  @IsInt()
  @Min(1)
  @Max(24)
  maxInstallments: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 24,
    example: 6,
    description:
      'Up to how many installments the merchant pays the interest (a financing fee the processor charges it); at most maxInstallments',
  })
  @IsInt()
  @Min(0)
  @Max(24)
  interestFreeUpTo: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number', format: 'decimal' },
    example: { [Currency.ARS]: 5000 },
    description: 'Per currency of the country, the least one installment may be (major units)',
  })
  @Optional()
  @IsObject()
  @IsMinimumAmounts()
  minInstallmentAmount?: Record<string, number>;
}

/** Installments per country; a country not sent offers one installment only. */
export class InstallmentsDto {
  @ApiPropertyOptional({ type: CountryInstallmentsDto })
  @Optional()
  @NestedObject(() => CountryInstallmentsDto)
  URY?: CountryInstallmentsDto;

  @ApiPropertyOptional({ type: CountryInstallmentsDto })
  @Optional()
  @NestedObject(() => CountryInstallmentsDto)
  ARG?: CountryInstallmentsDto;

  @ApiPropertyOptional({ type: CountryInstallmentsDto })
  @Optional()
  @NestedObject(() => CountryInstallmentsDto)
  BRA?: CountryInstallmentsDto;
}

/** One routing rule (contract §26): the attempts it takes and the processors that serve them. */
export class RoutingRuleDto {
  @ApiProperty({ example: 'VISA', description: 'The payment method the rule takes' })
  @IsString()
  @Length(1, 64)
  paymentMethod: string;

  @ApiPropertyOptional({ example: 'URY', description: 'Only attempts in this country (ISO alpha-3)' })
  @Optional()
  @IsString()
  @Length(3, 3)
  country?: string;

  @ApiPropertyOptional({ enum: Currency, description: 'Only attempts in this currency (needed by an amount range)' })
  @Optional()
  @IsString()
  @Length(3, 3)
  currency?: string;

  @ApiPropertyOptional({ type: Number, format: 'decimal', example: 100, description: 'Only attempts of at least this amount' })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  minAmount?: number;

  @ApiPropertyOptional({ type: Number, format: 'decimal', example: 50000, description: 'Only attempts of at most this amount' })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  maxAmount?: number;

  @ApiProperty({
    type: [String],
    example: ['DLOCAL', 'MERCADO_PAGO'],
    description:
      'Processors the merchant is connected to (SANDBOX, MERCADO_PAGO, DLOCAL), each once: tried in order, the next when one is unreachable',
  })
  @IsArray()
  @ArrayMaxSize(5)
  @IsString({ each: true })
  @MaxLength(32, { each: true })
  processors: string[];

  @ApiPropertyOptional({
    type: [Number],
    example: [70, 30],
    description: 'Weights (1–100), one per processor: each attempt goes first to one drawn by weight (deterministic per attempt)',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { each: true })
  split?: number[];
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

  @ApiPropertyOptional({
    type: InstallmentsDto,
    description: 'Installments per country (contract §25); replaces the whole policy when sent',
  })
  @Optional()
  @NestedObject(() => InstallmentsDto)
  installments?: InstallmentsDto;

  @ApiPropertyOptional({
    type: [RoutingRuleDto],
    description: 'Routing rules, first match wins (contract §26); replaces every rule when sent ([] removes them)',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @NestedObjects(() => RoutingRuleDto)
  routing?: RoutingRuleDto[];

  @ApiPropertyOptional({
    type: CardTestingGuardDto,
    description: 'The card-testing guard of the public pages (contract §30); the fields sent change, the others keep their value',
  })
  @Optional()
  @NestedObject(() => CardTestingGuardDto)
  cardTestingGuard?: CardTestingGuardDto;

  @ApiPropertyOptional({
    type: DunningDto,
    description: 'Dunning of subscriptions (contract §31); the fields sent change, the others keep their value',
  })
  @Optional()
  @NestedObject(() => DunningDto)
  dunning?: DunningDto;
}
