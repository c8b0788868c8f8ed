import * as crypto from 'node:crypto';
import type { PoolClient } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';

/** Data sources whose statements are sent unnamed (DATABASE_PREPARED_STATEMENTS=off: behind a pooler that cannot keep them). */
const unnamed = new WeakSet<DataSource>();

export function setPreparedStatements(dataSource: DataSource, on: boolean): void {
  if (on) unnamed.delete(dataSource);
  else unnamed.add(dataSource);
}

/** Whether the data source's hot statements are named (see setPreparedStatements). */
export function preparedStatementsOn(dataSource: DataSource): boolean {
  return !unnamed.has(dataSource);
}

const names = new Map<string, string>();
const MAX_NAMES = 2_000;

/**
 * A statement's name on every connection: a digest of its text, so the same
 * text is prepared once per connection and a name never stands for two
 * texts. Only statements whose text is a fixed shape are run this way (a
 * value is always a parameter), so there are few names.
 */
function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `pcs_${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    if (names.size < MAX_NAMES) names.set(text, name);
  }
  return name;
}

/**
 * Runs a hot statement as a named prepared statement on the manager's
 * connection (its transaction's, or one of the pool's for the statement
 * alone): PostgreSQL parses, analyses and rewrites its text once per
 * connection instead of at every request, which TypeORM's `query` cannot
 * ask for. Rows come back as `pg` reads them; a failure is TypeORM's
 * QueryFailedError, as from `manager.query`.
 */
export async function queryPrepared<T>(manager: EntityManager, text: string, values: readonly unknown[]): Promise<T[]> {
  if (unnamed.has(manager.connection)) return manager.query<T[]>(text, values as unknown[]);
  const owned = manager.queryRunner ? null : manager.connection.createQueryRunner();
  const runner = manager.queryRunner ?? owned!;
  try {
    const client = (await runner.connect()) as PoolClient;
    try {
      return (await client.query({ name: nameOf(text), text, values: values as unknown[] })).rows as T[];
    } catch (error) {
      throw new QueryFailedError(text, values as unknown[], error as Error);
    }
  } finally {
    if (owned) await owned.release();
  }
}
