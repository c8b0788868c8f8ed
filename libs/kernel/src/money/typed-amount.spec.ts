import { Currency } from './currency';
import { refundableMinor } from './refundable';
import { minorOfWire, typedAmountToMinor } from './wire-money';

describe('amounts a person types, and wire amounts read back', () => {
  it('reads a typed amount exactly in minor units, with a point or a comma, within the currency’s decimals', () => {
    expect(typedAmountToMinor('100.1', Currency.UYU)).toBe(10010);
    expect(typedAmountToMinor(' 1234,5 ', Currency.BRL)).toBe(123450);
    expect(typedAmountToMinor('0.29', Currency.ARS)).toBe(29);
    expect(typedAmountToMinor('1500', Currency.CLP)).toBe(1500);
    expect(typedAmountToMinor('9999999999999.99', Currency.USD)).toBe(999999999999999);
  });

  it('refuses what is not such an amount (a currency without decimals given one, too many decimals, signs, words)', () => {
    for (const [typed, currency] of [
      ['1500.5', Currency.CLP],
      ['1500.', Currency.PYG],
      ['1.234', Currency.UYU],
      ['-5', Currency.UYU],
      ['1e3', Currency.UYU],
      ['', Currency.UYU],
      ['12 000', Currency.UYU],
      ['diez', Currency.UYU],
      ['12345678901234', Currency.UYU],
    ] as const)
      expect([typed, typedAmountToMinor(typed, currency)]).toEqual([typed, null]);
  });

  it('reads a wire amount back in minor units without multiplying floats', () => {
    expect(minorOfWire(100.1, Currency.UYU)).toBe(10010);
    expect(minorOfWire(0.07, Currency.BRL)).toBe(7);
    expect(minorOfWire(1500, Currency.CLP)).toBe(1500);
    expect(() => minorOfWire(0.001, Currency.UYU)).toThrow('is not an amount in UYU');
  });

  it('keeps what is refundable at zero or above, counting refunds that hold their amount', () => {
    expect(refundableMinor(10_000, 2_500, 1_000)).toBe(6_500);
    expect(refundableMinor(10_000, 8_000, 5_000)).toBe(0);
  });
});
