import { Currency, wireAmount } from '@pcs/kernel';

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

/** A finding as the event `reconciliation.discrepancy` carries it (no run yet: `runId` null), in wire amounts. */
export function discrepancyObject(finding: ProcessorFinding) {
  const side = (s: FindingSide | null) =>
    s && {
      externalId: s.externalId,
      amount: s.amount === null || !s.currency ? s.amount : wireAmount(s.amount, s.currency),
      fee: s.fee === null || !s.currency ? s.fee : wireAmount(s.fee, s.currency),
      date: s.date?.toISOString() ?? null,
    };
  return {
    runId: null,
    merchantId: finding.merchantId,
    provider: finding.gateway,
    kind: finding.kind,
    externalId: finding.externalId,
    ours: side(finding.ours),
    theirs: side(finding.theirs),
  };
}
