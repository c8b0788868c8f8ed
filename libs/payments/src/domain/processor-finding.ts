import type { Currency } from '@pcs/kernel';

/** One side of a finding, minor units: our record, or what the processor reported. */
export interface FindingSide {
  /** The processor's id of the operation, or our own where the processor has none. */
  readonly externalId: string | null;
  readonly currency: Currency | null;
  readonly amount: number | null;
  readonly fee: number | null;
  readonly date: Date | null;
}

/**
 * Something a processor did that our records do not allow, found outside a
 * reconciliation run (contract §23): a refund made at the processor beyond
 * what was still refundable here, or of a payment we never saw collected.
 * Announced at once; shown as a discrepancy of the account's next run.
 */
export interface ProcessorFinding {
  readonly findingId: string;
  readonly businessId: string;
  readonly merchantId: string;
  readonly gateway: string;
  readonly kind: 'PROCESSOR_OVER_REFUND';
  /** What the finding is about, unique per gateway and kind (the processor's refund id): found once however often it is heard of. */
  readonly externalId: string;
  readonly ours: FindingSide | null;
  readonly theirs: FindingSide | null;
  readonly foundAt: Date;
}
