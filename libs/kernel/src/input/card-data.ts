import { JsonNode, pathOf, walkJson } from './json-walk';

/**
 * Card data never enters the service (PCI scope stays with the gateways).
 * This finds values that look like a primary account number as a person or
 * a system writes one, and keys that name card secrets, anywhere in a
 * request. A number is a card number when it has a card brand's prefix and
 * one of that brand's lengths, passes the Luhn check, and is written as
 * digits alone or in the groupings people type (4-4-4-4, 4-6-5, 8-8 …).
 * Text is read as people write it (contract §30): normalised (Unicode NFKC,
 * decimal digits of every script read as 0–9, format characters such as
 * zero-width spaces and soft hyphens removed), and any run of up to three
 * characters that are neither letters nor digits (spaces of every kind,
 * tabs, newlines, dashes, dots, commas, pipes, slashes …) separates groups.
 * A number split across the items of an array, or used as an object's key,
 * is found too. A long digit run alone is not enough: one in ten passes
 * Luhn, and order references built from timestamps and counters are full of
 * them (`portman-1795610093-506` was refused before this was narrowed).
 */
// Runs of digits joined by separators (up to three characters that are neither letters nor digits): each run is a
// group; a candidate is a contiguous part of the chain.
const CHAIN = /(?<!\d)\d+(?:[^\p{L}\p{N}]{1,3}\d+)*(?!\d)/gu;
const SEPARATOR = /[^\p{L}\p{N}]{1,3}/u;
// A decimal digit of any script but ASCII's (Arabic-Indic, Devanagari, full-width, mathematical …).
const OTHER_DIGIT = /[^\P{Nd}0-9]/gu;
const DECIMAL_DIGIT = /^\p{Nd}$/u;
// Format characters (zero-width spaces and joiners, soft hyphens, direction marks, BOM): invisible, removed.
const FORMAT = /\p{Cf}/gu;
// UUID-shaped tokens anywhere in a value: never card numbers, whatever their digit groups spell.
const UUID_TOKEN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const CARD_SECRET_KEYS = /^(cvv2?|cvc2?|cid|csc|security_?code|card_?number|card_?num|pan|track_?[12]?|pin)$/i;

/**
 * The brands' prefixes (IIN ranges) and lengths, those of Uruguay, Argentina
 * and Brazil included: Visa 4 (13, 16, 19; Elo's 4-ranges among its 16);
 * Mastercard 51–55 and 2221–2720, Mir 2200–2204 (16); Maestro and the local
 * debit and credit brands on 50 and 56–59 (Elo 50, Naranja 589562, Cabal
 * 589657; 13–19); American Express 34, 37 (15); Diners Club 300–305, 36, 38–39
 * and Hipercard 3841 (14–19); JCB 3528–3589 (16–19); Discover, UnionPay,
 * Maestro, Elo, Hipercard 606282 and Cabal 604 on 6 (16–19); UnionPay 81 (16–19).
 */
const BRANDS: readonly { readonly prefix: RegExp; readonly lengths: readonly number[] }[] = [
  { prefix: /^4/, lengths: [13, 16, 19] },
  { prefix: /^(5[1-5]|2[2-7])/, lengths: [16] },
  { prefix: /^(50|5[6-9])/, lengths: [13, 14, 15, 16, 17, 18, 19] },
  { prefix: /^3[47]/, lengths: [15] },
  { prefix: /^3(0[0-5]|[689])/, lengths: [14, 15, 16, 17, 18, 19] },
  { prefix: /^35(2[89]|[3-8])/, lengths: [16, 17, 18, 19] },
  { prefix: /^(6|81)/, lengths: [16, 17, 18, 19] },
];

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

/** A brand's prefix and one of its lengths, and Luhn: the number could be a card's. */
export function isCardNumber(digits: string): boolean {
  return BRANDS.some((brand) => brand.prefix.test(digits) && brand.lengths.includes(digits.length)) && passesLuhn(digits);
}

