import fc from 'fast-check';
import { Currency, currencyExponent } from './currency';
import { decimalToScaledInteger } from './decimal';
import { MAX_MINOR_UNITS, Money, MoneyError } from './money';
import { basisPointsToVatPercentage, vatPercentageToBasisPoints } from './vat-rate';
import { moneyFromWire, wireAmount } from './wire-money';

const currencies = fc.constantFrom(...Object.values(Currency));

function reason(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof MoneyError ? error.reason : 'other';
  }
  return undefined;
}

describe('Money from the wire', () => {
  it('reads decimals exactly, where float arithmetic would drift', () => {
    expect(Money.fromWire(100.1, Currency.UYU).minor).toBe(10010); // 100.1 * 100 = 10009.999999999998
    expect(Money.fromWire(1500.5, Currency.UYU).minor).toBe(150050);
    expect(Money.fromWire(0.29, Currency.USD).minor).toBe(29); // 0.29 * 100 = 28.999999999999996
    expect(Money.fromWire(1234, Currency.CLP).minor).toBe(1234);
  });

  it('refuses more decimals than the currency allows', () => {
    expect(reason(() => Money.fromWire(10.123, Currency.UYU))).toBe('TOO_MANY_DECIMALS');
    expect(reason(() => Money.fromWire(10.5, Currency.CLP))).toBe('TOO_MANY_DECIMALS');
    expect(reason(() => Money.fromWire(1e-7, Currency.USD))).toBe('TOO_MANY_DECIMALS');
  });

  it('refuses zero, negatives, non-finite values and amounts above the maximum', () => {
    expect(reason(() => Money.fromWire(0, Currency.UYU))).toBe('NOT_POSITIVE');
    expect(reason(() => Money.fromWire(-1, Currency.UYU))).toBe('NOT_POSITIVE');
    expect(reason(() => Money.fromWire(Number.NaN, Currency.UYU))).toBe('NOT_A_NUMBER');
    expect(reason(() => Money.fromWire(Number.POSITIVE_INFINITY, Currency.UYU))).toBe('NOT_A_NUMBER');
    expect(reason(() => Money.fromWire(10_000_000_000, Currency.UYU))).toBe('TOO_LARGE');
    expect(reason(() => Money.fromWire(1e21, Currency.PYG))).toBe('TOO_LARGE');
    expect(Money.fromWire(9_999_999_999.99, Currency.UYU).minor).toBe(MAX_MINOR_UNITS);
    expect(Money.fromWire(999_999_999_999, Currency.PYG).minor).toBe(MAX_MINOR_UNITS);
  });

  it('round-trips every valid amount of every currency through the wire (property)', () => {
    fc.assert(
      fc.property(currencies, fc.integer({ min: 1, max: MAX_MINOR_UNITS }), (currency, minor) => {
        const wire = Money.ofMinor(minor, currency).toWire();
        // What a client sends is what JSON carries: serialize and parse like the HTTP layer does.
        const parsed = JSON.parse(JSON.stringify({ amount: wire })).amount as number;
        expect(Money.fromWire(parsed, currency).minor).toBe(minor);
      }),
      { numRuns: 2000 },
    );
  });

  it('never accepts a value that is not a whole number of minor units (property)', () => {
    fc.assert(
      fc.property(currencies, fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 9 }), (currency, minor, extra) => {
        const exponent = currencyExponent(currency);
        const value = Number(`${minor}.${'0'.repeat(exponent)}${extra}`.replace(/^(\d+)\.$/, '$1'));
        expect(reason(() => Money.fromWire(value, currency))).toBe('TOO_MANY_DECIMALS');
      }),
    );
  });
});

