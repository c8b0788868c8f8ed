/**
 * Argentine CBU (Clave Bancaria Uniforme) and CVU (Clave Virtual Uniforme,
 * the same layout for accounts at payment service providers, bank code 000):
 * 22 digits in two blocks, each ending in a check digit. Block one: bank (3)
 * + branch (4) + check, weights 7 1 3 9 7 1 3. Block two: account (13) +
 * check, weights 3 9 7 1 3 9 7 1 3 9 7 1 3 (BCRA, Comunicación "A" 2575).
 */
function blockCheckDigit(digits: string, weights: number[]): number {
  const sum = weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  return (10 - (sum % 10)) % 10;
}

export function isValidCbu(value: string): boolean {
  if (!/^\d{22}$/.test(value)) return false;
  const first = value.slice(0, 8);
  const second = value.slice(8);
  return (
    blockCheckDigit(first, [7, 1, 3, 9, 7, 1, 3]) === Number(first[7]) &&
    blockCheckDigit(second, [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3]) === Number(second[13])
  );
}

/** The BCRA entity code a CBU starts with (000 for a CVU). */
export function cbuBankCode(cbu: string): string {
  return cbu.slice(0, 3);
}

/** A CBU alias: 6 to 20 letters, digits, dots or hyphens. */
export function isValidCbuAlias(value: string): boolean {
  return /^[A-Za-z0-9.-]{6,20}$/.test(value);
}

/** Builds a valid CBU from its bank, branch and account parts (for examples and tests). */
export function cbuFrom(bankBranch7: string, account13: string): string {
  const first = bankBranch7 + blockCheckDigit(bankBranch7, [7, 1, 3, 9, 7, 1, 3]);
  const second = account13 + blockCheckDigit(account13, [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3]);
  return first + second;
}
