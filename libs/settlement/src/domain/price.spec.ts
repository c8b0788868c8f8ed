import fc from 'fast-check';
import { Currency, MAX_MINOR_UNITS, Money } from '@pcs/kernel';
import { feesOf, percentageToBasisPoints } from './price';

describe('fees (contract §19)', () => {
  it('takes the percentage of what was received plus the fixed fee, then the country’s tax on the fee', () => {
    // 100.00 UYU at 3.49% + 10.00: fee 13.49; VAT 22% of it = 2.9678 → 2.97; net 83.54.
    const fees = feesOf(Money.ofMinor(10_000, Currency.UYU), { percentageBp: 349, fixed: { UYU: 1_000 } }, 2_200);
    expect([fees.fee.minor, fees.feeTax.minor, fees.net.minor]).toEqual([1_349, 297, 8_354]);
    // A currency without a fixed fee pays none; Brazil's fee has no tax.
    const brl = feesOf(Money.ofMinor(12_345, Currency.BRL), { percentageBp: 99, fixed: { UYU: 1_000 } }, 0);
    expect([brl.fee.minor, brl.feeTax.minor, brl.net.minor]).toEqual([122, 0, 12_223]);
    // CLP has no decimals: 4.49% of 1.000 = 44.9 → 45.
    expect(feesOf(Money.ofMinor(1_000, Currency.CLP), { percentageBp: 449, fixed: {} }, 0).fee.minor).toBe(45);
  });

  it('keeps received = fee + tax + net exactly, and rounds each part half away from zero (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: Math.floor(MAX_MINOR_UNITS / 100) }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.constantFrom(0, 2_100, 2_200),
        (received, bp, fixed, taxBp) => {
          const fees = feesOf(Money.ofMinor(received, Currency.ARS), { percentageBp: bp, fixed: { ARS: fixed } }, taxBp);
          expect(fees.fee.minor + fees.feeTax.minor + fees.net.minor).toBe(received);
          const percentagePart = BigInt(fees.fee.minor - fixed) * 10_000n - BigInt(received) * BigInt(bp);
          expect(percentagePart <= 5_000n && percentagePart > -5_000n).toBe(true);
          const tax = BigInt(fees.feeTax.minor) * 10_000n - BigInt(fees.fee.minor) * BigInt(taxBp);
          expect(tax <= 5_000n && tax > -5_000n).toBe(true);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('reads percentages of 0 to 20 with at most two decimals', () => {
    expect(percentageToBasisPoints(3.49)).toBe(349);
    expect(percentageToBasisPoints(0)).toBe(0);
    expect(percentageToBasisPoints(20)).toBe(2_000);
    for (const bad of [20.01, -1, 3.499, Number.NaN, Number.POSITIVE_INFINITY]) expect(percentageToBasisPoints(bad)).toBeNull();
  });
});
