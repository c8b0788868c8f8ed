/**
 * Tax and identity numbers of the account holders a payout may name, each
 * with its published check digits. Digits only (callers strip separators).
 */

const digitsOf = (value: string) => [...value].map(Number);

/** Brazil's CPF: 11 digits, two mod-11 check digits; a run of one digit is refused (it passes the arithmetic). */
export function isValidCpf(value: string): boolean {
  if (!/^\d{11}$/.test(value) || /^(\d)\1{10}$/.test(value)) return false;
  const d = digitsOf(value);
  const check = (length: number) => {
    const sum = d.slice(0, length).reduce((total, digit, i) => total + digit * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === d[9] && check(10) === d[10];
}

/** Brazil's CNPJ: 14 digits, two mod-11 check digits (weights 5…2 9…2, then 6…2 9…2). */
export function isValidCnpj(value: string): boolean {
  if (!/^\d{14}$/.test(value) || /^(\d)\1{13}$/.test(value)) return false;
  const d = digitsOf(value);
  const check = (weights: number[]) => {
    const rest = weights.reduce((total, weight, i) => total + weight * d[i], 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return check([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === d[12] && check([6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === d[13];
}

/** Argentina's CUIT or CUIL: 11 digits, a mod-11 check digit with weights 5 4 3 2 7 6 5 4 3 2 (a remainder of 1 has no valid digit). */
export function isValidCuit(value: string): boolean {
  if (!/^(20|23|24|27|30|33|34)\d{9}$/.test(value)) return false;
  const d = digitsOf(value);
  const rest = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2].reduce((total, weight, i) => total + weight * d[i], 0) % 11;
  const check = rest === 0 ? 0 : 11 - rest;
  return check !== 10 && check === d[10];
}

/**
 * Uruguayan cédula de identidad: up to 7 digits plus a check digit,
 * (10 − Σ dᵢ·wᵢ mod 10) mod 10 with weights 2 9 8 7 6 3 4 over the base
 * padded to 7 digits.
 */
export function uruguayanCedulaCheckDigit(base: string): number {
  const weights = [2, 9, 8, 7, 6, 3, 4];
  const padded = base.padStart(7, '0');
  const sum = weights.reduce((total, weight, i) => total + weight * Number(padded[i]), 0);
  return (10 - (sum % 10)) % 10;
}

export function isValidUruguayanCedula(value: string): boolean {
  return /^\d{7,8}$/.test(value) && uruguayanCedulaCheckDigit(value.slice(0, -1)) === Number(value.slice(-1));
}

/**
 * Uruguay's RUT (DGI): 12 digits — department 01–21, a six-digit number, 00,
 * and a mod-11 check digit with weights 4 3 2 9 8 7 6 5 4 3 2 (a remainder of
 * 1 has no valid digit).
 */
export function isValidUruguayanRut(value: string): boolean {
  if (!/^\d{12}$/.test(value)) return false;
  const department = Number(value.slice(0, 2));
  if (department < 1 || department > 21 || value.slice(2, 8) === '000000' || value.slice(8, 10) !== '00') return false;
  const d = digitsOf(value);
  const rest = [4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2].reduce((total, weight, i) => total + weight * d[i], 0) % 11;
  const check = rest === 0 ? 0 : 11 - rest;
  return check !== 10 && check === d[11];
}
