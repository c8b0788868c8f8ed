import { Injectable } from '@nestjs/common';
import { currencyExponent, decimalToScaledInteger, isCurrency } from '@pcs/kernel';
import { parse } from 'csv-parse/sync';
import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import { ProcessorReports, ReportLine } from '@pcs/gateways';
import { MercadoPagoRequestError, ReleaseReportEntry } from './mercado-pago.client';
import { MERCADO_PAGO } from './mercado-pago-account';
import { MercadoPagoGateway } from './mercado-pago.gateway';

/** How long a report may take to be ready, and how often it is looked for meanwhile. */
const READY_WITHIN_MS = 120_000;
const FIRST_LOOK_MS = 250;

/** The columns a reconciliation needs (Mercado Pago's glossary); the report's configuration may hold more, in any order. */
const REQUIRED = ['DATE', 'SOURCE_ID', 'EXTERNAL_REFERENCE', 'RECORD_TYPE', 'DESCRIPTION', 'GROSS_AMOUNT', 'MP_FEE_AMOUNT'] as const;

/**
 * Mercado Pago's release report ("Liberaciones"), as its documentation has
 * it: `POST /v1/account/release_report` with `begin_date` and `end_date`
 * (UTC), then `GET /v1/account/release_report/list` until the report is
 * there with its `file_name`, then `GET /v1/account/release_report/:file_name`,
 * a CSV whose columns are named in its header (DATE, SOURCE_ID,
 * EXTERNAL_REFERENCE, RECORD_TYPE, DESCRIPTION, GROSS_AMOUNT, MP_FEE_AMOUNT,
 * …; comma or semicolon separated, as the account configured). Amounts are
 * decimals in the account's currency, read into minor units exactly.
 */
@Injectable()
export class MercadoPagoReleaseReports extends ProcessorReports {
  readonly provider = MERCADO_PAGO;

  constructor(
    private readonly accounts: GatewayAccounts,
    private readonly gateway: MercadoPagoGateway,
  ) {
    super();
  }

  merchants(): Promise<string[]> {
    return this.accounts.merchantsOf(MERCADO_PAGO);
  }

  async releaseLines(merchantId: string, from: Date, to: Date): Promise<ReportLine[]> {
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
    return readReleaseReport(await client.downloadReleaseReport(entry.file_name), entry.currency_id ?? asked.currency_id ?? null);
  }
}

/** Mercado Pago's format for report bounds: UTC to the second, `Z`. */
function utcSeconds(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

/** A release report's CSV as lines; one without the columns a reconciliation needs is refused, naming them. */
export function readReleaseReport(csv: string, currencyId: string | null): ReportLine[] {
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
  const currency = currencyId && isCurrency(currencyId) ? currencyId : null;
  const amount = (text: string | undefined): number | null => {
    if (!text || !currency) return null;
    const value = Number(text.replace(/\s/g, ''));
    return Number.isFinite(value) ? decimalToScaledInteger(value, currencyExponent(currency)) : null;
  };
  return rows.map((row) => {
    const fee = amount(row.MP_FEE_AMOUNT);
    const date = row.DATE ? new Date(row.DATE) : null;
    return {
      recordType: row.RECORD_TYPE ?? '',
      description: row.DESCRIPTION ?? '',
      sourceId: row.SOURCE_ID ?? '',
      externalReference: row.EXTERNAL_REFERENCE ? row.EXTERNAL_REFERENCE : null,
      date: date && !Number.isNaN(date.getTime()) ? date : null,
      currency,
      gross: amount(row.GROSS_AMOUNT),
      // Mercado Pago writes what it charged as a negative amount.
      fee: fee === null ? null : Math.abs(fee),
    };
  });
}
