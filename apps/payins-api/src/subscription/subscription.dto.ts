import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BILLING_INTERVALS, INVOICE_STATUSES, SUBSCRIPTION_STATUSES } from '@pcs/billing';
import type { BillingInterval, InvoiceStatus, SubscriptionStatus } from '@pcs/billing';
import { Optional, PageQueryDto } from '@pcs/http';
import { Currency } from '@pcs/kernel';
import {
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { MaxJsonSize } from '../shared/max-json-size.validator';

/** Subscription creation (contract §31). */
export class CreateSubscriptionDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  merchantId: string;

  @ApiProperty({ format: 'uuid', description: 'One of the merchant’s payers' })
  @IsUUID('all')
  payerId: string;

  @ApiProperty({
    format: 'uuid',
    description: 'A saved instrument of that payer, active, whose processor charges off-session (on a test clock: the sandbox)',
  })
  @IsUUID('all')
  paymentInstrumentId: string;

  @ApiProperty({ example: 990, description: 'Each period’s charge, in `currency`; at least the processor’s minimum' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount: number;

  @ApiProperty({ enum: Currency, description: 'One the merchant’s country takes' })
  @IsEnum(Currency)
  currency: Currency;

  @ApiProperty({ enum: BILLING_INTERVALS })
  @IsIn(BILLING_INTERVALS)
  interval: BillingInterval;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 365, example: 1, description: 'Intervals per period (3 with MONTH: quarterly)' })
  @IsInt()
  @Min(1)
  @Max(365)
  intervalCount: number;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    example: '2027-01-31',
    description:
      'The first period’s date (00:00 in the merchant’s time zone), today or later; absent: now. A day a month lacks is that month’s last',
  })
  @Optional()
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  @IsISO8601({ strict: true })
  startDate?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 730,
    description: 'Days of trial: the first charge moves that many days later',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(730)
  trialDays?: number;

  @ApiProperty({ maxLength: 255, example: 'Gym membership' })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  description: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Free-form, at most 4 KiB; card data is refused' })
  @Optional()
  @IsObject()
  @MaxJsonSize(4096)
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ format: 'uuid', description: 'A test clock of the merchant: the subscription lives at its time (sandbox only)' })
  @Optional()
  @IsUUID('all')
  testClockId?: string;
}

/** From the next period: what is sent changes. */
export class UpdateSubscriptionDto {
  @ApiPropertyOptional({ example: 1090, description: 'In the subscription’s currency' })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount?: number;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Another saved instrument of the payer: also tried at once on the open invoices a decline left waiting',
  })
  @Optional()
  @IsUUID('all')
  paymentInstrumentId?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  description?: string;
}

export class CancelSubscriptionDto {
  @ApiPropertyOptional({ default: false, description: 'true: at the end of the current period (nothing more is invoiced); false: now' })
  @Optional()
  @IsBoolean()
  atPeriodEnd?: boolean;
}

export class ListSubscriptionsQuery extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  payerId?: string;

  @ApiPropertyOptional({ enum: SUBSCRIPTION_STATUSES })
  @Optional()
  @IsIn(SUBSCRIPTION_STATUSES)
  status?: SubscriptionStatus;
}

export class ListInvoicesQuery extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  subscriptionId?: string;

  @ApiPropertyOptional({ enum: INVOICE_STATUSES })
  @Optional()
  @IsIn(INVOICE_STATUSES)
  status?: InvoiceStatus;
}

export class CreateTestClockDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  merchantId: string;

  @ApiProperty({ format: 'date-time', example: '2027-01-01T12:00:00Z', description: 'The clock’s time to start with' })
  @IsISO8601({ strict: true })
  frozenTime: string;
}

export class AdvanceTestClockDto {
  @ApiProperty({ format: 'date-time', example: '2027-02-01T12:00:00Z', description: 'Later than the clock’s time, by at most two years' })
  @IsISO8601({ strict: true })
  to: string;
}
