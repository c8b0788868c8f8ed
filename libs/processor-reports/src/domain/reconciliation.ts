import type { ReportLine } from '@pcs/gateways';
import type { Currency } from '@pcs/kernel';
import type { PayinProps } from '@pcs/payins';

export const DISCREPANCY_KINDS = ['AMOUNT_MISMATCH', 'FEE_MISMATCH', 'MISSING_HERE', 'MISSING_THERE'] as const;
export type DiscrepancyKind = (typeof DISCREPANCY_KINDS)[number];

/** One side of a discrepancy, minor units: our record, or the report's line. */
export interface Side {
  /** The processor's id of the operation (our record's gateway reference; the line's SOURCE_ID). */
  readonly externalId: string | null;
  readonly currency: Currency | null;
  readonly amount: number | null;
  readonly fee: number | null;
  readonly date: Date | null;
}

export interface Discrepancy {
  readonly kind: DiscrepancyKind;
  /** Our reference of the operation (the attempt's or refund's transactionId), or the report's when we have none. */
  readonly externalId: string;
  readonly ours: Side | null;
  readonly theirs: Side | null;
}

export interface Reconciliation {
  readonly matched: number;
  /** Lines of other record types, listed and not compared (balances, totals, payouts, disputes…). */
  readonly ignored: number;
  readonly discrepancies: readonly Discrepancy[];
}

type Record = Readonly<PayinProps>;

const theirs = (line: ReportLine): Side => ({
  externalId: line.sourceId,
  currency: line.currency,
  amount: line.gross,
  fee: line.fee,
  date: line.date,
});
const ours = (record: Record): Side => ({
  externalId: record.externalId,
  currency: record.currency,
  amount: record.transactionType === 'REFUND' ? -record.amount : record.receivedAmount,
  fee: record.transactionType === 'REFUND' ? 0 : record.processorFeeAmount,
  date: record.liquidationDate,
});

/**
 * Reconciles a processor's report with our records (contract §19): each
 * payment and refund line of the report is matched with our record by our
 * reference (EXTERNAL_REFERENCE, the attempt's id) and the processor's
 * (SOURCE_ID), whatever its date, and counts once: matched, or a discrepancy
 * — its gross differs (AMOUNT_MISMATCH), its fee differs from the one the
 * processor reported to us (FEE_MISMATCH), or we have no such record
 * (MISSING_HERE). A record of ours released in the window that no line names
 * is MISSING_THERE. Other lines are listed and not compared. Nothing here
 * moves money: a discrepancy is shown, never booked.
 */
export function reconcile(lines: readonly ReportLine[], records: readonly Record[], window: { from: Date; to: Date }): Reconciliation {
  const charges = records.filter((r) => r.transactionType === 'PAYIN');
  const refunds = records.filter((r) => r.transactionType === 'REFUND');
  const used = new Set<string>();
  const discrepancies: Discrepancy[] = [];
  let matched = 0;
  let ignored = 0;
  const chargeOf = (line: ReportLine): Record | undefined =>
    charges.find((c) => line.externalReference !== null && c.transactionId === line.externalReference) ??
    charges.find((c) => c.externalId !== null && c.externalId === line.sourceId);

  for (const line of lines) {
    const kind = line.recordType === 'release' ? line.description : null;
    if (kind !== 'payment' && kind !== 'refund') {
      ignored += 1;
      continue;
    }
    const charge = chargeOf(line);
    if (kind === 'payment') {
      if (!charge || used.has(charge.transactionId)) {
        discrepancies.push({ kind: 'MISSING_HERE', externalId: line.externalReference ?? line.sourceId, ours: null, theirs: theirs(line) });
        continue;
      }
      used.add(charge.transactionId);
      const mine = ours(charge);
      if (line.gross !== mine.amount)
        discrepancies.push({ kind: 'AMOUNT_MISMATCH', externalId: charge.transactionId, ours: mine, theirs: theirs(line) });
      else if (line.fee !== null && mine.fee !== null && line.fee !== mine.fee)
        discrepancies.push({ kind: 'FEE_MISMATCH', externalId: charge.transactionId, ours: mine, theirs: theirs(line) });
      else matched += 1;
      continue;
    }
    // A refund line names the payment it went back through: one of that intent's refunds, of the same amount if any.
    const candidates = charge ? refunds.filter((r) => r.paymentIntentId === charge.paymentIntentId && !used.has(r.transactionId)) : [];
    const refund = candidates.find((r) => ours(r).amount === line.gross) ?? candidates[0];
    if (!refund) {
      discrepancies.push({ kind: 'MISSING_HERE', externalId: line.externalReference ?? line.sourceId, ours: null, theirs: theirs(line) });
      continue;
    }
    used.add(refund.transactionId);
    if (ours(refund).amount !== line.gross)
      discrepancies.push({ kind: 'AMOUNT_MISMATCH', externalId: refund.transactionId, ours: ours(refund), theirs: theirs(line) });
    else matched += 1;
  }

  for (const record of records) {
    const released = record.liquidationDate !== null && record.liquidationDate >= window.from && record.liquidationDate < window.to;
    if (released && !used.has(record.transactionId))
      discrepancies.push({ kind: 'MISSING_THERE', externalId: record.transactionId, ours: ours(record), theirs: null });
  }
  return { matched, ignored, discrepancies };
}
