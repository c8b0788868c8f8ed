import { Page, PageRequest, TenantScope } from '@pcs/kernel';
import type { EntityManager } from 'typeorm';
import type { Reconciliation } from './domain/reconciliation';
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
  /** Whether a run of the merchant's report at this provider for exactly this day completed already. */
  abstract completedFor(manager: EntityManager, merchantId: string, provider: string, day: string): Promise<boolean>;
  abstract list(manager: EntityManager, scope: TenantScope, page: PageRequest): Promise<Page<ReconciliationRun>>;
}
