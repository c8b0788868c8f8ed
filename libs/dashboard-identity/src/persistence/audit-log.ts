import type { AuditEntry } from '@pcs/kernel';
import { DataSource } from 'typeorm';
import { auditKeyId, CHAIN_START, ChainedEntry, ChainHead, ChainVerdict, entryHmac, readChainHead, writeChainHead } from '../audit-chain';

export type { AuditEntry };

export interface AuditRecord extends AuditEntry {
  readonly auditId: string;
  readonly at: Date;
  /** Its place in the chain (none for an entry written before the chain existed). */
  readonly sequence: number | null;
}

/** The advisory lock of the one sealer at work (writers take none, contract §29). */
const AUDIT_SEALER_LOCK = 7_202_611;

/** The most entries one sealing transaction chains. */
const SEAL_BATCH = 1000;

/** How long an entry may wait for its seal before `audit:verify` calls it a failure of the logging itself (PCI DSS 10.7). */
export const UNSEALED_GRACE_MS = 60_000;

const INSERT_ENTRY = `INSERT INTO dashboard_audit (business_id, user_id, email, action, target, result, detail, address, at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

/** An entry as it is chained: its fields cut to their columns, without NUL characters. */
interface ChainedContent {
  readonly businessId: string;
  readonly userId: string | null;
  readonly email: string;
  readonly action: string;
  readonly target: string | null;
  readonly result: AuditEntry['result'];
  readonly detail: unknown;
  readonly address: string | null;
}

function contentOf(entry: AuditEntry): ChainedContent {
  return {
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
}

/** An error of the audit log's own (no key to write with). */
export class AuditLogError extends Error {}

/**
 * The audit log (contract §22, §29): an entry is one INSERT, unsealed, in the
 * transaction of the change it records (insertion(), which the API's audit
 * runs at that transaction's commit) or on its own (append()); no writer
 * takes a lock. One sealer at a time (seal(), under an advisory lock only
 * sealers take) chains what waits, in batches: each entry takes the next
 * sequence and an HMAC over its content and the previous entry's, under the
 * newest key, whose id it keeps. The database refuses any change to an entry
 * but that one sealing.
 */
export class AuditLog {
  private readonly keys: Map<string, Buffer>;
  private readonly key: Buffer | null;

  /** `keys` from the master key ring (auditKeyOf): the first seals, every one verifies. */
  constructor(
    private readonly dataSource: DataSource,
    keys: readonly Buffer[],
  ) {
    this.key = keys[0] ?? null;
    this.keys = new Map(keys.map((key) => [auditKeyId(key), key]));
  }

  /** The statement that writes an entry (unsealed), to run in the transaction of what it records. */
  insertion(entry: AuditEntry, at = new Date()): { sql: string; parameters: unknown[] } {
    const content = contentOf(entry);
    return {
      sql: INSERT_ENTRY,
      parameters: [
        content.businessId,
        content.userId,
        content.email,
        content.action,
        content.target,
        content.result,
        JSON.stringify(content.detail),
        content.address,
        at,
      ],
    };
  }

  /**
   * Appends an entry on its own: one INSERT, unsealed, committed when this
   * resolves; the sealer chains it within a second or so. One entry never
   * fails because of another (each is its own statement).
   */
  async append(entry: AuditEntry): Promise<void> {
    const { sql, parameters } = this.insertion(entry);
    await this.dataSource.query(sql, parameters);
  }

  /**
   * Chains what waits (contract §29): in one transaction at a time across
   * every process (the sealers' advisory lock, tried, never waited for: when
   * another sealer holds it, this one answers 0 and lets it work), the
   * chain's head, then up to SEAL_BATCH unsealed entries in the order they
   * were written, each given the next place and its HMAC in one UPDATE.
   * Answers how many it sealed (all that waited, batch after batch).
   */
  async seal(): Promise<number> {
    if (!this.key) throw new AuditLogError('the audit log needs its key to seal');
    const key = this.key;
    const keyId = auditKeyId(key);
    let sealed = 0;
    for (;;) {
      const count = await this.dataSource.transaction(async (manager) => {
        const [{ held }] = await manager.query('SELECT pg_try_advisory_xact_lock($1) AS held', [AUDIT_SEALER_LOCK]);
        if (!held) return 0;
        const [last] = await manager.query(
          'SELECT sequence, hmac FROM dashboard_audit WHERE sequence IS NOT NULL ORDER BY sequence DESC LIMIT 1',
        );
        const waiting: Record<string, never>[] = await manager.query(
          `SELECT audit_id, at, business_id, user_id, email, action, target, result, detail, address
             FROM dashboard_audit WHERE sequence IS NULL ORDER BY audit_id LIMIT $1`,
          [SEAL_BATCH],
        );
        if (waiting.length === 0) return 0;
        let sequence = last ? Number(last.sequence) : 0;
        let previous: string = last?.hmac ?? CHAIN_START;
        const ids: string[] = [];
        const sequences: number[] = [];
        const hmacs: string[] = [];
        for (const row of waiting) {
          sequence += 1;
          const hmac = entryHmac(key, previous, { sequence, ...chainedOf(row) });
          previous = hmac;
          ids.push(String(row.audit_id));
          sequences.push(sequence);
          hmacs.push(hmac);
        }
        await manager.query(
          `UPDATE dashboard_audit AS a SET sequence = s.sequence, hmac = s.hmac, key_id = $4
             FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS s(audit_id, sequence, hmac) WHERE a.audit_id = s.audit_id`,
          [ids, sequences, hmacs, keyId],
        );
        return waiting.length;
      });
      sealed += count;
      if (count < SEAL_BATCH) return sealed;
    }
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
   * `audit:verify`: reads the chain in order and recomputes every HMAC; names
   * the first entry that is not what was written (changed, inserted, out of
   * order, a gap) and, against the head kept outside the database, a removed
   * tail. An entry left unsealed longer than UNSEALED_GRACE_MS is a failure
   * of the logging itself (no sealer at work, PCI DSS 10.7) and fails too.
   */
  async verify(outsideHead: ChainHead | null, now = new Date()): Promise<ChainVerdict> {
    let previous = CHAIN_START;
    let expected = 1;
    let entries = 0;
    const generations: Record<string, number> = {};
    const broken = (sequence: number, auditId: string | null, reason: string): ChainVerdict => ({
      ok: false,
      entries,
      firstBroken: { sequence, auditId, reason },
    });
    for (;;) {
      const rows: Record<string, never>[] = await this.dataSource.query(
        `SELECT audit_id, sequence, at, business_id, user_id, email, action, target, result, detail, address, hmac, key_id
           FROM dashboard_audit WHERE sequence >= $1 ORDER BY sequence LIMIT 1000`,
        [expected],
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        const auditId = String(row.audit_id);
        entries++;
        const sequence = Number(row.sequence);
        if (sequence !== expected) return broken(expected, auditId, `entry ${expected} is missing (found ${sequence})`);
        const key = this.keys.get(row.key_id);
        if (!key) return broken(sequence, auditId, `no key of id ${String(row.key_id)} to verify it (is every generation in the ring?)`);
        generations[row.key_id] = (generations[row.key_id] ?? 0) + 1;
        const hmac = entryHmac(key, previous, { sequence, ...chainedOf(row) });
        if (hmac !== row.hmac) return broken(sequence, auditId, 'its HMAC does not match its content and the entry before it');
        if (outsideHead && sequence === outsideHead.sequence && hmac !== outsideHead.hmac)
          return broken(sequence, auditId, `entry ${sequence} differs from the head outside the database`);
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
    const [stale] = await this.dataSource.query(
      'SELECT audit_id, at FROM dashboard_audit WHERE sequence IS NULL AND at < $1 ORDER BY audit_id LIMIT 1',
      [new Date(now.getTime() - UNSEALED_GRACE_MS)],
    );
    if (stale)
      return broken(
        expected,
        String(stale.audit_id),
        `entry ${String(stale.audit_id)} of ${(stale.at as Date).toISOString()} is still unsealed (no sealer at work?)`,
      );
    return { ok: true, entries, head, generations };
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
      ...chainedOf(row),
    }));
  }
}

/** An entry's chained content as the database gives it back. */
function chainedOf(row: Record<string, never>): Omit<ChainedEntry, 'sequence'> {
  return {
    at: row.at,
    businessId: row.business_id,
    userId: row.user_id,
    email: row.email,
    action: row.action,
    target: row.target,
    result: row.result,
    detail: row.detail,
    address: row.address,
  };
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
