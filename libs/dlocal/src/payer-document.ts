import { isValidCnpj, isValidCpf, isValidCuit, isValidUruguayanCedula, isValidUruguayanRut } from '@pcs/kernel';

export type DocumentCheck = { ok: true; document: string } | { ok: false; reason: string; reasonEs: string; reasonPt: string };

/** The documents dLocal takes from payers in each country (its country reference), as our messages name them. */
export const DOCUMENTS_SERVED: Readonly<
  Record<string, { en: string; es: string; pt: string; label: { en: string; es: string; pt: string } }>
> = {
  URY: {
    en: 'a cédula (CI) or a RUT',
    es: 'una cédula (CI) o un RUT',
    pt: 'uma cédula (CI) ou um RUT',
    label: { en: 'Cédula (CI) or RUT', es: 'Cédula (CI) o RUT', pt: 'Cédula (CI) ou RUT' },
  },
  ARG: {
    en: 'a DNI, or a CUIT or CUIL',
    es: 'un DNI, o un CUIT o CUIL',
    pt: 'um DNI, ou um CUIT ou CUIL',
    label: { en: 'DNI, CUIT or CUIL', es: 'DNI, CUIT o CUIL', pt: 'DNI, CUIT ou CUIL' },
  },
  BRA: {
    en: 'a CPF or a CNPJ',
    es: 'un CPF o un CNPJ',
    pt: 'um CPF ou um CNPJ',
    label: { en: 'CPF or CNPJ', es: 'CPF o CNPJ', pt: 'CPF ou CNPJ' },
  },
};

/**
 * A payer's document as dLocal takes it in the country (digits only), with
 * its check digits verified where it has them: Uruguay a cédula or a RUT,
 * Argentina a DNI (7 or 8 digits) or a CUIT/CUIL, Brazil a CPF or a CNPJ.
 * A passport serves nowhere. Dots, dashes, slashes and spaces are ignored.
 */
export function checkPayerDocument(country: string, given: string | null, documentType?: string | null): DocumentCheck {
  const served = DOCUMENTS_SERVED[country];
  const refuse = (en: string, es: string, pt: string): DocumentCheck => ({ ok: false, reason: en, reasonEs: es, reasonPt: pt });
  if (!served)
    return refuse(
      `dLocal collects in Uruguay, Argentina and Brazil, not ${country}`,
      `dLocal cobra en Uruguay, Argentina y Brasil, no en ${country}`,
      `o dLocal cobra no Uruguai, na Argentina e no Brasil, não em ${country}`,
    );
  if (!given || !given.trim())
    return refuse(
      `the payer has no identity document; in ${country}, ${served.en}`,
      `el pagador no tiene documento de identidad; en ${country}, ${served.es}`,
      `o pagador não tem documento de identidade; em ${country}, ${served.pt}`,
    );
  if (documentType === 'PASSPORT')
    return refuse(
      `a passport does not serve; in ${country}, ${served.en}`,
      `un pasaporte no sirve; en ${country}, ${served.es}`,
      `um passaporte não serve; em ${country}, ${served.pt}`,
    );
  const digits = given.replace(/[\s./-]/g, '');
  const valid =
    country === 'URY'
      ? isValidUruguayanCedula(digits) || isValidUruguayanRut(digits)
      : country === 'ARG'
        ? /^\d{7,8}$/.test(digits) || isValidCuit(digits)
        : isValidCpf(digits) || isValidCnpj(digits);
  return valid
    ? { ok: true, document: digits }
    : refuse(
        `the document is not ${served.en} with its check digits right`,
        `el documento no es ${served.es} con sus dígitos verificadores correctos`,
        `o documento não é ${served.pt} com os dígitos verificadores corretos`,
      );
}
