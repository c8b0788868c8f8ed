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

/** The most entries one write appends (12 parameters each, far below PostgreSQL's 65,535). */
const MAX_ENTRIES_PER_WRITE = 500;

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

  /** Entries waiting for the next write, each with its caller's promise. */
  private waiting: { content: ChainedContent; done: (error?: Error) => void }[] = [];
  /** Whether a write of this process is running (the next one starts when it ends). */
  private writing = false;

  /**
   * Appends an entry to the audit log, chained (contract §22): under a lock
   * that orders every writer (the dashboards, the APIs and the operator's
   * commands), the entry takes the next sequence and an HMAC over its
   * content and the previous entry's. The database refuses any change to it
   * afterwards. Resolves once the entry is committed.
   *
   * Group commit: the entries this process is asked to append while one of
   * its writes runs go together in the next write (one lock, one read of the
   * head, one INSERT of all of them, one commit), so a busy API does not
   * queue every mutating request on the chain's lock one at a time. Each
   * entry is still committed before its caller goes on, in the order asked.
   */
  append(entry: AuditEntry): Promise<void> {
    if (!this.key) return Promise.reject(new AuditLogError('the audit log needs its key to write'));
    const content = contentOf(entry);
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ content, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.writing) void this.writeWaiting();
    });
  }

  private async writeWaiting(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length) {
        // The rest of this turn of the event loop joins the group (requests answered together ask together).
        await new Promise<void>((resolve) => setImmediate(resolve));
        const batch = this.waiting.splice(0, MAX_ENTRIES_PER_WRITE);
        try {
          await this.write(batch.map(({ content }) => content));
          for (const { done } of batch) done();
        } catch (error) {
          if (batch.length === 1) batch[0].done(asFailure(error));
          // One entry never fails because of another (contract §29): a group the database refused is written again an
          // entry at a time, and only the entries refused on their own fail.
          else
            for (const { content, done } of batch) {
              try {
                await this.write([content]);
                done();
              } catch (single) {
                done(asFailure(single));
              }
            }
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /** One transaction: the chain's lock, its head, then every entry chained after it in one INSERT. */
  private async write(contents: readonly ChainedContent[]): Promise<void> {
    const key = this.key!;
    await this.dataSource.transaction(async (manager) => {
      // Two statements, not one: the head must be read with a snapshot taken after the lock is held (READ COMMITTED takes
      // a statement's snapshot when it starts, so a head read in the lock's own statement could miss the entry its holder wrote).
      await manager.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_CHAIN_LOCK]);
      const [last] = await manager.query(
        'SELECT sequence, hmac FROM dashboard_audit WHERE sequence IS NOT NULL ORDER BY sequence DESC LIMIT 1',
      );
      let sequence = last ? Number(last.sequence) : 0;
      let previous: string = last?.hmac ?? CHAIN_START;
      const at = new Date();
      const values: unknown[] = [];
      const rows: string[] = [];
      for (const content of contents) {
        sequence += 1;
        const chained = { ...content, sequence, at };
        const hmac = entryHmac(key, previous, chained);
        previous = hmac;
        const base = values.length;
        rows.push(`(${Array.from({ length: 12 }, (_, i) => `$${base + i + 1}`).join(', ')})`);
        values.push(
          content.businessId,
          content.userId,
          content.email,
          content.action,
          content.target,
          content.result,
          JSON.stringify(content.detail),
          content.address,
          at,
          sequence,
          hmac,
          auditKeyId(key),
        );
      }
      await manager.query(
        `INSERT INTO dashboard_audit (business_id, user_id, email, action, target, result, detail, address, at, sequence, hmac, key_id)
         VALUES ${rows.join(', ')}`,
        values,
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

function asFailure(error: unknown): Error {
  return error instanceof Error ? error : new Error(`the audit write failed: ${String(error)}`);
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
