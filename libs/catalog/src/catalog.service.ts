import { Injectable } from '@nestjs/common';
import { CatalogRepository } from './catalog.repository';
import { Country, CountryProcessor, PaymentMethod } from './domain/catalog.types';

/**
 * Reference data. It changes only through migrations, so the service keeps
 * it in memory after the first read.
 */
@Injectable()
export class CatalogService {
  private countries?: Promise<Country[]>;
  private processors?: Promise<CountryProcessor[]>;

  constructor(private readonly catalog: CatalogRepository) {}

  async listCountries(): Promise<Country[]> {
    this.countries ??= this.catalog.countries();
    return this.countries.catch((error) => {
      this.countries = undefined;
      throw error;
    });
  }

  async findCountryByIso3(iso3: string): Promise<Country | null> {
    return (await this.listCountries()).find((c) => c.iso3 === iso3) ?? null;
  }

  async findCountryById(countryId: string): Promise<Country | null> {
    return (await this.listCountries()).find((c) => c.countryId === countryId) ?? null;
  }

  async listPaymentMethods(): Promise<PaymentMethod[]> {
    return this.catalog.paymentMethods();
  }

  async listCountryProcessors(): Promise<CountryProcessor[]> {
    this.processors ??= this.catalog.countryProcessors();
    return this.processors.catch((error) => {
      this.processors = undefined;
      throw error;
    });
  }

  async findCountryProcessors(ids: readonly string[]): Promise<CountryProcessor[]> {
    const wanted = new Set(ids);
    return (await this.listCountryProcessors()).filter((p) => wanted.has(p.countryProcessorId));
  }

  async countryProcessorsOfCountry(iso3: string): Promise<CountryProcessor[]> {
    return (await this.listCountryProcessors()).filter((p) => p.country.iso3 === iso3);
  }
}
