import { stringify } from 'csv-stringify/sync';

/**
 * One CSV line (RFC 4180, with `csv-stringify`): fields quoted when they hold
 * a comma, a quote or any line break; text a spreadsheet would run as a
 * formula (=, +, -, @, tab or carriage return first) prefixed with a quote
 * mark (OWASP's CSV injection advice). Numbers stay numbers; null and
 * undefined are empty; objects are written as JSON. For every CSV the service
 * hands out: the dashboard's exports and the APIs' `Accept: text/csv` answers.
 */
export function csvLine(values: readonly unknown[]): string {
  return stringify([values.map(csvValue)], { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}

function csvValue(value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
