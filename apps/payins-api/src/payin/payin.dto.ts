import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum, IsNumber, IsUUID, Matches, Min } from 'class-validator';
import { Optional, PageQueryDto } from '@pcs/http';
import { Currency, OrderBy, SortBy, TransactionStatus } from '@pcs/kernel';

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const DATE_MESSAGE = '$property must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a zone';

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
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  minAmount?: number;

  @ApiPropertyOptional({ description: 'Major units, inclusive' })
  @Optional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  maxAmount?: number;

  @ApiPropertyOptional({ example: '2026-11-01', description: 'Inclusive; a date means from its start (UTC)' })
  @Optional()
  @Matches(DATE, { message: DATE_MESSAGE })
  dateFrom?: string;

  @ApiPropertyOptional({ example: '2026-11-30', description: 'Inclusive; a date means until its end (UTC)' })
  @Optional()
  @Matches(DATE, { message: DATE_MESSAGE })
  dateUntil?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ enum: OrderBy, default: OrderBy.DESC })
  @Optional()
  @IsEnum(OrderBy)
  order?: OrderBy;

  @ApiPropertyOptional({ enum: SortBy, default: SortBy.DATE })
  @Optional()
  @IsEnum(SortBy)
  sort?: SortBy;
}