describe('Money arithmetic', () => {
  it('refuses to mix currencies', () => {
    expect(reason(() => Money.ofMinor(1, Currency.UYU).plus(Money.ofMinor(1, Currency.USD)))).toBe('CURRENCY_MISMATCH');
  });

  it('splits VAT out of a gross amount, rounding half away from zero', () => {
    // 122.00 UYU at 22%: tax 22.00, subtotal 100.00
    expect(Money.ofMinor(12200, Currency.UYU).splitVat(2200)).toEqual({
      tax: Money.ofMinor(2200, Currency.UYU),
      subtotal: Money.ofMinor(10000, Currency.UYU),
    });
    // 1.00 at 10.5%: 100 * 1050 / 11050 = 9.502... → 10
    expect(Money.ofMinor(100, Currency.ARS).splitVat(1050).tax.minor).toBe(10);
    // exactly half: 21 * 10000 / 20000 = 10.5 → 11
    expect(Money.ofMinor(21, Currency.USD).splitVat(10000).tax.minor).toBe(11);
    expect(Money.ofMinor(999, Currency.BRL).splitVat(0).tax.minor).toBe(0);
  });

  it('VAT split always sums back to the gross amount and stays within bounds (property)', () => {
    fc.assert(
      fc.property(
        currencies,
        fc.integer({ min: 1, max: MAX_MINOR_UNITS }),
        fc.constantFrom(0, 1000, 1050, 2100, 2200, 2700),
        (currency, minor, rate) => {
          const gross = Money.ofMinor(minor, currency);
          const { tax, subtotal } = gross.splitVat(rate);
          expect(tax.plus(subtotal).equals(gross)).toBe(true);
          expect(tax.minor).toBeGreaterThanOrEqual(0);
          // |tax − exact| ≤ ½ minor unit, checked in integers: |2·tax·(10000+r) − 2·gross·r| ≤ 10000+r
          const lhs = BigInt(2 * tax.minor) * BigInt(10000 + rate) - BigInt(2) * BigInt(minor) * BigInt(rate);
          expect((lhs < 0n ? -lhs : lhs) <= BigInt(10000 + rate)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('decimal and VAT rate conversion', () => {
  it('scales exponent notation exactly', () => {
    expect(decimalToScaledInteger(1e21, 0)).toBeNull();
    expect(decimalToScaledInteger(1.5e3, 2)).toBe(150000);
    expect(decimalToScaledInteger(-2.5, 1)).toBe(-25);
  });

  it('holds VAT percentages as basis points', () => {
    expect(vatPercentageToBasisPoints(10.5)).toBe(1050);
    expect(vatPercentageToBasisPoints(22)).toBe(2200);
    expect(vatPercentageToBasisPoints(10.555)).toBeNull();
    expect(vatPercentageToBasisPoints(-1)).toBeNull();
    expect(vatPercentageToBasisPoints(101)).toBeNull();
    expect(basisPointsToVatPercentage(1050)).toBe(10.5);
  });
});

describe('Money at the edges and in proportion', () => {
  it('reads a wire amount for a named field, or refuses it naming that field', () => {
    expect(moneyFromWire('amount', 100.1, Currency.UYU).minor).toBe(10010);
    expect(() => moneyFromWire('tipAmount', 1.001, Currency.UYU)).toThrow(expect.objectContaining({ fields: ['tipAmount'] }));
    expect(() => moneyFromWire('requestedRefundAmount', -1, Currency.USD)).toThrow(/requestedRefundAmount/);
    expect(wireAmount(10010, Currency.UYU)).toBe(100.1);
    expect(wireAmount(500, Currency.CLP)).toBe(500);
  });

  it('takes a proportion rounding down, so shares never exceed the whole (property)', () => {
    expect(Money.ofMinor(1000, Currency.UYU).proportion(1, 3).minor).toBe(333);
    expect(() => Money.ofMinor(1000, Currency.UYU).proportion(4, 3)).toThrow(MoneyError);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_MINOR_UNITS }),
        fc.integer({ min: 1, max: MAX_MINOR_UNITS }),
        fc.nat(),
        (amount, whole, seed) => {
          const part = seed % (whole + 1);
          const share = Money.ofMinor(amount, Currency.USD).proportion(part, whole).minor;
          expect(share).toBeGreaterThanOrEqual(0);
          expect(share).toBeLessThanOrEqual(amount);
          // Exact: share = floor(amount × part / whole).
          expect(BigInt(share)).toBe((BigInt(amount) * BigInt(part)) / BigInt(whole));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('Money rates (fees and the tax on them, contract §19)', () => {
  it('rounds half away from zero to a minor unit', () => {
    // 3.49% of 100.00 UYU = 3.49; of 1.00 = 0.0349 → 0.03; of 15.00 = 0.5235 → 0.52; of 50.00 = 1.745 → 1.75 (half up)
    expect(Money.ofMinor(10_000, Currency.UYU).rateOf(349).minor).toBe(349);
    expect(Money.ofMinor(100, Currency.UYU).rateOf(349).minor).toBe(3);
    expect(Money.ofMinor(1_500, Currency.UYU).rateOf(349).minor).toBe(52);
    expect(Money.ofMinor(5_000, Currency.UYU).rateOf(349).minor).toBe(175);
    expect(Money.ofMinor(-5_000, Currency.UYU).rateOf(349).minor).toBe(-175);
    expect(Money.ofMinor(1, Currency.CLP).rateOf(5_000).minor).toBe(1);
    expect(() => Money.ofMinor(1, Currency.UYU).rateOf(-1)).toThrow(MoneyError);
    expect(() => Money.ofMinor(1, Currency.UYU).rateOf(1.5)).toThrow(MoneyError);
  });

  it('equals the exact rational rounded half away from zero, for any amount and rate (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_MINOR_UNITS, max: MAX_MINOR_UNITS }), fc.integer({ min: 0, max: 10_000 }), (amount, bp) => {
        const share = BigInt(Money.ofMinor(amount, Currency.USD).rateOf(bp).minor);
        // |amount × bp − share × 10000| ≤ 5000, and a tie goes away from zero.
        const error = BigInt(amount) * BigInt(bp) - share * 10_000n;
        expect(error <= 5_000n && error >= -5_000n).toBe(true);
        if (error === 5_000n) expect(amount).toBeLessThan(0);
        if (error === -5_000n) expect(amount).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });
});
