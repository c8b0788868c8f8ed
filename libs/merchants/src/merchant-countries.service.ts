import { Injectable } from '@nestjs/common';
import { Country, CountryProcessor } from '@pcs/catalog';
import { Caller, Currency, DomainError, MerchantId } from '@pcs/kernel';
import { MerchantAccess } from './merchant-access';
import { MerchantCountryProcessorService } from './merchant-country-processor.service';

export interface OfferedInstrumentType {
  /** Payment instrument type name (CREDIT_CARD, PIX, ...). */
  readonly name: string;
  readonly currencies: readonly Currency[];
  /** Payment method names offered with this instrument type (VISA, OCA, ...). */
  readonly networks: readonly string[];
}

export interface MerchantCountry {
  readonly country: Country;
  readonly currencies: readonly Currency[];
  readonly instrumentTypes: readonly OfferedInstrumentType[];
}

export interface MerchantCountries {
  readonly merchant: { readonly merchantId: MerchantId; readonly merchantName: string };
  readonly countries: readonly MerchantCountry[];
}

/**
 * Where and how a merchant collects (B2B operations B1–B4): the countries of
 * the processors it offers to payers, each with its currencies, and the
 * instrument types with their networks.
 */
@Injectable()
export class MerchantCountriesService {
  constructor(
    private readonly access: MerchantAccess,
    private readonly processors: MerchantCountryProcessorService,
  ) {}

  async countriesOf(caller: Caller, merchantId?: MerchantId, countryIso3?: string): Promise<MerchantCountries> {
    const id = await this.access.resolveMerchantId(caller, merchantId);
    const merchant = (await this.access.loadVisible(caller, id)).snapshot();
    const offered = await this.processors.offeredCountryProcessors(id);
    const byCountry = new Map<string, CountryProcessor[]>();
    for (const processor of offered) {
      if (countryIso3 && processor.country.iso3 !== countryIso3) continue;
      byCountry.set(processor.country.iso3, [...(byCountry.get(processor.country.iso3) ?? []), processor]);
    }
    if (countryIso3 && !byCountry.has(countryIso3)) throw new DomainError('COUNTRY_NOT_OFFERED');
    const countries = [...byCountry.keys()].sort().map((iso3) => describeCountry(byCountry.get(iso3)!));
    return { merchant: { merchantId: merchant.merchantId, merchantName: merchant.merchantName }, countries };
  }
}

function describeCountry(processors: CountryProcessor[]): MerchantCountry {
  const country = processors[0].country;
  const byType = new Map<string, CountryProcessor[]>();
  for (const processor of processors) {
    const name = processor.paymentInstrumentType.name;
    byType.set(name, [...(byType.get(name) ?? []), processor]);
  }
  const inCountryOrder = (currencies: Iterable<Currency>) => country.currencies.filter((c) => new Set(currencies).has(c));
  return {
    country,
    currencies: inCountryOrder(processors.flatMap((p) => p.currencies)),
    instrumentTypes: [...byType.keys()].sort().map((name) => ({
      name,
      currencies: inCountryOrder(byType.get(name)!.flatMap((p) => p.currencies)),
      networks: [...new Set(byType.get(name)!.map((p) => p.paymentMethod.name))].sort(),
    })),
  };
}
