/**
 * Exact conversion between JSON numbers (major units, as they arrive on the
 * wire) and scaled integers. A JSON number is parsed by JavaScript into the
 * nearest double; its shortest round-trip string (`String(n)`) is the decimal
 * the client wrote, so we read digits from that string instead of multiplying
 * floats (100.1 * 100 = 10009.999999999998).
 */
export function decimalToScaledInteger(value: number, scale: number): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const text = value.toString().toLowerCase();
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(text);
  if (!match) return null;
  const [, sign, intPart, fracPart = '', expPart] = match;
  const exponent = expPart ? Number(expPart) : 0;
  // digits * 10^(exponent - fracPart.length) is the exact decimal value.
  let digits = (intPart + fracPart).replace(/^0+(?=\d)/, '');
  let shift = exponent - fracPart.length + scale;
  if (shift < 0) {
    // Dropping digits is only exact when every dropped digit is zero.
    const dropped = digits.slice(Math.max(0, digits.length + shift));
    if (/[1-9]/.test(dropped) || (digits.length + shift < 0 && /[1-9]/.test(digits))) return null;
    digits = digits.slice(0, Math.max(0, digits.length + shift)) || '0';
    shift = 0;
  }
  if (digits.length + shift > 16) return null; // beyond what a double holds exactly
  const scaled = Number(digits + '0'.repeat(shift));
  if (!Number.isSafeInteger(scaled)) return null;
  return sign === '-' && scaled !== 0 ? -scaled : scaled;
}

/** Inverse of decimalToScaledInteger: an exact integer divided by 10^scale. */
export function scaledIntegerToDecimal(scaled: number, scale: number): number {
  // Integer / power of ten is correctly rounded by IEEE 754, so the result is
  // the double nearest the exact decimal, whose shortest string is that decimal.
  return scale === 0 ? scaled : scaled / 10 ** scale;
}

/**
 * A decimal as a person types it in a command (`12`, `12.5`, `-2.25` where a sign belongs), as
 * a scaled integer: read from its digits alone, never through a double. Null for anything else —
 * hexadecimal (`0x10`), binary, exponents (`1e2`), a sign where none belongs (`+1`, or `-1` when
 * `signed` is false), separators, spaces — and for more decimals than `scale` (trailing zeros
 * aside) or more digits than a double holds exactly.
 */
export function decimalTextToScaledInteger(text: string, scale: number, options: { signed?: boolean } = {}): number | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  if (sign && !options.signed) return null;
  if (/[1-9]/.test(fraction.slice(scale))) return null;
  const digits = (whole + fraction.slice(0, scale).padEnd(scale, '0')).replace(/^0+(?=\d)/, '');
  if (digits.length > 15) return null;
  const scaled = Number(digits);
  return sign && scaled !== 0 ? -scaled : scaled;
}
