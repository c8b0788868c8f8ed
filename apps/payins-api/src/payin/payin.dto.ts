import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsNumber, IsUUID, Matches, Min } from 'class-validator';
import { IsDateBound, Optional, PageQueryDto, QueryDecimal } from '@pcs/http';
import { Currency, OrderBy, SortBy, TransactionStatus } from '@pcs/kernel';

export class ListPayinsQuery extends PageQueryDto {
  @ApiPropertyOptional({ enum: TransactionStatus })
  @Optional()
  @IsEnum(TransactionStatus)
  status?: TransactionStatus;

  @ApiPropertyOptional({ enum: Currency })
  @Optional()
  @IsEnum(Currency)
  currency?: Currency;

  @ApiPropertyOptional({ description: 'Major units, inclusive' })
  @Optional()
  @QueryDecimal()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  minAmount?: number;

  @ApiPropertyOptional({ description: 'Major units, inclusive' })
  @Optional()
  @QueryDecimal()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  maxAmount?: number;

  @ApiPropertyOptional({ example: '2026-11-01', description: 'Inclusive; a date means from its start (UTC)' })
  @Optional()
  @IsDateBound()
  dateFrom?: string;

  @ApiPropertyOptional({ example: '2026-11-30', description: 'Inclusive; a date means until its end (UTC)' })
  @Optional()
  @IsDateBound()
  dateUntil?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "One payment intent's rows: its collection attempts and its refunds" })
  @Optional()
  @IsUUID('all')
  paymentIntentId?: string;

  @ApiPropertyOptional({ enum: OrderBy, default: OrderBy.DESC })
  @Optional()
  @IsEnum(OrderBy)
  order?: OrderBy;

  @ApiPropertyOptional({ enum: SortBy, default: SortBy.DATE })
  @Optional()
  @IsEnum(SortBy)
  sort?: SortBy;
}

/** The overview's span: whole UTC days (beyond the specification; the operations dashboard's figures). */
export class PayinSummaryQuery {
  @ApiPropertyOptional({ example: '2026-10-26', description: 'First UTC day, inclusive (default: 29 days before dateUntil)' })
  @Optional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'dateFrom must be a date (YYYY-MM-DD)' })
  dateFrom?: string;

  @ApiPropertyOptional({ example: '2026-11-24', description: 'Last UTC day, inclusive (default: today)' })
  @Optional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'dateUntil must be a date (YYYY-MM-DD)' })
  dateUntil?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;
}
