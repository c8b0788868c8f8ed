import { Country, CountryProcessor, PaymentMethod } from './domain/catalog.types';

/** Where the reference data is kept (port; the TypeORM adapter is in persistence/). Read-only: it changes through migrations. */
export abstract class CatalogRepository {
  /** Every country, by ISO alpha-3 code. */
  abstract countries(): Promise<Country[]>;
  /** Every payment method, by name. */
  abstract paymentMethods(): Promise<PaymentMethod[]>;
  /** Every country processor with its country, method and instrument type. */
  abstract countryProcessors(): Promise<CountryProcessor[]>;
}
