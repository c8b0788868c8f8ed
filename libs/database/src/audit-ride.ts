import { DomainError } from '@pcs/kernel';
import { AsyncLocalStorage } from 'node:async_hooks';
import { EntityManager, QueryFailedError, QueryRunner } from 'typeorm';
import { shiftParameters } from './statements';

/**
 * A request's audit entry riding its change (contract §29: no entry, no
 * change). The API's audit opens one per mutating request (runRiding); the
 * first write of the request that can carry it does:
 * - the statement that records a change's events (EventRecorder) adds the
 *   entry as one more CTE of that statement (no extra round trip);
 * - otherwise the first transaction to commit inserts it just before COMMIT
 *   (the API's TypeORM subscriber).
 * States: `waiting`; `writing` once a statement of an open transaction holds
 * it (`runner`: that transaction; back to `waiting` if it rolls back);
 * `written` once committed; `closed` when the request is over.
 */
export interface AuditRide {
  state: 'waiting' | 'writing' | 'written' | 'closed';
  runner: QueryRunner | null;
  /** How deep in `runner`'s transactions the entry was written (a savepoint rolled back below it takes it away). */
  depth: number;
  /** The entry's INSERT (unsealed, one row), naming `created` when the change created a resource. */
  insertion(created: string | null): { sql: string; parameters: unknown[] };
}

const rides = new AsyncLocalStorage<AuditRide>();

/** Runs a request's work with its entry waiting to ride its change. */
export function runRiding<T>(ride: AuditRide, work: () => Promise<T>): Promise<T> {
  return rides.run(ride, work);
}

/** The entry waiting in this request, if any. */
export function currentRide(): AuditRide | undefined {
  return rides.getStore();
}

/**
 * The waiting entry of this request as a CTE of a change's statement (named
 * `audit`, its parameters after the statement's first `offset`), or null when
 * none waits. `settle` is told whether the statement succeeded: in a
 * transaction the entry is then held by it (committed or given back with
 * it), outside one it is written.
 */
export function rideInStatement(
  manager: EntityManager,
  offset: number,
  created: string | null,
): { cte: string; values: unknown[]; settle(succeeded: boolean): void } | null {
  const ride = rides.getStore();
  if (!ride || ride.state !== 'waiting') return null;
  const { sql, parameters } = ride.insertion(created);
  ride.state = 'writing';
  const runner = manager.queryRunner?.isTransactionActive ? manager.queryRunner : null;
  return {
    cte: `audit AS (${shiftParameters(sql, offset)} RETURNING 1)`,
    values: parameters,
    settle(succeeded) {
      if (!succeeded) {
        ride.state = 'waiting';
        ride.runner = null;
      } else if (runner) {
        ride.runner = runner;
        ride.depth = transactionDepthOf(runner);
      } else ride.state = 'written';
    },
  };
}

/** How deep a query runner's transactions are (1: the outermost is open; TypeORM keeps it protected). */
export function transactionDepthOf(runner: QueryRunner): number {
  return (runner as unknown as { transactionDepth: number }).transactionDepth;
}

/**
 * After `runner` rolled back (to a savepoint, or whole): an entry written
 * deeper than where it now stands was rolled back with it, and waits again
 * (for this transaction's COMMIT, or the next write).
 */
export function rideRolledBack(runner: QueryRunner): void {
  const ride = rides.getStore();
  if (!ride || ride.runner !== runner || ride.state !== 'writing') return;
  const depth = transactionDepthOf(runner);
  if (depth >= ride.depth) return;
  ride.state = 'waiting';
  if (depth === 0) ride.runner = null;
}

/** Whether a statement failed because of the audit entry it carried (its table, or a constraint or privilege of it). */
export function isAuditWriteFailure(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driver = error.driverError as { table?: string; message?: string };
  return driver.table === 'dashboard_audit' || /dashboard_audit/.test(driver.message ?? error.message);
}

/** The error a change answers when its entry cannot be written: 503, nothing changed. */
export function auditUnavailable(): DomainError {
  return new DomainError('AUDIT_UNAVAILABLE');
}
