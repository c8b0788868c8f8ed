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
}

export interface PaymentMethod {
  readonly paymentMethodId: string;
  readonly name: string;
  readonly imagePath: string;
  readonly mayHaveAsyncPayments: boolean;
  readonly mayHavePaymentsLimits: boolean;
  readonly supportsReserve: boolean;
  readonly settlementDelayDays: number;
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
}

export function allowsVatRate(country: Country, rateBp: number): boolean {
  return country.vatRatesBp.includes(rateBp);
}
