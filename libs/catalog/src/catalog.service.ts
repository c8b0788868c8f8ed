import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Country, CountryProcessor, PaymentMethod } from './domain/catalog.types';
import { toCountry, toCountryProcessor, toPaymentMethod } from './persistence/catalog.mapper';
import { CountryOrmEntity } from './persistence/country.orm-entity';
import { CountryProcessorOrmEntity } from './persistence/country-processor.orm-entity';
import { PaymentMethodOrmEntity } from './persistence/payment-method.orm-entity';

const PROCESSOR_RELATIONS = { country: true, paymentMethod: true, paymentInstrumentType: true } as const;

/**
 * Reference data. It changes only through migrations, so the service keeps
 * it in memory after the first read.
 */
@Injectable()
export class CatalogService {
  private countries?: Promise<Country[]>;
  private processors?: Promise<CountryProcessor[]>;

  constructor(
    @InjectRepository(CountryOrmEntity) private readonly countryRows: Repository<CountryOrmEntity>,
    @InjectRepository(PaymentMethodOrmEntity) private readonly methodRows: Repository<PaymentMethodOrmEntity>,
    @InjectRepository(CountryProcessorOrmEntity) private readonly processorRows: Repository<CountryProcessorOrmEntity>,
  ) {}

  async listCountries(): Promise<Country[]> {
    this.countries ??= this.countryRows.find({ order: { iso3: 'ASC' } }).then((rows) => rows.map(toCountry));
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
    const rows = await this.methodRows.find({ order: { name: 'ASC' } });
    return rows.map(toPaymentMethod);
  }

  async listCountryProcessors(): Promise<CountryProcessor[]> {
    this.processors ??= this.processorRows
      .find({ relations: PROCESSOR_RELATIONS, order: { countryId: 'ASC', paymentMethodId: 'ASC' } })
      .then((rows) => rows.map(toCountryProcessor));
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
