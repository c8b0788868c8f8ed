import { walkJson } from './json-walk';

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
  const at = (path: string) => (prefix ? (path ? `${prefix}.${path}` : prefix) : path || 'body');
  walkJson(root, (path, value, key) => {
    if (key !== null) {
      if (FORBIDDEN_KEYS.has(key)) found.push({ field: at(path), reason: 'is not an accepted field name' });
      else {
        const keyReason = unsafeTextReason(key);
        if (keyReason) found.push({ field: at(path), reason: `field name ${keyReason}` });
      }
    }
    if (typeof value === 'string') {
      const reason = unsafeTextReason(value);
      if (reason) found.push({ field: at(path), reason });
    }
  });
  return found;
}
