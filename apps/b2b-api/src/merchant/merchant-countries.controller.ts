import { Get, Param, ParseEnumPipe } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { CurrentCaller, SignedController, UuidParam } from '@pcs/http';
import { asMerchantId, B2bCountry, basisPointsToVatPercentage, InvalidRequestError } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { MerchantCountries, MerchantCountriesService } from '@pcs/merchants';
import { MerchantCountriesResponse } from './merchant-countries.responses';

const countryCodePipe = new ParseEnumPipe(B2bCountry, {
  exceptionFactory: () => new InvalidRequestError(['countryCode'], `countryCode must be one of ${Object.values(B2bCountry).join(', ')}`),
});

function present(result: MerchantCountries): MerchantCountriesResponse {
  return {
    merchant: { id: result.merchant.merchantId, name: result.merchant.merchantName },
    countries: result.countries.map((c) => ({
      country: c.country.iso3,
      currencies: [...c.currencies],
      vat: c.country.vatRatesBp.map(basisPointsToVatPercentage),
      paymentMethods: c.instrumentTypes.map((t) => ({
        name: t.name,
        currencies: [...t.currencies],
        options: { networks: [...t.networks] },
      })),
    })),
  };
}

@SignedController('merchant', 'merchant countries')
@ApiUnauthorizedResponse({ description: 'Auth:UNAUTHORIZED' })
export class MerchantCountriesController {
  constructor(private readonly countries: MerchantCountriesService) {}

  @Get('countries')
  @ApiOperation({
    summary: 'Get merchant countries (for the authenticated merchant)',
    description:
      'The countries, currencies and payment methods the merchant can collect in. Business credentials with several merchants must use /merchant/{merchantId}/countries.',
    operationId: 'getMerchantCountries',
  })
  @ApiOkResponse({ type: MerchantCountriesResponse })
  @ApiBadRequestResponse({ description: 'B2B:MERCHANT_REQUIRED when business credentials have several merchants' })
  async mine(@CurrentCaller() caller: Caller): Promise<MerchantCountriesResponse> {
    return present(await this.countries.countriesOf(caller));
  }

  @Get('countries/:countryCode')
  @ApiOperation({
    summary: 'Get merchant country details',
    description: 'One country (ISO 3166 alpha-3) of the merchant with its payment methods; a country not offered is a 404.',
    operationId: 'getMerchantCountryDetails',
  })
  @ApiParam({ name: 'countryCode', enum: B2bCountry })
  @ApiOkResponse({ type: MerchantCountriesResponse })
  @ApiNotFoundResponse({ description: 'B2B:COUNTRY_NOT_OFFERED' })
  async mineInCountry(
    @CurrentCaller() caller: Caller,
    // Declared a string (what the path carries; the pipe lets only a B2bCountry through): the reflected type SWC and tsc agree on.
    @Param('countryCode', countryCodePipe) countryCode: string,
  ): Promise<MerchantCountriesResponse> {
    return present(await this.countries.countriesOf(caller, undefined, countryCode));
  }

  @Get(':merchantId/countries')
  @ApiOperation({
    summary: 'Get merchant countries of a merchant',
    description: "The countries and payment methods of one merchant of the caller's business.",
    operationId: 'getMerchantCountriesOfMerchant',
  })
  @ApiOkResponse({ type: MerchantCountriesResponse })
  @ApiNotFoundResponse({ description: 'B2B:MERCHANT_NOT_FOUND' })
  async ofMerchant(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string): Promise<MerchantCountriesResponse> {
    return present(await this.countries.countriesOf(caller, asMerchantId(merchantId)));
  }

  @Get(':merchantId/countries/:countryCode')
  @ApiOperation({
    summary: 'Get merchant country details of a merchant',
    description: "One country of one merchant of the caller's business, with its payment methods.",
    operationId: 'getMerchantCountryDetailsOfMerchant',
  })
  @ApiParam({ name: 'countryCode', enum: B2bCountry })
  @ApiOkResponse({ type: MerchantCountriesResponse })
  @ApiNotFoundResponse({ description: 'B2B:MERCHANT_NOT_FOUND or B2B:COUNTRY_NOT_OFFERED' })
  async ofMerchantInCountry(
    @CurrentCaller() caller: Caller,
    @UuidParam('merchantId') merchantId: string,
    @Param('countryCode', countryCodePipe) countryCode: string,
  ): Promise<MerchantCountriesResponse> {
    return present(await this.countries.countriesOf(caller, asMerchantId(merchantId), countryCode));
  }
}
