import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CatalogRepository } from '../catalog.repository';
import { Country, CountryProcessor, PaymentMethod } from '../domain/catalog.types';
import { toCountry, toCountryProcessor, toPaymentMethod } from './catalog.mapper';
import { CountryOrmEntity } from './country.orm-entity';
import { CountryProcessorOrmEntity } from './country-processor.orm-entity';
import { PaymentMethodOrmEntity } from './payment-method.orm-entity';

const PROCESSOR_RELATIONS = { country: true, paymentMethod: true, paymentInstrumentType: true } as const;

@Injectable()
export class TypeOrmCatalogRepository extends CatalogRepository {
  constructor(
    @InjectRepository(CountryOrmEntity) private readonly countryRows: Repository<CountryOrmEntity>,
    @InjectRepository(PaymentMethodOrmEntity) private readonly methodRows: Repository<PaymentMethodOrmEntity>,
    @InjectRepository(CountryProcessorOrmEntity) private readonly processorRows: Repository<CountryProcessorOrmEntity>,
  ) {
    super();
  }

  async countries(): Promise<Country[]> {
    return (await this.countryRows.find({ order: { iso3: 'ASC' } })).map(toCountry);
  }

  async paymentMethods(): Promise<PaymentMethod[]> {
    return (await this.methodRows.find({ order: { name: 'ASC' } })).map(toPaymentMethod);
  }

  async countryProcessors(): Promise<CountryProcessor[]> {
    const rows = await this.processorRows.find({ relations: PROCESSOR_RELATIONS, order: { countryId: 'ASC', paymentMethodId: 'ASC' } });
    return rows.map(toCountryProcessor);
  }
}
