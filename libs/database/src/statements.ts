import type { ChangeAlongside, Precondition } from '@pcs/kernel';
import { EntityManager, QueryFailedError } from 'typeorm';
import { queryPrepared } from './prepared-statements';

/**
 * Statements that run inside another's (one round trip for a change and what
 * goes with it), and the conditions a write is checked against in its own
 * statement. SQL stays in persistence adapters: what crosses a port between
 * contexts is a `Precondition` or a `ChangeAlongside` of @pcs/kernel, opaque
 * values that are a `Requirement` or a `Guard` here, read only by the
 * statement builders of this library and the persistence adapters.
 */

/** A statement with its values, its parameters numbered from $1 (inside persistence adapters only). */
export interface Statement {
  readonly sql: string;
  readonly values: readonly unknown[];
}

/** A statement's parameters renumbered after `offset` others ($1 becomes $<offset + 1>), to run inside another statement. */
export function shiftParameters(sql: string, offset: number): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}

/**
 * A condition a write must meet, checked in the write's own statement: when
 * false, the statement fails with SQLSTATE P0004 (pcs_require) and writes
 * nothing. Its SQL is a boolean expression over its own values ($1, …) and
 * the statement's CTEs (`change`, `guard0`, …).
 */
export class Requirement implements Precondition {
  declare readonly __precondition: never;

  private constructor(
    private readonly condition: Statement,
    private readonly reason: string,
  ) {}

  static of(sql: string, values: readonly unknown[], reason: string): Requirement {
    return new Requirement({ sql, values }, reason);
  }

  /** That the change (an UPDATE … RETURNING) found its row. */
  static rowFound(what: string): Requirement {
    return new Requirement({ sql: 'EXISTS (SELECT 1 FROM change)', values: [] }, `the ${what} to update exists`);
  }

  /** That the change (an UPDATE … RETURNING guarded by what was read) wrote its row; `reason` says what that means. */
  static changeWritten(reason: string): Requirement {
    return new Requirement({ sql: 'EXISTS (SELECT 1 FROM change)', values: [] }, reason);
  }

  /** Every one of `requirements` at once (their conditions joined by AND, their reasons by "; "). */
  static all(...preconditions: readonly Precondition[]): Requirement {
    const requirements = preconditions.map(requirementOf);
    const values: unknown[] = [];
    const sql = requirements
      .map((requirement) => {
        const condition = shiftParameters(requirement.condition.sql, values.length);
        values.push(...requirement.condition.values);
        return `(${condition})`;
      })
      .join(' AND ');
    return new Requirement({ sql, values }, requirements.map((requirement) => requirement.reason).join('; '));
  }

  /** The check as a select-list expression, its values appended to `values` (the statement builders'). */
  static render(precondition: Precondition, values: unknown[]): string {
    const requirement = requirementOf(precondition);
    const sql = shiftParameters(requirement.condition.sql, values.length);
    values.push(...requirement.condition.values);
    return `pcs_require(${sql}, $${values.push(requirement.reason)})`;
  }
}

/**
 * A write that runs with another context's change in one statement, before
 * it (a CTE with a RETURNING clause: `guard0`, `guard1`, …). With `required`,
 * the whole statement writes nothing unless the guard wrote a row (a link
 * still unused and as it was read, a record inserted).
 */
export class Guard implements ChangeAlongside {
  declare readonly __changeAlongside: never;

  private constructor(
    private readonly statement: Statement,
    private readonly required: string | null,
  ) {}

  static of(sql: string, values: readonly unknown[], options: { required?: string } = {}): Guard {
    return new Guard({ sql, values }, options.required ?? null);
  }

  /** For the statement builders: its statement, and what it means when it wrote nothing (null: nothing is required of it). */
  static parts(change: ChangeAlongside): { statement: Statement; required: string | null } {
    const guard = guardOf(change);
    return { statement: guard.statement, required: guard.required };
  }
}

/**
 * Runs a change that records no events; with `requires`, a condition checked
 * in the same statement, which fails with SQLSTATE P0004 and writes nothing
 * when it does not hold.
 */
export async function runChange(manager: EntityManager, sql: string, values: unknown[], requires?: Precondition): Promise<void> {
  if (!requires) {
    await queryPrepared(manager, sql, values);
    return;
  }
  const all = [...values];
  const check = Requirement.render(requires, all);
  await queryPrepared(manager, `WITH change AS (${sql}) SELECT ${check}`, all);
}

/** Whether a statement failed because a requirement did not hold (SQLSTATE P0004): it wrote nothing. */
export function isRequirementFailure(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { code?: string }).code === 'P0004';
}

/** Runs a write that has a requirement: true once written, false when it did not hold (nothing written). */
export async function writtenIfRequired(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isRequirementFailure(error)) return false;
    throw error;
  }
}

/** The Requirement a Precondition is (every one is: only this library makes them). */
export function requirementOf(precondition: Precondition): Requirement {
  if (precondition instanceof Requirement) return precondition;
  throw new TypeError('not a precondition of this database');
}

/** The Guard a ChangeAlongside is (every one is: only this library makes them). */
export function guardOf(change: ChangeAlongside): Guard {
  if (change instanceof Guard) return change;
  throw new TypeError('not a change of this database');
}
