import { isValidCnpj, isValidCpf } from './tax-ids';

export type PixKeyKind = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';

/**
 * The kind of a PIX key as the Central Bank's directory (DICT) writes keys:
 * a CPF (11 digits) or CNPJ (14 digits) with valid check digits, an e-mail
 * of at most 77 characters, a Brazilian mobile number as +55 and 10 or 11
 * digits, or a random key (EVP: a lower-case UUID). Null when it is none.
 */
export function pixKeyKind(value: string): PixKeyKind | null {
  if (/^\d{11}$/.test(value)) return isValidCpf(value) ? 'CPF' : null;
  if (/^\d{14}$/.test(value)) return isValidCnpj(value) ? 'CNPJ' : null;
  if (/^\+55[1-9]\d{9,10}$/.test(value)) return 'PHONE';
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(value)) return 'EVP';
  if (
    value.length <= 77 &&
    /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/.test(value)
  )
    return 'EMAIL';
  return null;
}
