import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Optional, QueryInteger } from './validation-decorators';
import { IsInt, Max, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, Page, PageRequest, pageCount } from '@pcs/kernel';

/** How many items a page holds, whatever the API names the parameter (contract §7). */
function PageSize(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
    Optional(),
    QueryInteger(),
    IsInt(),
    Min(1),
    Max(MAX_PAGE_SIZE),
  );
}

/** `page`, 1-based, of both APIs (contract §7). */
class PageNumberQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE, default: 1 })
  @Optional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page?: number;
}

/** `page` (1-based) and `limit` of the payins API (contract §7). */
export class PageQueryDto extends PageNumberQueryDto {
  @PageSize()
  limit?: number;

  toPageRequest(): PageRequest {
    return { page: this.page ?? 1, limit: this.limit ?? DEFAULT_PAGE_SIZE };
  }
}

export interface PayinsEnvelope<T> {
  currentPage: string;
  pageSize: string;
  rowCount: number;
  pageCount: number;
  results: T[];
}

/** The payins API's paged body: a JSON array holding one envelope (specification). */
export function payinsEnvelope<T, U>(page: Page<T>, present: (item: T) => U): [PayinsEnvelope<U>] {
  return [
    {
      currentPage: String(page.page),
      pageSize: String(page.limit),
      rowCount: page.total,
      pageCount: pageCount(page.total, page.limit),
      results: page.items.map(present),
    },
  ];
}

/** `page` (1-based) and `pageSize` of the B2B API (contract §7). */
export class B2bPageQueryDto extends PageNumberQueryDto {
  @PageSize()
  pageSize?: number;

  toPageRequest(): PageRequest {
    return { page: this.page ?? 1, limit: this.pageSize ?? DEFAULT_PAGE_SIZE };
  }
}

export interface B2bEnvelope<T> {
  data: T[];
  pagination: { currentPage: number; pageSize: number; totalItems: number; totalPages: number };
}

/** The B2B API's paged body (contract §7). */
export function b2bEnvelope<T, U>(page: Page<T>, present: (item: T) => U): B2bEnvelope<U> {
  return {
    data: page.items.map(present),
    pagination: { currentPage: page.page, pageSize: page.limit, totalItems: page.total, totalPages: pageCount(page.total, page.limit) },
  };
}
