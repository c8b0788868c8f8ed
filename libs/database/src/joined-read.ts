import { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
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
const inserts = new WeakMap<EntityMetadata, { text: string; columns: ColumnMetadata[] }>();
const updates = new WeakMap<EntityMetadata, { text: string; returning: string; columns: ColumnMetadata[]; keys: ColumnMetadata[] }>();

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

  /**
   * A whole row's INSERT, as TypeORM's insert builder writes it for
   * PostgreSQL (every inserted column, each value through the driver's
   * conversion and then the column's transformer), with its text built once
   * per entity instead of at every write: the builder spent about 4 % of a
   * creation's CPU assembling the same text. Null when the row is one the
   * builder treats specially (a value left undefined, which it writes as
   * DEFAULT, a version or spatial column, a raw SQL value): the caller then
   * uses the builder.
   */
  insert(entity: T): [string, unknown[]] | null {
    const driver = this.manager.connection.driver;
    if (this.metadata.schema) return null;
    let prepared = inserts.get(this.metadata);
    if (!prepared) {
      const columns = this.metadata.columns.filter((c) => c.isInsert && !(c.isGenerated && c.generationStrategy === 'increment'));
      const table = driver.escape(this.metadata.tableName);
      const text = `INSERT INTO ${table}(${columns.map((c) => driver.escape(c.databaseName)).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
      prepared = { text, columns };
      inserts.set(this.metadata, prepared);
    }
    const values: unknown[] = [];
    for (const column of prepared.columns) {
      const raw = column.getEntityValue(entity) as unknown;
      if (typeof raw === 'function' || column.isVersion || column.isDiscriminator || driver.spatialTypes.includes(column.type)) return null;
      const value = driver.preparePersistentValue(raw, column) as unknown;
      if (value === undefined || typeof value === 'function') return null;
      values.push(value);
    }
    return [prepared.text, values];
  }

  /**
   * A whole row's UPDATE by its primary key (every other column, each value
   * converted as `insert` converts it), RETURNING the key, with its text
   * built once per entity; with `version`, only while the row's `xmin` is
   * that transaction id (nothing wrote the row since). Null where `insert`
   * would be: the caller then uses the builder.
   */
  update(entity: T, version?: string): [string, unknown[]] | null {
    const driver = this.manager.connection.driver;
    if (this.metadata.schema) return null;
    let prepared = updates.get(this.metadata);
    if (!prepared) {
      const keys = this.metadata.primaryColumns;
      const columns = this.metadata.columns.filter((c) => c.isUpdate && !c.isPrimary);
      const table = driver.escape(this.metadata.tableName);
      const set = columns.map((c, i) => `${driver.escape(c.databaseName)} = $${i + 1}`).join(', ');
      const where = keys.map((c, i) => `${driver.escape(c.databaseName)} = $${columns.length + i + 1}`).join(' AND ');
      const returning = keys.map((c) => driver.escape(c.databaseName)).join(', ');
      prepared = { text: `UPDATE ${table} SET ${set} WHERE ${where}`, returning, columns, keys };
      updates.set(this.metadata, prepared);
    }
    const values: unknown[] = [];
    for (const column of [...prepared.columns, ...prepared.keys]) {
      const raw = column.getEntityValue(entity) as unknown;
      if (typeof raw === 'function' || column.isVersion || column.isDiscriminator || driver.spatialTypes.includes(column.type)) return null;
      const value = driver.preparePersistentValue(raw, column) as unknown;
      if (value === undefined || typeof value === 'function') return null;
      values.push(value);
    }
    const { text, returning } = prepared;
    if (version === undefined) return [`${text} RETURNING ${returning}`, values];
    values.push(version);
    return [`${text} AND xmin = CAST(CAST($${values.length} AS text) AS xid) RETURNING ${returning}`, values];
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
