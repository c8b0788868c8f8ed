import type { Discrepancy, ReportTotals } from './reconciliation';

export type RunStatus = 'RUNNING' | 'COMPLETED' | 'FAILED';

/** One reconciliation of a merchant's report with our records over a window of local dates (contract §19). */
export interface ReconciliationRun {
  readonly runId: string;
  readonly businessId: string;
  readonly merchantId: string;
  readonly provider: string;
  /** Inclusive local dates (the merchant's country's), read as the report's release dates. */
  readonly from: string;
  readonly to: string;
  readonly status: RunStatus;
  readonly matched: number;
  readonly ignored: number;
  readonly failureReason: string | null;
  readonly discrepancies: readonly Discrepancy[];
  /** What the window's report lines add up to, per money column (null until completed). */
  readonly totals: ReportTotals | null;
  /** A later run of a window containing this one's replaced its discrepancies (they are that run's now). */
  readonly supersededBy: string | null;
  readonly createdAt: Date;
  readonly finishedAt: Date | null;
}
