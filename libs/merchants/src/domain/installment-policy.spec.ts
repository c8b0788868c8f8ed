import { Currency, DomainError } from '@pcs/kernel';
import { countryInstallmentPolicy, installmentPolicyFrom, InstallmentPolicyRequest } from './installment-policy';

const CURRENCIES = { URY: [Currency.UYU, Currency.USD], ARG: [Currency.ARS], BRA: [Currency.BRL] } as const;
const read = (request: InstallmentPolicyRequest) => installmentPolicyFrom(request, (country) => CURRENCIES[country]);
const refusal = (request: unknown) => {
  try {
    read(request as InstallmentPolicyRequest);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'ERROR_IN_UPDATE_MERCHANT_CONFIGURATION' });
    return (error as DomainError).message;
  }
  throw new Error('accepted');
};

describe('the installment policy (contract §25)', () => {
  it('reads a country’s maximum, interest-free count and minimum installment in minor units of the country’s currencies', () => {
    expect(
      read({
        ARG: { maxInstallments: 12, interestFreeUpTo: 6, minInstallmentAmount: { ARS: 5000 } },
        BRA: { maxInstallments: 10, interestFreeUpTo: 0 },
      }),
    ).toEqual({
      ARG: { maxInstallments: 12, interestFreeUpTo: 6, minInstallmentAmount: { ARS: 500000 } },
      BRA: { maxInstallments: 10, interestFreeUpTo: 0, minInstallmentAmount: {} },
    });
  });

  it('offers one installment only in a country it does not name', () => {
    expect(countryInstallmentPolicy(read({ ARG: { maxInstallments: 6, interestFreeUpTo: 3 } }), 'BRA')).toEqual({
      maxInstallments: 1,
      interestFreeUpTo: 0,
      minInstallmentAmount: {},
    });
  });

  it('refuses counts outside 1–24, an interest-free count above the maximum, and fractions, naming the field', () => {
    expect(refusal({ ARG: { maxInstallments: 0, interestFreeUpTo: 0 } })).toContain('installments.ARG.maxInstallments');
    expect(refusal({ ARG: { maxInstallments: 25, interestFreeUpTo: 0 } })).toContain('from 1 to 24');
    expect(refusal({ ARG: { maxInstallments: 6.5, interestFreeUpTo: 0 } })).toContain('maxInstallments');
    expect(refusal({ BRA: { maxInstallments: 6, interestFreeUpTo: 7 } })).toContain('installments.BRA.interestFreeUpTo');
    expect(refusal({ BRA: { maxInstallments: 6, interestFreeUpTo: -1 } })).toContain('interestFreeUpTo');
  });

  it('refuses a minimum in a currency the country does not take, a bad amount, and a country without installments', () => {
    expect(refusal({ ARG: { maxInstallments: 6, interestFreeUpTo: 0, minInstallmentAmount: { BRL: 10 } } })).toContain(
      'ARG does not take BRL',
    );
    expect(refusal({ ARG: { maxInstallments: 6, interestFreeUpTo: 0, minInstallmentAmount: { ARS: 0.001 } } })).toContain(
      'minInstallmentAmount.ARS',
    );
    expect(refusal({ ARG: { maxInstallments: 6, interestFreeUpTo: 0, minInstallmentAmount: { ARS: 0 } } })).toContain('greater than zero');
    expect(refusal({ CHL: { maxInstallments: 6, interestFreeUpTo: 0 } })).toContain('CHL is not a country where installments are offered');
  });
});
