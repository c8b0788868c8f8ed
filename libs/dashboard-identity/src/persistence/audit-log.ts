import { DataSource } from 'typeorm';
import { auditKeyId, CHAIN_START, ChainHead, ChainVerdict, entryHmac, readChainHead, writeChainHead } from '../audit-chain';

export interface AuditEntry {
  readonly businessId: string;
  readonly userId: string | null;
  readonly email: string;
  /** What was attempted: `sign-in`, `refund`, `user:create` … */
  readonly action: string;
  /** What it was done to (a payment intent's id, an email), never a secret. */
  readonly target?: string | null;
  readonly result: 'succeeded' | 'refused' | 'failed';
  readonly detail?: Record<string, unknown>;
  /** The client's address (the dashboard's request), or none (an operator command). */
  readonly address?: string | null;
}

export interface AuditRecord extends AuditEntry {
  readonly auditId: string;
  readonly at: Date;
  /** Its place in the chain (none for an entry written before the chain existed). */
  readonly sequence: number | null;
}

/** The advisory lock that orders the audit log's writers (one chain for the whole log). */
const AUDIT_CHAIN_LOCK = 7_202_611;

/** An error of the audit log's own (no key to write with). */
export class AuditLogError extends Error {}

/**
 * The dashboard's audit log (contract §22): entries appended under one lock
 * and chained by HMAC (audit-chain.ts), read a page at a time, verified
 * whole, and its head moved forward outside the database. The database
 * refuses any change to an entry once written.
 */
export class AuditLog {
  private readonly keys: Map<string, Buffer>;
  private readonly key: Buffer | null;

  /** `keys` from the master key (auditKeyOf): the first writes, all of them verify (a rotated master key's entries too). */
  constructor(
    private readonly dataSource: DataSource,
    keys: readonly Buffer[],
  ) {
    this.key = keys[0] ?? null;
    this.keys = new Map(keys.map((key) => [auditKeyId(key), key]));
  }

