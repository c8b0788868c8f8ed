import { Page, PageRequest, TenantScope, Transaction } from '@pcs/kernel';
import type { Discrepancy, Reconciliation } from './domain/reconciliation';
import type { ReconciliationRun } from './domain/reconciliation-run';

/** Where reconciliation runs are kept (port). */
export abstract class ReconciliationRunRepository {
  abstract start(
    tx: Transaction,
    run: Pick<ReconciliationRun, 'runId' | 'businessId' | 'merchantId' | 'provider' | 'from' | 'to' | 'createdAt'>,
  ): Promise<void>;
  abstract complete(tx: Transaction, runId: string, result: Reconciliation, at: Date): Promise<void>;
  abstract fail(tx: Transaction, runId: string, reason: string, at: Date): Promise<void>;
  abstract find(tx: Transaction, runId: string): Promise<ReconciliationRun | null>;
  /** The last day of the account's latest COMPLETED window at this provider, or null when none completed. */
  abstract lastCompletedDay(tx: Transaction, merchantId: string, provider: string): Promise<string | null>;
  /**
   * Earlier runs of the account whose windows lie within [from, to] give up
   * their discrepancies to run `runId` (theirs are deleted, and they name
   * the run that replaced them).
   */
  abstract supersede(tx: Transaction, runId: string, merchantId: string, provider: string, from: string, to: string): Promise<void>;
  /** Of these discrepancies, those never announced before for the account (now recorded as announced). */
  abstract firstAnnounced(
    tx: Transaction,
    merchantId: string,
    provider: string,
    discrepancies: readonly Discrepancy[],
    at: Date,
  ): Promise<Discrepancy[]>;
  abstract list(tx: Transaction, scope: TenantScope, page: PageRequest): Promise<Page<ReconciliationRun>>;
}
