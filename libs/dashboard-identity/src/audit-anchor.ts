import { ChainHead } from './audit-chain';
import * as fs from 'node:fs';

/**
 * The audit chain's head sent off the host (contract §27, PCI DSS 10.3.3:
 * logs promptly backed up to a central server that is difficult to alter).
 * `AUDIT_ANCHOR_URL` is an endpoint that keeps what it receives (a
 * write-once bucket's gateway, a log collector): each head is a POST of
 * `{ "sequence", "hmac", "at" }`, and a GET of the same URL answers the
 * newest it kept, which `audit:verify` checks the chain against. An anchor
 * file (`--anchor-file`) holds what such an endpoint kept: one head per line,
 * or one JSON object; its newest is the one of the highest sequence.
 */
export interface Anchor extends ChainHead {
  readonly at: string;
}

const ANCHOR_TIMEOUT_MS = 5_000;

/** Sends a head to the anchor; throws when the endpoint does not take it (2xx). */
export async function sendAnchor(url: string, head: ChainHead, at = new Date()): Promise<void> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sequence: head.sequence, hmac: head.hmac, at: at.toISOString() }),
    signal: AbortSignal.timeout(ANCHOR_TIMEOUT_MS),
  });
  if (!answer.ok) throw new Error(`the audit anchor answered ${answer.status}`);
}

/** The newest head the anchor kept (GET of the same URL), or null when it has none yet (404 or an empty answer). */
export async function readAnchor(url: string): Promise<Anchor | null> {
  const answer = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(ANCHOR_TIMEOUT_MS) });
  if (answer.status === 404) return null;
  if (!answer.ok) throw new Error(`the audit anchor answered ${answer.status}`);
  const text = (await answer.text()).trim();
  return text ? newestOf(text, url) : null;
}

/** The newest head of an anchor file (one JSON object, or one per line), or null when the file has none. */
export function readAnchorFile(file: string): Anchor | null {
  if (!fs.existsSync(file)) throw new Error(`${file} does not exist`);
  const text = fs.readFileSync(file, 'utf8').trim();
  return text ? newestOf(text, file) : null;
}

function newestOf(text: string, source: string): Anchor {
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
  let newest: Anchor | null = null;
  for (const line of lines) {
    const head = line as { sequence?: unknown; hmac?: unknown; at?: unknown };
    if (
      typeof head.sequence !== 'number' ||
      !Number.isInteger(head.sequence) ||
      typeof head.hmac !== 'string' ||
      !/^[0-9a-f]{64}$/.test(head.hmac)
    )
      throw new Error(`${source} does not hold audit heads`);
    if (!newest || head.sequence > newest.sequence)
      newest = { sequence: head.sequence, hmac: head.hmac, at: typeof head.at === 'string' ? head.at : '' };
  }
  if (!newest) throw new Error(`${source} does not hold audit heads`);
  return newest;
}
