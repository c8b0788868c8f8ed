import { Currency, currencyExponent } from './currency';
import { decimalToScaledInteger, scaledIntegerToDecimal } from './decimal';

/** Upper bound of any amount the service accepts, in minor units (contract §8). */
export const MAX_MINOR_UNITS = 999_999_999_999;

export class MoneyError extends Error {
  constructor(
    readonly reason: 'NOT_A_NUMBER' | 'TOO_MANY_DECIMALS' | 'NOT_POSITIVE' | 'TOO_LARGE' | 'CURRENCY_MISMATCH',
    message: string,
  ) {
    super(message);
  }
}

/**
 * An amount of one currency in integer minor units. Arithmetic goes through
 * these methods only; they refuse to mix currencies and never use floats.
 */
export class Money {
  private constructor(
    readonly minor: number,
    readonly currency: Currency,
  ) {}

  static ofMinor(minor: number, currency: Currency): Money {
    if (!Number.isSafeInteger(minor)) throw new MoneyError('NOT_A_NUMBER', `minor units must be an integer, got ${minor}`);
    return new Money(minor, currency);
  }

  static zero(currency: Currency): Money {
    return new Money(0, currency);
  }

  /**
   * Reads a wire amount (a JSON number in major units). Refuses non-finite
   * values, more decimals than the currency has, zero, negatives and amounts
   * above MAX_MINOR_UNITS, each with its own reason.
   */
  static fromWire(value: number, currency: Currency): Money {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new MoneyError('NOT_A_NUMBER', 'amount must be a finite number');
    }
    const exponent = currencyExponent(currency);
    if (value <= 0) throw new MoneyError('NOT_POSITIVE', 'amount must be greater than zero');
    // A bound check on the double is safe: the limit itself is exactly representable
    // as the nearest double of its decimal, and anything above it is refused.
    const maximum = scaledIntegerToDecimal(MAX_MINOR_UNITS, exponent);
    if (value > maximum) throw new MoneyError('TOO_LARGE', `amount exceeds the maximum of ${maximum} ${currency}`);
    const minor = decimalToScaledInteger(value, exponent);
    if (minor === null) {
      throw new MoneyError('TOO_MANY_DECIMALS', `${currency} amounts allow at most ${exponent} decimal places`);
    }
    if (minor === 0) throw new MoneyError('NOT_POSITIVE', 'amount must be greater than zero');
    return new Money(minor, currency);
  }

  /** The wire representation: a JSON number in major units. */
  toWire(): number {
    return scaledIntegerToDecimal(this.minor, currencyExponent(this.currency));
  }

  plus(other: Money): Money {
    this.assertSameCurrency(other);
    return Money.ofMinor(this.minor + other.minor, this.currency);
  }

  minus(other: Money): Money {
    this.assertSameCurrency(other);
    return Money.ofMinor(this.minor - other.minor, this.currency);
  }

  isZero(): boolean {
    return this.minor === 0;
  }

  isGreaterThan(other: Money): boolean {
    this.assertSameCurrency(other);
    return this.minor > other.minor;
  }

  equals(other: Money): boolean {
    return this.currency === other.currency && this.minor === other.minor;
  }

  /**
   * Splits a VAT-inclusive gross amount (contract §8):
   * tax = round(gross × v / (100 + v)) half away from zero, in minor units.
   * The rate arrives in basis points (22% = 2200) so the division is exact
   * integer arithmetic: tax = round(gross × bp / (10000 + bp)).
   */
  splitVat(rateBasisPoints: number): { subtotal: Money; tax: Money } {
    if (!Number.isSafeInteger(rateBasisPoints) || rateBasisPoints < 0) {
      throw new MoneyError('NOT_A_NUMBER', 'VAT rate must be a non-negative integer of basis points');
    }
    const numerator = BigInt(this.minor) * BigInt(rateBasisPoints);
    const denominator = BigInt(10_000 + rateBasisPoints);
    const quotient = numerator / denominator;
    const remainder = numerator % denominator;
    // Half away from zero; amounts here are non-negative, so "away" is "up".
    const tax = Number(remainder * 2n >= denominator ? quotient + 1n : quotient);
    return { tax: Money.ofMinor(tax, this.currency), subtotal: Money.ofMinor(this.minor - tax, this.currency) };
  }

  /**
   * This amount's share `part / whole`, rounded down to a minor unit (a
   * refund's tip or tax share: what is left of the split goes to the
   * subtotal, so the parts always add back to the whole). Integer arithmetic.
   */
  proportion(part: number, whole: number): Money {
    if (!Number.isSafeInteger(part) || !Number.isSafeInteger(whole) || part < 0 || whole <= 0 || part > whole) {
      throw new MoneyError('NOT_A_NUMBER', 'a proportion is part / whole with 0 <= part <= whole and whole > 0');
    }
    return Money.ofMinor(Number((BigInt(this.minor) * BigInt(part)) / BigInt(whole)), this.currency);
  }

  /**
   * A rate of this amount, the rate in basis points (hundredths of a percent:
   * 3.49% = 349), rounded half away from zero to a minor unit (contract §8's
   * rounding; a fee and the tax on it, §19). Integer arithmetic.
   */
  rateOf(basisPoints: number): Money {
    if (!Number.isSafeInteger(basisPoints) || basisPoints < 0) {
      throw new MoneyError('NOT_A_NUMBER', 'a rate must be a non-negative integer of basis points');
    }
    const numerator = BigInt(this.minor) * BigInt(basisPoints);
    const magnitude = numerator < 0n ? -numerator : numerator;
    const rounded = (magnitude + 5_000n) / 10_000n;
    return Money.ofMinor(Number(numerator < 0n ? -rounded : rounded), this.currency);
  }

  /** Whether the amount stays within the largest amount the service accepts (MAX_MINOR_UNITS). */
  isWithinLimit(): boolean {
    return this.minor <= MAX_MINOR_UNITS;
  }

  private assertSameCurrency(other: Money): void {
    if (other.currency !== this.currency) {
      throw new MoneyError('CURRENCY_MISMATCH', `cannot combine ${this.currency} and ${other.currency}`);
    }
  }
}
