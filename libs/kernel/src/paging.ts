export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/**
 * The last page a client may ask for: a million pages of the largest size is
 * an offset of 10^8 rows, far past any listing here, and keeps every offset
 * an integer PostgreSQL's bigint holds (a larger page is a 400, not a 500).
 */
export const MAX_PAGE = 1_000_000;

/** A 1-based page request, already validated by the HTTP layer. */
export interface PageRequest {
  readonly page: number;
  readonly limit: number;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly page: number;
  readonly limit: number;
  readonly total: number;
}

export function pageOffset(request: PageRequest): number {
  return (request.page - 1) * request.limit;
}

export function pageCount(total: number, limit: number): number {
  return Math.ceil(total / limit);
}

export function mapPage<T, U>(page: Page<T>, map: (item: T) => U): Page<U> {
  return { ...page, items: page.items.map(map) };
}
