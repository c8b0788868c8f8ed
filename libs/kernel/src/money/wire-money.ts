import { InvalidRequestError } from '../errors/domain-error';
import { Currency } from './currency';
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
export function wireAmount(minor: number, currency: Currency): number {
  return Money.ofMinor(minor, currency).toWire();
}
