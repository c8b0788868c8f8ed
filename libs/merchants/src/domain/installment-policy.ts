import { Currency, CURRENCIES, DomainError, Money, MoneyError } from '@pcs/kernel';

/** The countries where a merchant may offer installments (contract §25). */
export const INSTALLMENT_COUNTRIES = ['URY', 'ARG', 'BRA'] as const;
export type InstallmentCountry = (typeof INSTALLMENT_COUNTRIES)[number];
export const MAX_INSTALLMENTS = 24;

/**
 * A merchant's installments in one country (contract §25): the most installments a payer may
 * choose, up to how many the merchant pays the interest itself ("sin interés": the processor
 * charges it a financing fee instead), and per currency the least each installment may be
 * (minor units). One installment is always offered and is no plan at all.
 */
export interface CountryInstallmentPolicy {
  readonly maxInstallments: number;
  readonly interestFreeUpTo: number;
  readonly minInstallmentAmount: Readonly<Partial<Record<Currency, number>>>;
}

/** Per country; a country absent offers one installment only (the default). */
export type InstallmentPolicy = Readonly<Partial<Record<InstallmentCountry, CountryInstallmentPolicy>>>;

/** The policy as the configuration request sends it: minimum amounts are wire amounts (major units). */
export interface CountryInstallmentPolicyRequest {
  readonly maxInstallments: number;
  readonly interestFreeUpTo: number;
  readonly minInstallmentAmount?: Readonly<Record<string, number>>;
}
export type InstallmentPolicyRequest = Readonly<Partial<Record<InstallmentCountry, CountryInstallmentPolicyRequest>>>;

function invalid(reason: string, reasonEs: string): DomainError {
  return new DomainError('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION', reason, { reason, reasonEs });
}

/**
 * Reads a requested policy. `currenciesOf` says which currencies a country takes: a minimum in
 * another currency, a count outside 1–24, an interest-free count above the maximum, or a country
 * where installments are not offered is refused, naming the field.
 */
export function installmentPolicyFrom(
  request: InstallmentPolicyRequest,
  currenciesOf: (country: InstallmentCountry) => readonly Currency[],
): InstallmentPolicy {
  const policy: Partial<Record<InstallmentCountry, CountryInstallmentPolicy>> = {};
  for (const [country, entry] of Object.entries(request) as [string, CountryInstallmentPolicyRequest | undefined][]) {
    if (entry === undefined) continue;
    const iso3 = INSTALLMENT_COUNTRIES.find((c) => c === country);
    if (!iso3)
      throw invalid(
        `installments: ${country} is not a country where installments are offered (${INSTALLMENT_COUNTRIES.join(', ')})`,
        `installments: ${country} no es un país donde se ofrecen cuotas (${INSTALLMENT_COUNTRIES.join(', ')})`,
      );
    const field = `installments.${iso3}`;
    if (!Number.isInteger(entry.maxInstallments) || entry.maxInstallments < 1 || entry.maxInstallments > MAX_INSTALLMENTS)
      throw invalid(
        `${field}.maxInstallments must be a whole number from 1 to ${MAX_INSTALLMENTS}`,
        `${field}.maxInstallments debe ser un número entero de 1 a ${MAX_INSTALLMENTS}`,
      );
    if (!Number.isInteger(entry.interestFreeUpTo) || entry.interestFreeUpTo < 0 || entry.interestFreeUpTo > entry.maxInstallments)
      throw invalid(
        `${field}.interestFreeUpTo must be a whole number from 0 to maxInstallments (${entry.maxInstallments})`,
        `${field}.interestFreeUpTo debe ser un número entero de 0 a maxInstallments (${entry.maxInstallments})`,
      );
    const minInstallmentAmount: Partial<Record<Currency, number>> = {};
    for (const [currency, amount] of Object.entries(entry.minInstallmentAmount ?? {})) {
      if (!(CURRENCIES as readonly string[]).includes(currency) || !currenciesOf(iso3).includes(currency as Currency))
        throw invalid(
          `${field}.minInstallmentAmount: ${iso3} does not take ${currency}`,
          `${field}.minInstallmentAmount: ${iso3} no admite ${currency}`,
        );
      let minor: number;
      try {
        // Above zero, in the currency's decimals.
        minor = Money.fromWire(amount, currency as Currency).minor;
      } catch (error) {
        if (!(error instanceof MoneyError)) throw error;
        throw invalid(
          `${field}.minInstallmentAmount.${currency}: ${error.message}`,
          `${field}.minInstallmentAmount.${currency} no es un monto válido`,
        );
      }
      minInstallmentAmount[currency as Currency] = minor;
    }
    policy[iso3] = { maxInstallments: entry.maxInstallments, interestFreeUpTo: entry.interestFreeUpTo, minInstallmentAmount };
  }
  return policy;
}

/** The policy of a country: its entry, or one installment only. */
export function countryInstallmentPolicy(policy: InstallmentPolicy, country: string): CountryInstallmentPolicy {
  return policy[country as InstallmentCountry] ?? { maxInstallments: 1, interestFreeUpTo: 0, minInstallmentAmount: {} };
}
