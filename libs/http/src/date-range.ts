import { InvalidRequestError } from '@pcs/kernel';
import { Matches } from 'class-validator';

export const DATE_BOUND = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A list filter's date bound: a date (YYYY-MM-DD, UTC) or an ISO 8601 date-time with a zone. */
export function IsDateBound(): PropertyDecorator {
  return Matches(DATE_BOUND, { message: '$property must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a zone' });
}

/**
 * `dateFrom` and `dateUntil` of a list, both inclusive: a date means from its
 * start, or until its end (UTC). An impossible date or a reversed range is a 400.
 */
export function dateRange(
  dateFrom: string | undefined,
  dateUntil: string | undefined,
  names: readonly [string, string] = ['dateFrom', 'dateUntil'],
): { dateFrom?: Date; dateUntil?: Date } {
  const from = dateBound(names[0], dateFrom, false);
  const until = dateBound(names[1], dateUntil, true);
  if (from && until && from > until) throw new InvalidRequestError([...names], `${names[0]} is after ${names[1]}`);
  return { dateFrom: from, dateUntil: until };
}

function dateBound(field: string, value: string | undefined, end: boolean): Date | undefined {
  if (!value) return undefined;
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : value);
  if (Number.isNaN(date.getTime())) throw new InvalidRequestError([field], `${field} is not a valid date`);
  return date;
}
