import fc from 'fast-check';
import { sandboxInstallmentPlans } from './sandbox-installments';

const quote = (country: string, amount: number, interestFreeUpTo: number, instrumentType = 'CREDIT_CARD') =>
  sandboxInstallmentPlans({ method: { country, instrumentType, paymentMethod: 'VISA' }, amount, interestFreeUpTo });

describe('the sandbox’s installment table (contract §25, docs/money.md)', () => {
  it('quotes ARS 120,000.00 in 6 interest-free installments: the payer pays the amount, the merchant 7.5 % financing', () => {
    const six = quote('ARG', 12_000_000, 6).find((p) => p.installments === 6);
    expect(six).toEqual({ installments: 6, installmentAmount: 2_000_000, totalAmount: 12_000_000, merchantFinancingFee: 900_000 });
  });

  it('quotes 12 installments with interest: 27.5 % more for the payer, nothing for the merchant', () => {
    const twelve = quote('ARG', 12_000_000, 6).find((p) => p.installments === 12);
    expect(twelve).toEqual({ installments: 12, installmentAmount: 1_275_000, totalAmount: 15_300_000, merchantFinancingFee: null });
  });

  it('offers 1–3, 6, 9, 12 in Uruguay and up to 24 in Argentina and Brazil; one payment for anything but a credit card', () => {
    expect(quote('URY', 100_000, 0).map((p) => p.installments)).toEqual([1, 2, 3, 6, 9, 12]);
    expect(quote('BRA', 100_000, 0).map((p) => p.installments)).toEqual([1, 2, 3, 6, 9, 12, 18, 24]);
    expect(quote('ARG', 100_000, 0, 'DEBIT_CARD')).toEqual([
      { installments: 1, installmentAmount: 100_000, totalAmount: 100_000, merchantFinancingFee: 0 },
    ]);
  });

  it('rounds half up to the minor unit, the same answer every time', () => {
    const plans = quote('URY', 100_001, 0);
    expect(plans.find((p) => p.installments === 3)).toEqual({
      installments: 3,
      installmentAmount: 35_000,
      totalAmount: 105_001,
      merchantFinancingFee: null,
    });
    expect(quote('URY', 100_001, 0)).toEqual(plans);
  });
});

describe('the sandbox’s installment splits as properties (fast-check)', () => {
  const seed = process.env.PBT_SEED === undefined ? undefined : Number(process.env.PBT_SEED);
  it('never lets the payer pay less than the amount, splits it within a cent per installment, and charges the merchant only for interest-free plans', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e11 }),
        fc.constantFrom('URY', 'ARG', 'BRA'),
        fc.integer({ min: 0, max: 24 }),
        (amount, country, interestFreeUpTo) => {
          for (const plan of sandboxInstallmentPlans({
            method: { country, instrumentType: 'CREDIT_CARD', paymentMethod: 'VISA' },
            amount,
            interestFreeUpTo,
          })) {
            const interestFree = plan.installments <= Math.max(1, interestFreeUpTo);
            expect(plan.totalAmount).toBe(interestFree ? amount : plan.totalAmount);
            expect(plan.totalAmount).toBeGreaterThanOrEqual(amount);
            expect(Math.abs(plan.installmentAmount * plan.installments - plan.totalAmount)).toBeLessThanOrEqual(plan.installments);
            expect(plan.merchantFinancingFee === null).toBe(!interestFree);
            if (plan.installments === 1)
              expect(plan).toMatchObject({ totalAmount: amount, installmentAmount: amount, merchantFinancingFee: 0 });
          }
        },
      ),
      { seed, numRuns: 300 },
    );
  });
});
