import { Page, PageRequest, TenantScope } from '@pcs/kernel';
import type { EntityManager } from 'typeorm';
import type { Discrepancy, Reconciliation } from './domain/reconciliation';
import type { ReconciliationRun } from './domain/reconciliation-run';

/** Where reconciliation runs are kept (port). */
export abstract class ReconciliationRunRepository {
  abstract start(
    manager: EntityManager,
    run: Pick<ReconciliationRun, 'runId' | 'businessId' | 'merchantId' | 'provider' | 'from' | 'to' | 'createdAt'>,
  ): Promise<void>;
  abstract complete(manager: EntityManager, runId: string, result: Reconciliation, at: Date): Promise<void>;
  abstract fail(manager: EntityManager, runId: string, reason: string, at: Date): Promise<void>;
  abstract find(manager: EntityManager, runId: string): Promise<ReconciliationRun | null>;
  /** The last day of the account's latest COMPLETED window at this provider, or null when none completed. */
  abstract lastCompletedDay(manager: EntityManager, merchantId: string, provider: string): Promise<string | null>;
  /**
   * Earlier runs of the account whose windows lie within [from, to] give up
   * their discrepancies to run `runId` (theirs are deleted, and they name
   * the run that replaced them).
   */
  abstract supersede(manager: EntityManager, runId: string, merchantId: string, provider: string, from: string, to: string): Promise<void>;
  /** Of these discrepancies, those never announced before for the account (now recorded as announced). */
  abstract firstAnnounced(
    manager: EntityManager,
    merchantId: string,
    provider: string,
    discrepancies: readonly Discrepancy[],
    at: Date,
  ): Promise<Discrepancy[]>;
  abstract list(manager: EntityManager, scope: TenantScope, page: PageRequest): Promise<Page<ReconciliationRun>>;
}
