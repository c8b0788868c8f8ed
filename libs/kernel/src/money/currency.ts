/** Currencies the service collects in (specification, enumeration Currency). */
export enum Currency {
  ARS = 'ARS',
  BRL = 'BRL',
  CLP = 'CLP',
  COP = 'COP',
  MXN = 'MXN',
  PEN = 'PEN',
  PYG = 'PYG',
  USD = 'USD',
  UYU = 'UYU',
}

export const CURRENCIES: readonly Currency[] = Object.values(Currency);

/** A currency as its code (what a typed client of the API holds); every Currency is one. */
export type CurrencyCode = `${Currency}`;

/**
 * ISO 4217 minor-unit exponents. CLP and PYG have no minor unit; every other
 * supported currency has cents. This table is the only place that knows it.
 */
const EXPONENTS: Readonly<Record<Currency, number>> = {
  ARS: 2,
  BRL: 2,
  CLP: 0,
  COP: 2,
  MXN: 2,
  PEN: 2,
  PYG: 0,
  USD: 2,
  UYU: 2,
};

export function currencyExponent(currency: Currency | CurrencyCode): number {
  return EXPONENTS[currency as Currency];
}

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}
