import type { ReportLine } from '@pcs/gateways';
import type { Currency, DisputeStatus } from '@pcs/kernel';
import type { PayinProps } from '@pcs/payments';

export const DISCREPANCY_KINDS = [
  'AMOUNT_MISMATCH',
  'FEE_MISMATCH',
  'MISSING_HERE',
  'MISSING_THERE',
  'PROCESSOR_OVER_REFUND',
  'DISPUTE_MISMATCH',
] as const;
export type DiscrepancyKind = (typeof DISCREPANCY_KINDS)[number];

/**
 * One side of a discrepancy, minor units: our record, or the report's line.
 * `amount` is the gross (signed: a payment positive, a refund negative);
 * the line's other money columns are there when the report has them.
 */
export interface Side {
  /** The processor's id of the operation (our record's gateway reference; the line's SOURCE_ID). */
  readonly externalId: string | null;
  readonly currency: Currency | null;
  readonly amount: number | null;
  /** The processor's own fee, financing apart (MP_FEE_AMOUNT; ours: the fee the processor told us). */
  readonly fee: number | null;
  readonly date: Date | null;
  /** The processor's financing fee (FINANCING_FEE_AMOUNT). */
  readonly financingFee?: number | null;
  /** Taxes the processor withheld (TAXES_AMOUNT: Argentina's withholdings). */
  readonly taxes?: number | null;
  readonly netCredit?: number | null;
  readonly netDebit?: number | null;
}

export interface Discrepancy {
  readonly kind: DiscrepancyKind;
  /** Our reference of the operation (the attempt's, refund's or dispute's id), or the report's when we have none. */
  readonly externalId: string;
  readonly ours: Side | null;
  readonly theirs: Side | null;
}

/** What a window's lines add up to, per money column, minor units (contract §23: `totals`). */
export interface ReportTotals {
  /** The report's currency (null for a report with no line of money). */
  readonly currency: Currency | null;
  readonly gross: number;
  readonly fee: number;
  readonly financingFee: number;
  readonly taxes: number;
  readonly netCredit: number;
  readonly netDebit: number;
}

export interface Reconciliation {
  readonly matched: number;
  /** Lines of other record types, listed and not compared (balances, totals, payouts, reserves…). */
  readonly ignored: number;
  readonly discrepancies: readonly Discrepancy[];
  /** The report's totals; null for a run of lookups (a processor whose report is not read). */
  readonly totals: ReportTotals | null;
}

/** A dispute of ours, as reconciliation compares it with the report's holds. */
export interface DisputeRecord {
  readonly disputeId: string;
  /** The collection it takes back (the ledger's payin). */
  readonly chargeId: string;
  readonly status: DisputeStatus;
  /** Minor units. */
  readonly amount: number;
  readonly currency: Currency;
}

type Record = Readonly<PayinProps>;

/** Descriptions of block, unblock and release lines that are a dispute's (a chargeback, or a claim in mediation). */
const DISPUTE_DESCRIPTIONS = new Set(['chargeback', 'dispute', 'mediation']);

export const theirs = (line: ReportLine): Side => ({
  externalId: line.sourceId,
  currency: line.currency,
  amount: line.gross,
  fee: line.fee,
  date: line.date,
  financingFee: line.financingFee,
  taxes: line.taxes,
  netCredit: line.netCredit,
  netDebit: line.netDebit,
});
const ours = (record: Record): Side => ({
  externalId: record.externalId,
  currency: record.currency,
  amount: record.transactionType === 'REFUND' ? -record.amount : record.receivedAmount,
  fee: record.transactionType === 'REFUND' ? 0 : record.processorFeeAmount,
  date: record.liquidationDate,
  financingFee: record.transactionType === 'REFUND' ? 0 : record.processorFinancingFeeAmount,
});
const ourDispute = (dispute: DisputeRecord): Side => ({
  externalId: dispute.disputeId,
  currency: dispute.currency,
  amount: -dispute.amount,
  fee: null,
  date: null,
});

/** The window's totals of each money column, lines of every record type but the report's own subtotals and total. */
export function totalsOf(lines: readonly ReportLine[]): ReportTotals {
  const counted = lines.filter((line) => line.recordType !== 'total' && line.recordType !== 'subtotal');
  const sum = (pick: (line: ReportLine) => number | null) => counted.reduce((total, line) => total + (pick(line) ?? 0), 0);
  return {
    currency: counted.find((l) => l.currency !== null)?.currency ?? null,
    gross: sum((l) => l.gross),
    fee: sum((l) => l.fee),
    financingFee: sum((l) => l.financingFee),
    taxes: sum((l) => l.taxes),
    netCredit: sum((l) => l.netCredit),
    netDebit: sum((l) => l.netDebit),
  };
}

