import type { CountryProcessor } from './domain/catalog.types';

/** A country processor as the payins API shows it (also inside links and events). */
export function countryProcessorRepresentation(processor: CountryProcessor) {
  return {
    countryProcessorId: processor.countryProcessorId,
    paymentInstrumentTypeId: processor.paymentInstrumentType.paymentInstrumentTypeId,
    paymentInstrumentType: {
      paymentInstrumentTypeId: processor.paymentInstrumentType.paymentInstrumentTypeId,
      paymentInstrumentTypeName: processor.paymentInstrumentType.name,
    },
    paymentMethodId: processor.paymentMethod.paymentMethodId,
    paymentMethod: {
      paymentMethodId: processor.paymentMethod.paymentMethodId,
      paymentMethodName: processor.paymentMethod.name,
      paymentInstrumentTypeId: processor.paymentInstrumentType.paymentInstrumentTypeId,
    },
    active: processor.active,
    currency: [...processor.currencies],
    // Where it collects: its country, its currency and the time zone its business days and local dates are counted in.
    country: {
      countryId: processor.country.countryId,
      iso31663AlphabeticalCode: processor.country.iso3,
      iso4217CurrencyCode: processor.country.currency,
      timeZone: processor.country.timeZone,
    },
  };
}
