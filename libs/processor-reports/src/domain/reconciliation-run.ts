import type { Discrepancy } from './reconciliation';

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
  readonly createdAt: Date;
  readonly finishedAt: Date | null;
}
