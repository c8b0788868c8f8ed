import { DocumentType, isValidCnpj, isValidCpf, uruguayanCedulaCheckDigit } from '@pcs/kernel';

export type DocumentCheck = { ok: true; number: string } | { ok: false; reason: string; reasonEs: string };

const fail = (reason: string, reasonEs: string): DocumentCheck => ({ ok: false, reason, reasonEs });

/**
 * Checks a document number for its type and country and returns it
 * normalised (separators removed, letters upper-cased):
 * - IDENTITY_DOCUMENT in URY: a cédula with a valid check digit (1.234.567-2 style accepted);
 * - DNI, or IDENTITY_DOCUMENT in ARG: an Argentine DNI of 7 or 8 digits (dots accepted);
 * - IDENTITY_DOCUMENT in BRA: a CPF or a CNPJ with its check digits (530.333.155-50 style accepted): Pix Automático and
 *   dLocal name every Brazilian payer by it;
 * - PASSPORT: 6–20 letters and digits.
 */
export function checkIdentityDocument(type: DocumentType, value: string, countryIso3: string | null): DocumentCheck {
  const raw = value.trim();
  if (type === DocumentType.PASSPORT) {
    const number = raw.toUpperCase();
    return /^[A-Z0-9]{6,20}$/.test(number)
      ? { ok: true, number }
      : fail('a passport number has 6 to 20 letters and digits', 'un número de pasaporte tiene entre 6 y 20 letras y dígitos');
  }
  if (type === DocumentType.DNI || (type === DocumentType.IDENTITY_DOCUMENT && countryIso3 === 'ARG')) {
    if (!/^\d{1,2}\.?\d{3}\.?\d{3}$/.test(raw)) return fail('an Argentine DNI has 7 or 8 digits', 'un DNI argentino tiene 7 u 8 dígitos');
    return { ok: true, number: raw.replace(/\./g, '') };
  }
  if (type === DocumentType.IDENTITY_DOCUMENT && countryIso3 === 'URY') {
    if (!/^(\d{1,3}(\.?\d{3})?)\.?\d{3}[-]?\d$/.test(raw)) {
      return fail(
        'a Uruguayan cédula has 7 or 8 digits, the last one a check digit',
        'una cédula uruguaya tiene 7 u 8 dígitos, el último es el dígito verificador',
      );
    }
    const digits = raw.replace(/[.-]/g, '');
    if (digits.length < 7 || digits.length > 8) {
      return fail(
        'a Uruguayan cédula has 7 or 8 digits, the last one a check digit',
        'una cédula uruguaya tiene 7 u 8 dígitos, el último es el dígito verificador',
      );
    }
    const base = digits.slice(0, -1);
    if (uruguayanCedulaCheckDigit(base) !== Number(digits.slice(-1))) {
      return fail('the check digit of the Uruguayan cédula is wrong', 'el dígito verificador de la cédula uruguaya es incorrecto');
    }
    return { ok: true, number: digits };
  }
  if (type === DocumentType.IDENTITY_DOCUMENT && countryIso3 === 'BRA') {
    const digits = raw.replace(/[\s./-]/g, '');
    return /^\d+$/.test(digits) && (isValidCpf(digits) || isValidCnpj(digits))
      ? { ok: true, number: digits }
      : fail(
          'a Brazilian document is a CPF or a CNPJ with its check digits right',
          'un documento brasileño es un CPF o un CNPJ con sus dígitos verificadores correctos',
        );
  }
  return fail(
    'the country is needed to check an IDENTITY_DOCUMENT (URY, ARG or BRA)',
    'se necesita el país para verificar un IDENTITY_DOCUMENT (URY, ARG o BRA)',
  );
}
