import { InvalidRequestError } from '../errors/domain-error';
import { Currency, CurrencyCode, currencyExponent } from './currency';
import { decimalToScaledInteger } from './decimal';
import { Money, MoneyError } from './money';

/**
 * The one door for amounts coming in: a wire number (major units) of a field
 * becomes Money, or a 400 that names the field. Used by the apps' edges only;
 * library commands take Money.
 */
export function moneyFromWire(field: string, value: number, currency: Currency): Money {
  try {
    return Money.fromWire(value, currency);
  } catch (error) {
    if (error instanceof MoneyError) throw new InvalidRequestError([field], `${field}: ${error.message}`);
    throw error;
  }
}

/** The one door for amounts going out: minor units of a currency as a wire number (major units). */
export function wireAmount(minor: number, currency: Currency | CurrencyCode): number {
  return Money.ofMinor(minor, currency as Currency).toWire();
}

/** Minor units of a wire amount (major units, as the API writes them): exact, never a product of floats. */
export function minorOfWire(amount: number, currency: Currency | CurrencyCode): number {
  const minor = decimalToScaledInteger(amount, currencyExponent(currency));
  if (minor === null) throw new MoneyError('TOO_MANY_DECIMALS', `${amount} is not an amount in ${currency}`);
  return minor;
}

/**
 * An amount a person typed in a form ("1234.5", or "1234,5" as Spanish
 * writes it) in minor units: null unless it is a decimal of at most 13
 * digits before the point and at most the currency's decimals after it
 * (none for CLP and PYG).
 */
export function typedAmountToMinor(typed: string, currency: Currency | CurrencyCode): number | null {
  const text = typed.trim().replace(',', '.');
  const decimals = currencyExponent(currency);
  const shape = decimals === 0 ? /^\d{1,13}$/ : new RegExp(`^\\d{1,13}(\\.\\d{1,${decimals}})?$`);
  if (!shape.test(text)) return null;
  return decimalToScaledInteger(Number(text), decimals);
}
