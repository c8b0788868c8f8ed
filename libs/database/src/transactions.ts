import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';

/** PostgreSQL's "try again" failures: a deadlock victim, a serialization failure. */
const RETRYABLE_CODES = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 4;

export function isRetryableTransactionFailure(error: unknown): boolean {
  return error instanceof QueryFailedError && RETRYABLE_CODES.has((error.driverError as { code?: string }).code ?? '');
}

/**
 * The one way a use case runs in a transaction. Locks are taken in one order
 * everywhere (merchant, payer, instrument, intent, then its payins), so a
 * deadlock should not happen; if PostgreSQL still picks this transaction as
 * a deadlock victim (or as a serialization failure), the whole unit of work
 * runs again, a bounded number of times, after a short random pause. The work
 * must therefore touch nothing outside the database before it commits.
 */
export async function inTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const committed: (() => void)[] = [];
      const result = await dataSource.transaction(async (manager) => {
        const data = manager.queryRunner!.data as AfterCommitData;
        data.afterCommit = committed;
        // What the work answered, for whoever acts just before COMMIT (the API's audit names the id a creation made).
        data.result = await work(manager);
        return data.result as T;
      });
      for (const callback of committed) callback();
      return result;
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryableTransactionFailure(error)) throw error;
      await sleep(5 + Math.random() * 20 * attempt);
    }
  }
}

interface AfterCommitData {
  afterCommit?: (() => void)[];
  result?: unknown;
}

/**
 * Runs `callback` once the manager's transaction (opened by inTransaction)
 * commits, never if it rolls back; at once outside a transaction. For what
 * this process must forget about rows it changed (its caches), as soon as
 * others can read the change.
 */
export function afterCommit(manager: EntityManager, callback: () => void): void {
  const pending = manager.queryRunner?.isTransactionActive ? (manager.queryRunner.data as AfterCommitData).afterCommit : undefined;
  if (pending) pending.push(callback);
  else callback();
}