  /**
   * Appends an entry to the audit log, chained (contract §22): under a lock
   * that orders every writer (the dashboards and the operator's commands),
   * the entry takes the next sequence and an HMAC over its content and the
   * previous entry's. The database refuses any change to it afterwards.
   */
  async append(entry: AuditEntry): Promise<void> {
    if (!this.key) throw new AuditLogError('the audit log needs its key to write');
    const key = this.key;
    const content = {
      businessId: entry.businessId,
      userId: entry.userId,
      email: withoutNul(entry.email).slice(0, 254),
      action: entry.action,
      target: entry.target === null || entry.target === undefined ? null : withoutNul(entry.target).slice(0, 200),
      result: entry.result,
      // jsonb holds no \u0000 either: what a hostile request typed is recorded without it.
      detail: JSON.parse(JSON.stringify(withoutNulDeep(entry.detail ?? {}))) as unknown,
      address: entry.address ? withoutNul(entry.address).slice(0, 64) : null,
    };
    await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_CHAIN_LOCK]);
      const [last] = await manager.query(
        'SELECT sequence, hmac FROM dashboard_audit WHERE sequence IS NOT NULL ORDER BY sequence DESC LIMIT 1',
      );
      const chained = { ...content, sequence: last ? Number(last.sequence) + 1 : 1, at: new Date() };
      const hmac = entryHmac(key, last?.hmac ?? CHAIN_START, chained);
      await manager.query(
        `INSERT INTO dashboard_audit (business_id, user_id, email, action, target, result, detail, address, at, sequence, hmac, key_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          content.businessId,
          content.userId,
          content.email,
          content.action,
          content.target,
          content.result,
          JSON.stringify(content.detail),
          content.address,
          chained.at,
          chained.sequence,
          hmac,
          auditKeyId(key),
        ],
      );
    });
  }

  /** The chain's head: the last entry's sequence and HMAC (null before any). */
  async head(): Promise<ChainHead | null> {
    const [last] = await this.dataSource.query(
      'SELECT sequence, hmac FROM dashboard_audit WHERE sequence IS NOT NULL ORDER BY sequence DESC LIMIT 1',
    );
    return last ? { sequence: Number(last.sequence), hmac: last.hmac } : null;
  }

  /**
   * Moves the head kept outside the database forward to the log's head —
   * only forward, and only when the entry the file names is still the one
   * it names: a log whose tail was removed (or rewritten) never overwrites
   * the evidence of it. Answers what the file says afterwards, and whether
   * the log still agrees with it.
   */
  async advanceHead(file: string): Promise<{ head: ChainHead | null; agrees: boolean }> {
    const outside = readChainHead(file);
    const head = await this.head();
    if (outside) {
      const [kept] = await this.dataSource.query('SELECT hmac FROM dashboard_audit WHERE sequence = $1', [outside.sequence]);
      if (!kept || kept.hmac !== outside.hmac) return { head: outside, agrees: false };
      if (!head || head.sequence <= outside.sequence) return { head: outside, agrees: true };
    }
    if (head) writeChainHead(file, head);
    return { head, agrees: true };
  }

  /**
   * `audit:verify`: reads the whole log in order and recomputes every HMAC;
   * names the first entry that is not what was written (changed, inserted,
   * out of order, a gap) and, against the head kept outside the database, a
   * removed tail. Entries written before the chain existed (no sequence) may
   * only come first.
   */
  async verify(outsideHead: ChainHead | null): Promise<ChainVerdict> {
    let previous = CHAIN_START;
    let expected = 1;
    let entries = 0;
    let lastId = '0';
    let chained = false;
    const broken = (sequence: number, auditId: string | null, reason: string): ChainVerdict => ({
      ok: false,
      entries,
      firstBroken: { sequence, auditId, reason },
    });
    for (;;) {
      const rows: Record<string, never>[] = await this.dataSource.query(
        `SELECT audit_id, sequence, at, business_id, user_id, email, action, target, result, detail, address, hmac, key_id
           FROM dashboard_audit WHERE audit_id > $1 ORDER BY audit_id LIMIT 1000`,
        [lastId],
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        lastId = String(row.audit_id);
        entries++;
        if (row.sequence === null) {
          if (chained) return broken(expected, lastId, 'an entry without its place in the chain after the chain began');
          continue;
        }
        chained = true;
        const sequence = Number(row.sequence);
        if (sequence !== expected) return broken(expected, lastId, `entry ${expected} is missing (found ${sequence})`);
        const key = this.keys.get(row.key_id);
        if (!key) return broken(sequence, lastId, `no key of id ${String(row.key_id)} to verify it`);
        const hmac = entryHmac(key, previous, {
          sequence,
          at: row.at,
          businessId: row.business_id,
          userId: row.user_id,
          email: row.email,
          action: row.action,
          target: row.target,
          result: row.result,
          detail: row.detail,
          address: row.address,
        });
        if (hmac !== row.hmac) return broken(sequence, lastId, 'its HMAC does not match its content and the entry before it');
        if (outsideHead && sequence === outsideHead.sequence && hmac !== outsideHead.hmac)
          return broken(sequence, lastId, `entry ${sequence} differs from the head outside the database`);
        previous = hmac;
        expected++;
      }
    }
    const head = expected > 1 ? { sequence: expected - 1, hmac: previous } : null;
    if (outsideHead) {
      if (!head || head.sequence < outsideHead.sequence)
        return broken(
          (head?.sequence ?? 0) + 1,
          null,
          `the log ends at ${head?.sequence ?? 0}; the head outside the database says ${outsideHead.sequence}`,
        );
    }
    return { ok: true, entries, head };
  }

  /** The audit log of a business, newest first, a page at a time (`before`: the last id of the previous page). */
  async page(businessId: string, options: { limit: number; before?: string }): Promise<AuditRecord[]> {
    const rows = await this.dataSource.query(
      `SELECT audit_id, sequence, at, business_id, user_id, email, action, target, result, detail, address FROM dashboard_audit
        WHERE business_id = $1 AND ($2::bigint IS NULL OR audit_id < $2::bigint) ORDER BY audit_id DESC LIMIT $3`,
      [businessId, options.before ?? null, options.limit],
    );
    return rows.map((row: Record<string, never>) => ({
      auditId: String(row.audit_id),
      sequence: row.sequence === null ? null : Number(row.sequence),
      at: row.at,
      businessId: row.business_id,
      userId: row.user_id,
      email: row.email,
      action: row.action,
      target: row.target,
      result: row.result,
      detail: row.detail,
      address: row.address,
    }));
  }
}

/** PostgreSQL's text holds no NUL: what a request typed is recorded without it, never refused for it. */
function withoutNul(value: string): string {
  return value.split('\u0000').join('');
}

function withoutNulDeep(value: unknown): unknown {
  if (typeof value === 'string') return withoutNul(value);
  if (Array.isArray(value)) return value.map(withoutNulDeep);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), withoutNulDeep(v)]));
  return value;
}
