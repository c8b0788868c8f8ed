import type { Payin } from './payins';

/** The export's columns: the ledger row as the API gives it (operation 36), amounts in major units with a dot. */
export const CSV_COLUMNS = [
  'transactionId',
  'paymentIntentId',
  'createdAt',
  'merchantId',
  'merchantName',
  'transactionType',
  'conceptCode',
  'status',
  'currency',
  'amount',
  'externalId',
  'liquidationDate',
] as const satisfies readonly (keyof Payin)[];

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line
 * break; and text that a spreadsheet would run as a formula (=, +, -, @, tab,
 * carriage return first) is prefixed with a quote mark (OWASP's CSV injection
 * advice). Numbers are written as numbers.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(row: Payin): string {
  return CSV_COLUMNS.map((column) => csvField(row[column])).join(',') + '\r\n';
}

export const CSV_HEADER = CSV_COLUMNS.join(',') + '\r\n';
