import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import { auditKeyId, ChainHead } from './audit-chain';

/**
 * The audit chain's head sent off the host (contract §27, PCI DSS 10.3.3:
 * logs promptly backed up to a central server that is difficult to alter).
 * `AUDIT_ANCHOR_URL` is an endpoint that keeps what it receives (a
 * write-once bucket's gateway, a log collector): each head is a POST of
 * `{ "sequence", "hmac", "at", "keyId", "mac" }`, and a GET of the same URL
 * answers what it kept (every head, one JSON object per line, or the newest
 * alone), which `audit:verify` checks the chain against. An anchor file
 * (`--anchor-file`) holds what such an endpoint kept, the same way.
 *
 * A head cannot be forged (contract §29): `mac` is an HMAC-SHA256, under a
 * key derived from the master key (anchorKeyOf; `keyId` names its
 * generation), of the sequence, the chain's HMAC and the time. Whoever can
 * write to the anchor but holds no master key cannot make a head
 * `audit:verify` believes: heads whose mac does not verify under a
 * generation of the ring are ignored, and reported. `AUDIT_ANCHOR_TOKEN`,
 * when set, is sent as a bearer token with every POST and GET, for the
 * receiver to refuse strangers.
 */
export interface Anchor extends ChainHead {
  readonly at: string;
}

/** A head the anchor kept that does not verify (forged, or of a key no longer in the ring): ignored, and reported. */
export interface IgnoredAnchor {
  readonly sequence: unknown;
  readonly at: unknown;
  readonly reason: string;
}

export interface AnchorReading {
  /** The newest head whose mac verifies, or null. */
  readonly anchor: Anchor | null;
  readonly ignored: readonly IgnoredAnchor[];
}

const ANCHOR_TIMEOUT_MS = 5_000;

/** The anchor's key: HKDF-SHA256 of the master key, for this use alone. */
export function anchorKeyOf(masterKey: Buffer): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), 'pcs audit anchor v1', 32));
}

function macOf(key: Buffer, head: ChainHead, at: string): string {
  return crypto.createHmac('sha256', key).update(`${head.sequence}.${head.hmac}.${at}`).digest('hex');
}

/** A head as it is sent: with its time, the id of the anchor key, and the mac under it. */
export function signedHead(anchorKey: Buffer, head: ChainHead, at = new Date()): Record<string, unknown> {
  const when = at.toISOString();
  return { sequence: head.sequence, hmac: head.hmac, at: when, keyId: auditKeyId(anchorKey), mac: macOf(anchorKey, head, when) };
}

function authorization(token: string | undefined): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** Sends a head to the anchor, signed with `anchorKey` (the current master key's); throws when the endpoint does not take it (2xx). */
export async function sendAnchor(
  url: string,
  head: ChainHead,
  anchorKey: Buffer,
  options: { token?: string; at?: Date } = {},
): Promise<void> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authorization(options.token) },
    body: JSON.stringify(signedHead(anchorKey, head, options.at)),
    signal: AbortSignal.timeout(ANCHOR_TIMEOUT_MS),
  });
  if (!answer.ok) throw new Error(`the audit anchor answered ${answer.status}`);
}

/** What the anchor kept (GET of the same URL), verified against the ring's anchor keys; no anchor when it has none yet (404 or empty). */
export async function readAnchor(url: string, anchorKeys: readonly Buffer[], token?: string): Promise<AnchorReading> {
  const answer = await fetch(url, {
    headers: { accept: 'application/json', ...authorization(token) },
    signal: AbortSignal.timeout(ANCHOR_TIMEOUT_MS),
  });
  if (answer.status === 404) return { anchor: null, ignored: [] };
  if (!answer.ok) throw new Error(`the audit anchor answered ${answer.status}`);
  const text = (await answer.text()).trim();
  return text ? verifiedNewest(text, url, anchorKeys) : { anchor: null, ignored: [] };
}

/** What an anchor file holds (one JSON object, an array, or one per line), verified against the ring's anchor keys. */
export function readAnchorFile(file: string, anchorKeys: readonly Buffer[]): AnchorReading {
  if (!fs.existsSync(file)) throw new Error(`${file} does not exist`);
  const text = fs.readFileSync(file, 'utf8').trim();
  return text ? verifiedNewest(text, file, anchorKeys) : { anchor: null, ignored: [] };
}

function verifiedNewest(text: string, source: string, anchorKeys: readonly Buffer[]): AnchorReading {
  let lines: unknown[];
  try {
    const whole: unknown = JSON.parse(text);
    lines = Array.isArray(whole) ? whole : [whole];
  } catch {
    try {
      lines = text
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as unknown);
    } catch {
      throw new Error(`${source} does not hold audit heads`);
    }
  }
  const keys = new Map(anchorKeys.map((key) => [auditKeyId(key), key]));
  const ignored: IgnoredAnchor[] = [];
  let newest: Anchor | null = null;
  for (const line of lines) {
    const head = (line ?? {}) as { sequence?: unknown; hmac?: unknown; at?: unknown; keyId?: unknown; mac?: unknown };
    if (
      typeof head.sequence !== 'number' ||
      !Number.isInteger(head.sequence) ||
      typeof head.hmac !== 'string' ||
      !/^[0-9a-f]{64}$/.test(head.hmac) ||
      typeof head.at !== 'string'
    ) {
      ignored.push({ sequence: head.sequence ?? null, at: head.at ?? null, reason: 'not an audit head' });
      continue;
    }
    const key = typeof head.keyId === 'string' ? keys.get(head.keyId) : undefined;
    if (!key) {
      ignored.push({
        sequence: head.sequence,
        at: head.at,
        reason: head.mac === undefined ? 'no mac' : 'a key id of no generation in the ring',
      });
      continue;
    }
    const expected = Buffer.from(macOf(key, { sequence: head.sequence, hmac: head.hmac }, head.at));
    const given = Buffer.from(typeof head.mac === 'string' ? head.mac : '');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
      ignored.push({ sequence: head.sequence, at: head.at, reason: 'its mac does not verify' });
      continue;
    }
    if (!newest || head.sequence > newest.sequence) newest = { sequence: head.sequence, hmac: head.hmac, at: head.at };
  }
  return { anchor: newest, ignored };
}
