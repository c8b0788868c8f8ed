import { csvLine } from '@pcs/pages';
import type { Payin } from './payins-api';

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
  'liquidationSource',
  'fundsFlow',
  'origin',
  'feeAmount',
  'feeTaxAmount',
  'netAmount',
  'installments',
  'installmentAmount',
  'payerTotalAmount',
  'financingFeeAmount',
  'payoutRequestId',
] as const satisfies readonly (keyof Payin)[];

/** One CSV field, as every CSV of the service writes it (`csvLine`: quoted when needed, formulas defused). */
export function csvField(value: unknown): string {
  return csvLine([value]).slice(0, -2);
}

export function csvRow(row: Payin): string {
  return csvLine(CSV_COLUMNS.map((column) => row[column]));
}

export const CSV_HEADER = CSV_COLUMNS.join(',') + '\r\n';
