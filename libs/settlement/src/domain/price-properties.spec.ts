import { Currency, Money, MAX_MINOR_UNITS } from '@pcs/kernel';
import fc from 'fast-check';
import { feesOf, percentageToBasisPoints } from './price';

/**
 * The fees of a payin as properties (contract §19, fast-check): for every amount, price and tax on
 * fees, fee + its tax + net is what was received, each rounded half away from zero once, and a
 * larger payment never pays a smaller fee.
 */
const seed = process.env.PBT_SEED === undefined ? undefined : Number(process.env.PBT_SEED);
const options = { seed, numRuns: 500 };
const price = fc.record({
  percentageBp: fc.integer({ min: 0, max: 2_000 }),
  fixed: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }).map((fee) => (fee === undefined ? {} : { UYU: fee })),
});

describe('fees as properties (fast-check)', () => {
  it('adds fee, tax on the fee and net back to what was received, each rounded once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: Math.floor(MAX_MINOR_UNITS / 10) }),
        price,
        fc.constantFrom(0, 2100, 2200),
        (received, p, taxBp) => {
          const { fee, feeTax, net } = feesOf(Money.ofMinor(received, Currency.UYU), p, taxBp);
          expect(fee.minor + feeTax.minor + net.minor).toBe(received);
          expect(fee.minor).toBe(Money.ofMinor(received, Currency.UYU).rateOf(p.percentageBp).minor + (p.fixed.UYU ?? 0));
          expect(feeTax.minor).toBe(fee.rateOf(taxBp).minor);
        },
      ),
      options,
    );
  });

  it('never charges a larger payment a smaller fee', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.nat(1e6), price, (received, more, p) => {
        const fee = (amount: number) => feesOf(Money.ofMinor(amount, Currency.UYU), p, 2200).fee.minor;
        expect(fee(received + more)).toBeGreaterThanOrEqual(fee(received));
      }),
      options,
    );
  });

  it('reads a percentage of two decimals at most, from 0 to 20', () => {
    fc.assert(
      fc.property(fc.integer({ min: -500, max: 2_500 }), (bp) => {
        const percentage = bp / 100;
        expect(percentageToBasisPoints(percentage)).toBe(bp >= 0 && bp <= 2_000 ? bp : null);
        expect(percentageToBasisPoints(percentage + 0.001)).toBeNull();
      }),
      options,
    );
  });
});
