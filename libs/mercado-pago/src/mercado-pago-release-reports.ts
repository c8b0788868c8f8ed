import { Injectable } from '@nestjs/common';
import { Currency, currencyExponent, decimalToScaledInteger, isCurrency } from '@pcs/kernel';
import { parse } from 'csv-parse/sync';
import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import { ProcessorReports, ReconciledProcessor, ReportingAccount, ReportLine } from '@pcs/gateways';
import { MercadoPagoRequestError, ReleaseReportEntry } from './mercado-pago.client';
import { MERCADO_PAGO } from './mercado-pago-account';
import { MercadoPagoGateway } from './mercado-pago.gateway';

/** How long a report may take to be ready, and how often it is looked for meanwhile. */
const READY_WITHIN_MS = 120_000;
const FIRST_LOOK_MS = 250;

/** The columns a reconciliation needs (Mercado Pago's glossary); the report's configuration may hold more, in any order. */
const REQUIRED = ['DATE', 'SOURCE_ID', 'EXTERNAL_REFERENCE', 'RECORD_TYPE', 'DESCRIPTION', 'GROSS_AMOUNT', 'MP_FEE_AMOUNT'] as const;

/** Record types whose lines carry money of an operation (the balance lines and totals carry none of their own). */
const MOVEMENTS = new Set(['release', 'block', 'unblock', 'fullblock']);

/** What its reconciliation run reads (the run's answer documents it). */
export const MERCADO_PAGO_RECONCILIATION: ReconciledProcessor = {
  provider: MERCADO_PAGO,
  reads: 'its release report of the window compared with our records.',
};

/**
 * Mercado Pago's release report ("Liberaciones"), as its documentation has
 * it: `POST /v1/account/release_report` with `begin_date` and `end_date`
 * (UTC), then `GET /v1/account/release_report/list` until the report is
 * there with its `file_name`, then `GET /v1/account/release_report/:file_name`,
 * a CSV whose columns are named in its header (DATE, SOURCE_ID,
 * EXTERNAL_REFERENCE, RECORD_TYPE, DESCRIPTION, GROSS_AMOUNT, MP_FEE_AMOUNT,
 * FINANCING_FEE_AMOUNT, TAXES_AMOUNT, NET_CREDIT_AMOUNT, NET_DEBIT_AMOUNT,
 * …; comma or semicolon separated, as the account configured). Amounts are
 * decimals in the account's currency — the list's `currency_id` where it
 * names one, otherwise the account's country's ("Currency: local, based on
 * the country where the account is registered"; contract §23) — read into
 * minor units exactly.
 */
@Injectable()
export class MercadoPagoReleaseReports extends ProcessorReports {
  readonly provider = MERCADO_PAGO;

  constructor(
    private readonly gatewayAccounts: GatewayAccounts,
    private readonly gateway: MercadoPagoGateway,
  ) {
    super();
  }

  async accounts(): Promise<ReportingAccount[]> {
    return (await this.gatewayAccounts.accountsOf(MERCADO_PAGO)).map((a) => ({ merchantId: a.merchantId, connectedAt: a.createdAt }));
  }

  async releaseLines(merchantId: string, from: Date, to: Date, localCurrency: Currency): Promise<ReportLine[]> {
    const client = await this.gateway.clientOf(merchantId);
    const begin = utcSeconds(from);
    const end = utcSeconds(to);
    const asked = await client.createReleaseReport(begin, end);
    const deadline = Date.now() + READY_WITHIN_MS;
    let entry: ReleaseReportEntry | undefined;
    for (let pause = FIRST_LOOK_MS; ; pause = Math.min(pause * 2, 5_000)) {
      const listed = await client.listReleaseReports();
      entry =
        listed.find((r) => r.id === asked.id) ??
        listed.find((r) => r.begin_date === asked.begin_date && r.end_date === asked.end_date && r.file_name);
      if (entry?.file_name && (entry.status ?? 'processed') === 'processed') break;
      if (Date.now() + pause > deadline)
        throw new MercadoPagoRequestError('release_report', null, `the report was not ready within ${READY_WITHIN_MS / 1000} s`);
      await sleep(pause);
    }
    const named = entry.currency_id ?? asked.currency_id ?? null;
    if (named !== null && !isCurrency(named)) throw new Error(`the release report is in ${named}, a currency this service does not keep`);
    return readReleaseReport(await client.downloadReleaseReport(entry.file_name), named ?? localCurrency);
  }
}

/** Mercado Pago's format for report bounds: UTC to the second, `Z`. */
function utcSeconds(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

/** A decimal as a report writes it (a point or, in semicolon-separated files, a comma), or null when it is no such number. */
function decimalOf(text: string): number | null {
  const compact = text.replace(/\s/g, '');
  if (!/^-?\d+([.,]\d+)?$/.test(compact)) return null;
  return Number(compact.replace(',', '.'));
}

/**
 * A release report's CSV as lines, every amount in `currency`'s minor units.
 * One without the columns a reconciliation needs is refused, naming them;
 * one with an amount that cannot be read exactly (not a number, more
 * decimals than the currency has) is refused, naming the line and column:
 * a run that cannot read the money fails rather than report every line as a
 * mismatch.
 */
export function readReleaseReport(csv: string, currency: Currency): ReportLine[] {
  const firstLine = csv.slice(0, csv.indexOf('\n') === -1 ? csv.length : csv.indexOf('\n'));
  const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
  const rows: Record<string, string>[] = parse(csv, {
    columns: true,
    delimiter,
    skip_empty_lines: true,
    trim: true,
    bom: true,
    relax_column_count: true,
  });
  const header = rows.length > 0 ? Object.keys(rows[0]) : firstLine.split(delimiter).map((h) => h.trim());
  const missing = REQUIRED.filter((column) => !header.includes(column));
  if (missing.length > 0)
    throw new Error(`the release report has no ${missing.join(', ')} column(s): add them to the report's configuration`);
  const exponent = currencyExponent(currency);
  return rows.map((row, index) => {
    const recordType = row.RECORD_TYPE ?? '';
    const amount = (column: string, required = false): number | null => {
      const text = row[column];
      if (text === undefined || text.trim() === '') {
        if (required && MOVEMENTS.has(recordType))
          throw new Error(`the release report's line ${index + 2} (${recordType}) has no ${column}`);
        return null;
      }
      const value = decimalOf(text);
      const minor = value === null ? null : decimalToScaledInteger(value, exponent);
      if (minor === null)
        throw new Error(`the release report's ${column} on line ${index + 2} ("${text.slice(0, 32)}") is not an amount in ${currency}`);
      return minor;
    };
    // Mercado Pago writes what it charged or withheld as negative amounts.
    const charged = (column: string) => {
      const value = amount(column);
      return value === null ? null : Math.abs(value);
    };
    const date = row.DATE ? new Date(row.DATE) : null;
    return {
      recordType,
      description: row.DESCRIPTION ?? '',
      sourceId: row.SOURCE_ID ?? '',
      externalReference: row.EXTERNAL_REFERENCE ? row.EXTERNAL_REFERENCE : null,
      date: date && !Number.isNaN(date.getTime()) ? date : null,
      currency,
      gross: amount('GROSS_AMOUNT', true),
      fee: charged('MP_FEE_AMOUNT'),
      financingFee: charged('FINANCING_FEE_AMOUNT'),
      taxes: charged('TAXES_AMOUNT'),
      netCredit: amount('NET_CREDIT_AMOUNT'),
      netDebit: amount('NET_DEBIT_AMOUNT'),
    };
  });
}
