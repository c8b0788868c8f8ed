import { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { Statement } from './statements';

/**
 * What one context adds to another's read so that both cost one round trip:
 * a subquery (its parameters numbered from $1) run LATERAL beside the other
 * context's row, and how its rows are read back (each row of the read
 * carries the other's columns too; `read` looks at its own). No joined row
 * reads back as `read([])`. Opaque outside persistence adapters: the reading
 * adapter takes it apart with `JoinedRead.parts`.
 */
export class JoinedRead<T> {
  private constructor(
    private readonly statement: Statement,
    private readonly reader: (rows: readonly Record<string, unknown>[]) => T,
  ) {}

  static of<T>(sql: string, values: readonly unknown[], read: (rows: readonly Record<string, unknown>[]) => T): JoinedRead<T> {
    return new JoinedRead({ sql, values }, read);
  }

  static parts<T>(joined: JoinedRead<T>): { statement: Statement; read: (rows: readonly Record<string, unknown>[]) => T } {
    return { statement: joined.statement, read: joined.reader };
  }
}

const selects = new WeakMap<EntityMetadata, Map<string, string>>();

/**
 * An entity's columns in a statement written by hand (one that joins another
 * context's read, or returns several tables' rows at once): its SELECT list
 * under a prefix, and the entity back from a row selected with it, hydrated
 * as TypeORM hydrates (its driver's conversions, then each column's
 * transformer).
 */
export class EntityColumns<T extends ObjectLiteral> {
  private readonly metadata: EntityMetadata;

  constructor(
    private readonly manager: EntityManager,
    target: EntityTarget<T>,
    private readonly prefix: string,
  ) {
    this.metadata = manager.connection.getMetadata(target);
  }

  /** `alias.column AS "<prefix>column", …` for every column. */
  select(alias: string): string {
    let byAlias = selects.get(this.metadata);
    if (!byAlias) selects.set(this.metadata, (byAlias = new Map()));
    const key = `${alias}\n${this.prefix}`;
    let list = byAlias.get(key);
    if (list === undefined) {
      list = this.metadata.columns.map((c) => `${alias}.${c.databaseName} AS "${this.prefix}${c.databaseName}"`).join(', ');
      byAlias.set(key, list);
    }
    return list;
  }

  /** The entity a row carries under the prefix; null when the row has none (a LEFT JOIN that found nothing). */
  from(row: Record<string, unknown>): T | null {
    const [primary] = this.metadata.primaryColumns;
    if (row[`${this.prefix}${primary.databaseName}`] == null) return null;
    const entity = this.metadata.create() as T;
    const driver = this.manager.connection.driver;
    for (const column of this.metadata.columns)
      column.setEntityValue(entity, driver.prepareHydratedValue(row[`${this.prefix}${column.databaseName}`], column));
    return entity;
  }
}