/**
 * Reconciles a processor's report with our records (contracts §19, §23).
 * Each payment and refund `release` line is matched with our record by our
 * reference (EXTERNAL_REFERENCE, the attempt's id) and the processor's
 * (SOURCE_ID), whatever its date, and counts once: matched, or a
 * discrepancy — its gross differs (AMOUNT_MISMATCH), the processor's fee
 * (financing apart) or its financing fee differs from what the processor told
 * us (FEE_MISMATCH), or we have no such record (MISSING_HERE). Money held or
 * taken for a chargeback or a claim (`block`, `unblock`, and chargeback
 * releases) is compared with our disputes of that collection: none is
 * MISSING_HERE; a hold of another amount, money given back while ours is not
 * won, or taken for good while ours is won, is DISPUTE_MISMATCH. A record of
 * ours the processor released in the window (its release date, which we
 * hold where the processor told it) that no line names is MISSING_THERE.
 * Other lines are listed and not compared. Nothing here moves money.
 */
export function reconcile(
  lines: readonly ReportLine[],
  records: readonly Record[],
  window: { from: Date; to: Date },
  disputes: readonly DisputeRecord[] = [],
): Reconciliation {
  const charges = records.filter((r) => r.transactionType === 'PAYIN');
  const refunds = records.filter((r) => r.transactionType === 'REFUND');
  const used = new Set<string>();
  const discrepancies: Discrepancy[] = [];
  let matched = 0;
  let ignored = 0;
  const chargeOf = (line: ReportLine): Record | undefined =>
    charges.find((c) => line.externalReference !== null && c.transactionId === line.externalReference) ??
    charges.find((c) => c.externalId !== null && c.externalId === line.sourceId);
  const missingHere = (line: ReportLine) =>
    discrepancies.push({ kind: 'MISSING_HERE', externalId: line.externalReference ?? line.sourceId, ours: null, theirs: theirs(line) });

  for (const line of lines) {
    const isDisputeLine =
      DISPUTE_DESCRIPTIONS.has(line.description) &&
      (line.recordType === 'block' || line.recordType === 'unblock' || line.recordType === 'release');
    if (isDisputeLine) {
      const charge = chargeOf(line);
      const dispute = charge ? disputes.find((d) => d.chargeId === charge.transactionId) : undefined;
      const settled = dispute !== undefined && refunds.some((r) => r.settlesDisputeId === dispute.disputeId);
      if (!dispute) missingHere(line);
      else if (disputeAgrees(line, dispute, settled)) matched += 1;
      else discrepancies.push({ kind: 'DISPUTE_MISMATCH', externalId: dispute.disputeId, ours: ourDispute(dispute), theirs: theirs(line) });
      continue;
    }
    const kind = line.recordType === 'release' ? line.description : null;
    if (kind !== 'payment' && kind !== 'refund') {
      ignored += 1;
      continue;
    }
    const charge = chargeOf(line);
    if (kind === 'payment') {
      if (!charge || used.has(charge.transactionId)) {
        missingHere(line);
        continue;
      }
      used.add(charge.transactionId);
      const mine = ours(charge);
      if (line.gross !== mine.amount)
        discrepancies.push({ kind: 'AMOUNT_MISMATCH', externalId: charge.transactionId, ours: mine, theirs: theirs(line) });
      else if (!feesAgree(line, mine))
        discrepancies.push({ kind: 'FEE_MISMATCH', externalId: charge.transactionId, ours: mine, theirs: theirs(line) });
      else matched += 1;
      continue;
    }
    // A refund line names the payment it went back through: one of that intent's refunds, of the same amount if any.
    const candidates = charge ? refunds.filter((r) => r.paymentIntentId === charge.paymentIntentId && !used.has(r.transactionId)) : [];
    const refund = candidates.find((r) => ours(r).amount === line.gross) ?? candidates[0];
    if (!refund) {
      missingHere(line);
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
  return { matched, ignored, discrepancies, totals: totalsOf(lines) };
}

/** The processor's fee, financing apart, and its financing fee, each where both sides know it. */
function feesAgree(line: ReportLine, mine: Side): boolean {
  if (line.fee !== null && mine.fee !== null && line.fee !== mine.fee) return false;
  // A financing fee the report shows that we were never told of (or another) is a difference; none on either side agrees.
  return line.financingFee === null || line.financingFee === (mine.financingFee ?? 0);
}

/**
 * Whether a dispute line agrees with our dispute of that collection: a hold
 * (`block`) of its amount; money given back (`unblock`) of a dispute we hold
 * won, or of a lost claim the processor ended with a refund (`settled`: the
 * money leaves again as that refund's line); money taken for good (a
 * chargeback or mediation `release`) of one not won.
 */
function disputeAgrees(line: ReportLine, dispute: DisputeRecord, settled: boolean): boolean {
  if (line.recordType === 'block') return line.gross === null || Math.abs(line.gross) === dispute.amount;
  if (line.recordType === 'unblock') return dispute.status === 'WON' || settled;
  return dispute.status !== 'WON';
}
