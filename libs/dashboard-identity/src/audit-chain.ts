import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The audit log's integrity (contract §22, PCI DSS 10.3.2): each entry
 * carries an HMAC-SHA256, keyed from the master key (never stored in the
 * database), over its own content and the previous entry's HMAC. An entry
 * changed, inserted or removed in the middle breaks every HMAC after it; the
 * chain's head (sequence and HMAC), also written outside the database, shows
 * a removed tail.
 */
export interface ChainedEntry {
  readonly sequence: number;
  readonly at: Date;
  readonly businessId: string;
  readonly userId: string | null;
  readonly email: string;
  readonly action: string;
  readonly target: string | null;
  readonly result: string;
  readonly detail: unknown;
  readonly address: string | null;
}

/** The chain's key: HKDF-SHA256 of the master key, for this use alone. */
export function auditKeyOf(masterKey: Buffer): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), 'pcs dashboard audit chain v1', 32));
}

/** A short name of a key (recorded with each entry: a rotated master key is told apart), never the key. */
export function auditKeyId(key: Buffer): string {
  return crypto.createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** JSON with its object keys sorted: the same bytes from what was written and from what jsonb gives back. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

export function entryHmac(key: Buffer, previous: string, entry: ChainedEntry): string {
  const content = canonicalJson({
    sequence: entry.sequence,
    at: entry.at.toISOString(),
    businessId: entry.businessId,
    userId: entry.userId,
    email: entry.email,
    action: entry.action,
    target: entry.target,
    result: entry.result,
    detail: entry.detail,
    address: entry.address,
  });
  return crypto.createHmac('sha256', key).update(previous).update('\n').update(content).digest('hex');
}

/** The head's file name under DATA_DIR. */
export const AUDIT_HEAD_FILE = 'audit-head.json';

/** The HMAC before the first entry. */
export const CHAIN_START = '0'.repeat(64);

export interface ChainHead {
  readonly sequence: number;
  readonly hmac: string;
}

/** Writes the head where the database cannot reach it: a file (written whole, then renamed into place). */
export function writeChainHead(file: string, head: ChainHead): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify({ ...head, writtenAt: new Date().toISOString() }) + '\n', { mode: 0o600 });
  fs.renameSync(temporary, file);
}

export function readChainHead(file: string): ChainHead | null {
  if (!fs.existsSync(file)) return null;
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { sequence?: unknown; hmac?: unknown };
  if (typeof parsed.sequence !== 'number' || typeof parsed.hmac !== 'string') throw new Error(`${file} is not an audit head`);
  return { sequence: parsed.sequence, hmac: parsed.hmac };
}

export type ChainVerdict =
  | {
      readonly ok: true;
      readonly entries: number;
      readonly head: ChainHead | null;
      /** How many entries each generation of the master key sealed, by key id. */
      readonly generations?: Readonly<Record<string, number>>;
    }
  | {
      readonly ok: false;
      readonly entries: number;
      readonly firstBroken: { readonly sequence: number; readonly auditId: string | null; readonly reason: string };
    };