/**
 * How people and systems write a card number: all its digits in one run, or
 * groups of four with a shorter last group (4-4-4-4, 4-4-4-1, 4-4-4-4-3 …),
 * American Express's and Diners Club's 4-6-5 and 4-6-4, or two halves of 8.
 */
function isTypedGrouping(sizes: readonly number[]): boolean {
  if (sizes.length === 1) return true;
  if (sizes.length === 2 && sizes[0] === 8 && sizes[1] === 8) return true;
  if (sizes.length === 3 && sizes[0] === 4 && sizes[1] === 6 && (sizes[2] === 5 || sizes[2] === 4)) return true;
  const last = sizes[sizes.length - 1];
  return sizes.length >= 3 && sizes.slice(0, -1).every((size) => size === 4) && last >= 1 && last <= 4;
}

/** The value of a decimal digit of any script: Unicode keeps each script's ten digits together, zero first. */
function digitValue(digit: string): string {
  const code = digit.codePointAt(0)!;
  let zero = code;
  while (zero > 0 && DECIMAL_DIGIT.test(String.fromCodePoint(zero - 1))) zero--;
  return String((code - zero) % 10);
}

/** Text as the guard reads it (contract §30): NFKC, every script's digits as 0–9, no format characters. */
export function normaliseForCardSearch(value: string): string {
  return value.normalize('NFKC').replace(FORMAT, '').replace(OTHER_DIGIT, digitValue);
}

export function looksLikeCardNumber(value: string): boolean {
  // Fewer than 13 digits in all cannot hold a card number: most text is answered here, without a regular expression.
  let digitCount = 0;
  let ascii = true;
  for (let i = 0; i < value.length && (digitCount < 13 || ascii); i++) {
    const code = value.charCodeAt(i);
    if (code >= 48 && code <= 57) digitCount++;
    else if (code > 127) ascii = false;
  }
  if (digitCount < 13 && ascii) return false;
  const text = ascii ? value : normaliseForCardSearch(value);
  for (const match of text.replace(UUID_TOKEN, ' ').matchAll(CHAIN)) {
    const groups = match[0].split(SEPARATOR);
    // Every contiguous part of the chain: "item 3 4111 1111 1111 1111" holds a card after its first group.
    for (let from = 0; from < groups.length; from++) {
      let digits = '';
      for (let to = from; to < groups.length && digits.length < 19; to++) {
        digits += groups[to];
        if (
          digits.length >= 13 &&
          digits.length <= 19 &&
          isTypedGrouping(groups.slice(from, to + 1).map((g) => g.length)) &&
          isCardNumber(digits)
        )
          return true;
      }
    }
  }
  return false;
}

/** Paths (e.g. `metadata.note`) of every value or key that carries card data. */
export function findCardData(root: unknown): string[] {
  const found: string[] = [];
  walkJson(root, (node) => cardDataAt(node, found));
  return found;
}

/** Adds the node's path to `found` (once for its key, once for its value) where it carries card data. */
export function cardDataAt(node: JsonNode, found: string[]): void {
  const { key, value } = node;
  // A key that names a card secret, or is a card number itself.
  if (key !== null && (CARD_SECRET_KEYS.test(key) || looksLikeCardNumber(key))) found.push(pathOf(node));
  if (
    typeof value === 'string'
      ? looksLikeCardNumber(value)
      : typeof value === 'number' && Number.isInteger(value) && looksLikeCardNumber(String(Math.abs(value)))
  )
    found.push(pathOf(node) || 'body');
  // A number split across an array's items (["4111", "1111", "1111", "1111"]): each run of text and number items, read as one.
  else if (Array.isArray(value) && value.length > 1 && splitAcrossItems(value)) found.push(pathOf(node) || 'body');
}

function splitAcrossItems(items: readonly unknown[]): boolean {
  let run: string[] = [];
  const check = () => run.length > 1 && looksLikeCardNumber(run.join(' '));
  for (const item of items) {
    if (typeof item === 'string' || (typeof item === 'number' && Number.isInteger(item))) run.push(String(item));
    else {
      if (check()) return true;
      run = [];
    }
  }
  return check();
}
