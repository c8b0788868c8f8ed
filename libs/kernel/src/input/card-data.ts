import { walkJson } from './json-walk';

/**
 * Card data never enters the service (PCI scope stays with the gateways).
 * This finds values that look like a primary account number — 13 to 19
 * digits, optionally grouped by single spaces or hyphens, passing the Luhn
 * check — and keys that name card secrets, anywhere in a request.
 */
const CANDIDATE = /(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)/g;
// UUID-shaped tokens anywhere in a value: their digit groups can line up into a
// Luhn-valid run by chance (about 1 in 400 random v4 UUIDs), and they are never card numbers.
const UUID_TOKEN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const CARD_SECRET_KEYS = /^(cvv2?|cvc2?|cid|csc|security_?code|card_?number|card_?num|pan|track_?[12]?|pin)$/i;

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function looksLikeCardNumber(value: string): boolean {
  for (const match of value.replace(UUID_TOKEN, ' ').matchAll(CANDIDATE)) {
    const digits = match[0].replace(/[ -]/g, '');
    if (digits.length >= 13 && digits.length <= 19 && passesLuhn(digits)) return true;
  }
  return false;
}

/** Paths (e.g. `metadata.note`) of every value or key that carries card data. */
export function findCardData(root: unknown): string[] {
  const found: string[] = [];
  walkJson(root, (path, value, key) => {
    if (key !== null && CARD_SECRET_KEYS.test(key)) found.push(path);
    if (typeof value === 'string' && looksLikeCardNumber(value)) found.push(path || 'body');
    else if (typeof value === 'number' && Number.isInteger(value) && looksLikeCardNumber(String(Math.abs(value))))
      found.push(path || 'body');
  });
  return found;
}
