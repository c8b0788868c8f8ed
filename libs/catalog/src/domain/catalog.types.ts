import { Currency } from '@pcs/kernel';

/** Reference data, read-only for the service: plain records, no behaviour. */
export interface Country {
  readonly countryId: string;
  readonly name: string;
  readonly nameEs: string;
  readonly iso2: string;
  readonly iso3: string;
  readonly isoNumeric: number;
  readonly currency: string;
  readonly currencies: readonly Currency[];
  readonly phoneCode: number;
  readonly continent: string;
  readonly vatRatesBp: readonly number[];
  readonly defaultVatRateBp: number;
  /** Where the country's business days and payout hours are counted (an IANA zone). */
  readonly timeZone: string;
  /** The tax on fees (VAT on the commission), basis points: Uruguay 2200, Argentina 2100, Brazil 0. */
  readonly feeTaxBp: number;
}

export interface PaymentMethod {
  readonly paymentMethodId: string;
  readonly name: string;
  readonly imagePath: string;
  readonly mayHaveAsyncPayments: boolean;
  readonly mayHavePaymentsLimits: boolean;
  readonly supportsReserve: boolean;
}

export interface PaymentInstrumentType {
  readonly paymentInstrumentTypeId: string;
  readonly name: string;
}

export interface CountryProcessor {
  readonly countryProcessorId: string;
  readonly country: Country;
  readonly paymentMethod: PaymentMethod;
  readonly paymentInstrumentType: PaymentInstrumentType;
  readonly active: boolean;
  readonly currencies: readonly Currency[];
  readonly gateway: string;
  /** Business days from approval until the money is available (0: at approval). */
  readonly settlementDelayDays: number;
  /** What a merchant pays for this processor unless the operator set its own price. */
  readonly defaultPrice: ProcessorPrice;
  /** The smallest amount it collects per currency, minor units (contract §24; none: no catalog minimum). */
  readonly minimumAmount: Readonly<Partial<Record<Currency, number>>>;
}

/** A fixed fee per currency, in minor units; a currency without one pays none. */
export type FixedFees = Readonly<Partial<Record<Currency, number>>>;

/** A price: a percentage (basis points: 3.49% = 349) of what the payer paid, plus a fixed fee per currency. */
export interface ProcessorPrice {
  readonly percentageBp: number;
  readonly fixed: FixedFees;
}

export function allowsVatRate(country: Country, rateBp: number): boolean {
  return country.vatRatesBp.includes(rateBp);
}
