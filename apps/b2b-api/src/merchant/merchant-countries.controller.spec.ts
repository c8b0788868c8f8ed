import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import type { PipeTransform } from '@nestjs/common';
import { asBusinessId, asMerchantId, Caller, InvalidRequestError } from '@pcs/kernel';
import type { MerchantCountriesService } from '@pcs/merchants';
import { MerchantCountriesController } from './merchant-countries.controller';

/**
 * B1's controller against its service (contract §13): the merchant's
 * countries as B1 shows them (VAT as percentages, each instrument type with
 * its currencies and networks), for the caller's own merchant or one named,
 * in every country or one; a country code the B2B API does not serve is a 400
 * naming `countryCode` before anything is asked.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';

const countries = {
  merchant: { merchantId, merchantName: 'Tienda Pocitos' },
  countries: [
    {
      country: { iso3: 'URY', vatRatesBp: [2200, 1000, 0] },
      currencies: ['UYU', 'USD'],
      instrumentTypes: [{ name: 'CREDIT_CARD', currencies: ['UYU', 'USD'], networks: ['MASTER_CARD', 'VISA'] }],
    },
  ],
};

/** The pipe Nest runs on a route's `countryCode` parameter. */
function countryCodePipeOf(route: 'mineInCountry' | 'ofMerchantInCountry'): PipeTransform {
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, MerchantCountriesController, route) as Record<
    string,
    { data?: string; pipes: PipeTransform[] }
  >;
  const param = Object.values(args).find((arg) => arg.data === 'countryCode');
  if (!param) throw new Error(`no countryCode parameter on ${route}`);
  return param.pipes[0];
}

describe('MerchantCountriesController', () => {
  it('shows the merchant’s countries with VAT as percentages and each instrument type’s currencies and networks', async () => {
    const countriesOf = jest.fn().mockResolvedValue(countries);
    const controller = new MerchantCountriesController({ countriesOf } as unknown as MerchantCountriesService);
    const expected = {
      merchant: { id: merchantId, name: 'Tienda Pocitos' },
      countries: [
        {
          country: 'URY',
          currencies: ['UYU', 'USD'],
          vat: [22, 10, 0],
          paymentMethods: [{ name: 'CREDIT_CARD', currencies: ['UYU', 'USD'], options: { networks: ['MASTER_CARD', 'VISA'] } }],
        },
      ],
    };
    expect(await controller.mine(caller)).toEqual(expected);
    expect(await controller.mineInCountry(caller, 'URY')).toEqual(expected);
    expect(await controller.ofMerchant(caller, merchantId)).toEqual(expected);
    expect(await controller.ofMerchantInCountry(caller, merchantId, 'ARG')).toEqual(expected);
    expect(countriesOf.mock.calls).toEqual([
      [caller],
      [caller, undefined, 'URY'],
      [caller, asMerchantId(merchantId)],
      [caller, asMerchantId(merchantId), 'ARG'],
    ]);
  });

  it('admits only the countries the B2B API serves as countryCode, refusing anything else as a 400 naming it', async () => {
    for (const route of ['mineInCountry', 'ofMerchantInCountry'] as const) {
      const pipe = countryCodePipeOf(route);
      for (const code of ['URY', 'ARG', 'BRA']) expect(await pipe.transform(code, { type: 'param', data: 'countryCode' })).toBe(code);
      for (const code of ['ury', 'CHL', 'UY', '', 'URY ']) {
        const refused = await Promise.resolve(pipe.transform(code, { type: 'param', data: 'countryCode' })).catch(
          (error: unknown) => error,
        );
        expect(refused).toBeInstanceOf(InvalidRequestError);
        expect((refused as InvalidRequestError).message).toContain('countryCode must be one of');
      }
    }
  });
});
