import { cardDataAt } from './card-data';
import { JsonNode, pathOf, walkJson } from './json-walk';

/**
 * Text no part of the service can store or compare safely: PostgreSQL's text
 * types refuse the NUL character, and an unpaired UTF-16 surrogate is not a
 * character at all (it cannot be encoded as UTF-8, so jsonb and the
 * validators reject it in their own ways). Keys that name JavaScript's object
 * machinery (`__proto__`, `constructor`, `prototype`) are never field names
 * of this API: refused so that no merge or validator can be led astray.
 */
// eslint-disable-next-line no-control-regex
const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export interface UnsafeInput {
  readonly field: string;
  readonly reason: string;
}

export function unsafeTextReason(text: string): string | null {
  if (NUL.test(text)) return 'contains a NUL character';
  if (LONE_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate';
  return null;
}

/** Every field (by path) whose key or string value cannot be accepted, with why. */
export function findUnsafeInput(root: unknown, prefix = ''): UnsafeInput[] {
  const found: UnsafeInput[] = [];
  walkJson(root, (node) => unsafeAt(node, prefix, found));
  return found;
}

/** Adds to `found` what cannot be accepted in the node's key or string value, its field named under `prefix` ('' for a body). */
export function unsafeAt(node: JsonNode, prefix: string, found: UnsafeInput[]): void {
  const { key, value } = node;
  const at = () => {
    const path = pathOf(node);
    return prefix ? (path ? `${prefix}.${path}` : prefix) : path || 'body';
  };
  if (key !== null) {
    if (FORBIDDEN_KEYS.has(key)) found.push({ field: at(), reason: 'is not an accepted field name' });
    else {
      const keyReason = unsafeTextReason(key);
      if (keyReason) found.push({ field: at(), reason: `field name ${keyReason}` });
    }
  }
  if (typeof value === 'string') {
    const reason = unsafeTextReason(value);
    if (reason) found.push({ field: at(), reason });
  }
}

/**
 * Both inspections of client input (unsafe text, card data) in one walk of
 * each of the body and the query: what the APIs run on every request.
 */
export function inspectInput(
  body: unknown,
  query: unknown,
  options: { cardData: boolean },
): { unsafe: UnsafeInput[]; cardFields: string[] } {
  const unsafe: UnsafeInput[] = [];
  const bodyCards: string[] = [];
  const queryCards: string[] = [];
  walkJson(body, (node) => {
    unsafeAt(node, '', unsafe);
    if (options.cardData) cardDataAt(node, bodyCards);
  });
  walkJson(query, (node) => {
    unsafeAt(node, 'query', unsafe);
    if (options.cardData) cardDataAt(node, queryCards);
  });
  return { unsafe, cardFields: [...bodyCards, ...queryCards.map((field) => `query.${field}`)] };
}
