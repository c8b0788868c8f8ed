import { Currency } from '@pcs/kernel';
import type { GatewayNotice } from '../payment-gateway.port';

/** One line of a processor's settlement (release) report, read into our terms. Money in minor units; null where the report has no such column. */
export interface ReportLine {
  /** The processor's record type (Mercado Pago: release, block, unblock, initial_available_balance, total, …). */
  readonly recordType: string;
  /** What moved (Mercado Pago: payment, refund, chargeback, dispute, payout, …). */
  readonly description: string;
  /** The processor's id of the operation (a payment's). */
  readonly sourceId: string;
  /** Our reference, when the processor carries it (the attempt's id). */
  readonly externalReference: string | null;
  /** When the money was released (or held, or given back). */
  readonly date: Date | null;
  readonly currency: Currency | null;
  /** Signed: a payment positive, a refund or a hold negative. */
  readonly gross: number | null;
  /** What the processor charged on it, financing apart, positive. */
  readonly fee: number | null;
  /** The financing fee of an interest-free installment plan, positive. */
  readonly financingFee: number | null;
  /** Taxes the processor withheld (Argentina's withholdings), positive. */
  readonly taxes: number | null;
  /** What the line added to the balance (NET_CREDIT_AMOUNT) or took from it (NET_DEBIT_AMOUNT), positive. */
  readonly netCredit: number | null;
  readonly netDebit: number | null;
}

/** A processor's account connected to a merchant, for its daily reports. */
export interface ReportingAccount {
  readonly merchantId: string;
  /** When the merchant connected it: no report is asked for before that day. */
  readonly connectedAt: Date;
}

/** A processor's reports (contracts §19, §23), behind one port; each provider that publishes reports implements it. */
export abstract class ProcessorReports {
  abstract readonly provider: string;
  /** The merchants connected to this processor (their accounts). */
  abstract accounts(): Promise<ReportingAccount[]>;
  /**
   * The lines of the merchant's report of what was released in [from, to],
   * its amounts read in the report's currency, or `localCurrency` (the
   * account's country's) when the report names none. A report whose amounts
   * cannot be read is refused (thrown), never turned into lines.
   */
  abstract releaseLines(merchantId: string, from: Date, to: Date, localCurrency: Currency): Promise<ReportLine[]>;
}

/**
 * A processor whose reports cannot be fetched by API (dLocal delivers its reports by SFTP or
 * e-mail, set up by its account managers, with no published layout): its daily safety net
 * (contract §28) looks each payment still within its chargeback window up instead, and
 * each case we know of. What it reads is applied exactly as its notification would have been.
 */
export abstract class ProcessorLookups {
  abstract readonly provider: string;
  /** The merchants connected to this processor (their accounts). */
  abstract accounts(): Promise<ReportingAccount[]>;
  /** Our collection `payinId` as the processor tells it now: its outcome and the refunds it lists. */
  abstract payment(merchantId: string, payinId: string): Promise<GatewayNotice>;
  /** A case of this processor we know of (its reference), as the processor tells it now. */
  abstract dispute(merchantId: string, reference: string): Promise<GatewayNotice>;
}

/**
 * What a reconciliation run of a processor reads, as the API documents it: each processor with reports or
 * lookups exports one, and the registration lists them (the run's answer enumerates their providers).
 */
export interface ReconciledProcessor {
  readonly provider: string;
  /** One sentence or two, after "<provider>: " in the run's documentation. */
  readonly reads: string;
}
