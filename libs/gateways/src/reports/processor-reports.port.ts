import { Currency } from '@pcs/kernel';

/** One line of a processor's settlement (release) report, read into our terms. */
export interface ReportLine {
  /** The processor's record type (Mercado Pago: release, initial_available_balance, total, …). */
  readonly recordType: string;
  /** What moved (Mercado Pago: payment, refund, chargeback, payout, …). */
  readonly description: string;
  /** The processor's id of the operation (a payment's). */
  readonly sourceId: string;
  /** Our reference, when the processor carries it (the attempt's id). */
  readonly externalReference: string | null;
  /** When the money was released. */
  readonly date: Date | null;
  readonly currency: Currency | null;
  /** Signed, minor units: a payment positive, a refund negative. */
  readonly gross: number | null;
  /** What the processor charged on it, minor units, positive. */
  readonly fee: number | null;
}

/** A processor's reports (contract §19), behind one port; each provider that publishes reports implements it. */
export abstract class ProcessorReports {
  abstract readonly provider: string;
  /** The merchants connected to this processor (their accounts). */
  abstract merchants(): Promise<string[]>;
  /** The lines of the merchant's report of what was released in [from, to]. */
  abstract releaseLines(merchantId: string, from: Date, to: Date): Promise<ReportLine[]>;
}
