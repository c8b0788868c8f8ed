import fc from 'fast-check';
import { Currency, currencyExponent } from './currency';
import { decimalTextToScaledInteger, decimalToScaledInteger, scaledIntegerToDecimal } from './decimal';
import { disputeDebit, DisputeHold, ProcessorMadeRefund } from './dispute-debit';
import { MAX_MINOR_UNITS, Money } from './money';
import { refundableMinor } from './refundable';
import { minorOfWire } from './wire-money';

/**
 * The pure money functions as properties (fast-check): what each must hold for every amount, not
 * only for the examples of money.spec.ts. `PBT_SEED` replays a failure fast-check prints.
 */
const seed = process.env.PBT_SEED === undefined ? undefined : Number(process.env.PBT_SEED);
const options = { seed, numRuns: 500 };
const currency = fc.constantFrom(...(Object.values(Currency) as Currency[]));
const minor = fc.integer({ min: 1, max: MAX_MINOR_UNITS });
const basisPoints = fc.integer({ min: 0, max: 10_000 });

/** Exact rounding half away from zero of a rational n / d (d > 0), as §8 defines it, in big integers. */
function roundHalfAway(n: bigint, d: bigint): bigint {
  const magnitude = n < 0n ? -n : n;
  const q = magnitude / d;
  const rounded = (magnitude % d) * 2n >= d ? q + 1n : q;
  return n < 0n ? -rounded : rounded;
}

describe('money as properties (fast-check)', () => {
  it('crosses the wire and back unchanged, in every currency’s exponent, and never reads more decimals than it has', () => {
    fc.assert(
      fc.property(currency, minor, (c, m) => {
        const wire = Money.ofMinor(m, c).toWire();
        expect(Money.fromWire(wire, c).minor).toBe(m);
        expect(minorOfWire(wire, c)).toBe(m);
        expect(decimalToScaledInteger(wire, currencyExponent(c))).toBe(m);
        // One more decimal than the currency has is refused, never rounded.
        const finer = scaledIntegerToDecimal(m * 10 + 1, currencyExponent(c) + 1);
        expect(decimalToScaledInteger(finer, currencyExponent(c))).toBeNull();
        expect(() => Money.fromWire(finer, c)).toThrow();
      }),
      options,
    );
  });

  it('reads a command’s decimal text exactly or not at all: digits and a point, the sign only where it belongs', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_MINOR_UNITS, max: MAX_MINOR_UNITS }), fc.integer({ min: 0, max: 3 }), (m, scale) => {
        const text = scaledIntegerToDecimal(m, scale).toFixed(scale);
        expect(decimalTextToScaledInteger(text, scale, { signed: true })).toBe(m);
        expect(decimalTextToScaledInteger(text, scale)).toBe(m < 0 ? null : m);
        // The same number written another way is no number here.
        for (const other of [`+${text}`, `${text}e0`, `0x${Math.abs(m).toString(16)}`, ` ${text}`, `${text},`])
          expect(decimalTextToScaledInteger(other, scale, { signed: true })).toBeNull();
        // Trailing zeros beyond the scale are the same amount; a digit beyond it is refused.
        expect(decimalTextToScaledInteger(`${text}${scale === 0 ? '.' : ''}0`, scale, { signed: true })).toBe(m);
        expect(decimalTextToScaledInteger(`${text}${scale === 0 ? '.' : ''}5`, scale, { signed: true })).toBeNull();
      }),
      options,
    );
  });

  it('rounds a fee (a rate of an amount) half away from zero, exactly, and a larger amount never pays a smaller fee', () => {
    fc.assert(
      fc.property(minor, basisPoints, fc.nat(1_000_000), (m, bp, more) => {
        const fee = Money.ofMinor(m, Currency.UYU).rateOf(bp).minor;
        expect(BigInt(fee)).toBe(roundHalfAway(BigInt(m) * BigInt(bp), 10_000n));
        if (m + more <= MAX_MINOR_UNITS) expect(Money.ofMinor(m + more, Currency.UYU).rateOf(bp).minor).toBeGreaterThanOrEqual(fee);
      }),
      options,
    );
  });

  it('splits VAT out of a gross amount so that subtotal + tax is the gross, the tax rounded half up', () => {
    fc.assert(
      fc.property(minor, fc.integer({ min: 0, max: 5_000 }), (m, bp) => {
        const { subtotal, tax } = Money.ofMinor(m, Currency.UYU).splitVat(bp);
        expect(subtotal.minor + tax.minor).toBe(m);
        expect(BigInt(tax.minor)).toBe(roundHalfAway(BigInt(m) * BigInt(bp), BigInt(10_000 + bp)));
      }),
      options,
    );
  });

  it('never lets more be refunded than was received less what is refunded and disputed, nor less than nothing', () => {
    fc.assert(
      fc.property(minor, fc.nat(MAX_MINOR_UNITS), fc.nat(MAX_MINOR_UNITS), (received, refunded, disputed) => {
        const left = refundableMinor(received, refunded, disputed);
        expect(left).toBeGreaterThanOrEqual(0);
        expect(left).toBeLessThanOrEqual(received);
        expect(left + refunded + disputed).toBeGreaterThanOrEqual(received);
      }),
      options,
    );
  });

  it('debits a dispute what its processor takes: at most its amount, never what the payer already got back, nothing when won (contract §28)', () => {
    const refunds = fc.array(
      fc.record({ amount: fc.integer({ min: 1, max: 50_000 }), settlesDisputeId: fc.constantFrom<string | null>(null, null, 'dp') }),
      { maxLength: 4 },
    );
    const status = fc.constantFrom<DisputeHold['status']>('NEEDS_RESPONSE', 'UNDER_REVIEW', 'WON', 'LOST', 'ACCEPTED');
    const other = fc.record({
      disputeId: fc.constant('other'),
      status,
      amount: fc.integer({ min: 1, max: 50_000 }),
      settledByRefund: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        status,
        refunds,
        fc.option(other, { nil: undefined }),
        (received, amount, s, made: ProcessorMadeRefund[], second) => {
          const dispute = { disputeId: 'dp', status: s, amount };
          const debit = disputeDebit(dispute, received, made, second ? [second] : []);
          if (s === 'WON') return expect(debit).toBe(0);
          const refundedBefore = made.filter((r) => r.settlesDisputeId !== 'dp').reduce((sum, r) => sum + r.amount, 0);
          expect(debit).toBeGreaterThanOrEqual(0);
          expect(debit).toBeLessThanOrEqual(amount);
          expect(debit + refundedBefore).toBeLessThanOrEqual(Math.max(received, refundedBefore));
          // With nothing refunded and no other dispute, the processor takes the disputed amount up to what was received.
          if (made.length === 0 && !second) expect(debit).toBe(Math.min(amount, received));
          // A refund that ended this very claim is the claim's money: it lowers nothing.
          const own = made.filter((r) => r.settlesDisputeId === 'dp');
          if (own.length > 0)
            expect(
              disputeDebit(
                dispute,
                received,
                made.filter((r) => r.settlesDisputeId !== 'dp'),
                second ? [second] : [],
              ),
            ).toBe(debit);
        },
      ),
      options,
    );
  });
});
