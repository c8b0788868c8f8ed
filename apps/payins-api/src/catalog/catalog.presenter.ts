import { RuntimeSettings } from '@pcs/config';
import { Country, CountryProcessor, countryProcessorRepresentation, PaymentMethod } from '@pcs/catalog';
import { basisPointsToVatPercentage } from '@pcs/kernel';
import { CountryProcessorResponse, CountryResponse, PaymentMethodSummaryResponse } from './catalog.responses';

export function presentCountry(country: Country): CountryResponse {
  return {
    countryId: country.countryId,
    name: country.name,
    nameEs: country.nameEs,
    iso31662AlphabeticalCode: country.iso2,
    iso31663AlphabeticalCode: country.iso3,
    iso3166NumericCode: country.isoNumeric,
    iso4217CurrencyCode: country.currency,
    phoneCode: country.phoneCode,
    continent: country.continent,
    vatPercentage: country.vatRatesBp.map(basisPointsToVatPercentage),
    currency: [...country.currencies],
    timeZone: country.timeZone,
  };
}

export function presentPaymentMethod(method: PaymentMethod, settings: RuntimeSettings): PaymentMethodSummaryResponse {
  return {
    paymentMethodId: method.paymentMethodId,
    paymentMethodName: method.name,
    imageUrl: `${settings.publicBaseUrl}${method.imagePath}`,
    mayHaveAsyncPayments: method.mayHaveAsyncPayments,
    mayHavePaymentsLimits: method.mayHavePaymentsLimits,
    supportsReserve: method.supportsReserve,
  };
}

export function presentCountryProcessor(processor: CountryProcessor): CountryProcessorResponse {
  return countryProcessorRepresentation(processor);
}
