import type { BusinessService } from '@pcs/businesses';
import type { CountryProcessor } from '@pcs/catalog';
import { asBusinessId, asMerchantId, Caller, Currency } from '@pcs/kernel';
import { BusinessCountryProcessorController } from './business-country-processor.controller';

/** A business's country processors against its service: asked for the caller's business, each in the catalog's representation. */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: asMerchantId('m-1') };
const visaUruguay = {
  countryProcessorId: 'cp-1',
  paymentInstrumentType: { paymentInstrumentTypeId: 'it-1', name: 'CREDIT_CARD' },
  paymentMethod: { paymentMethodId: 'pm-1', name: 'VISA' },
  active: true,
  currencies: [Currency.UYU],
  country: { countryId: 'ury', iso3: 'URY', currency: Currency.UYU, timeZone: 'America/Montevideo' },
} as unknown as CountryProcessor;

describe('BusinessCountryProcessorController', () => {
  it('lists the caller business’s country processors, whatever merchant its credential names', async () => {
    const listCountryProcessors = jest.fn().mockResolvedValue([{ businessCountryProcessorId: 'bcp-1', countryProcessor: visaUruguay }]);
    const controller = new BusinessCountryProcessorController({ listCountryProcessors } as unknown as BusinessService);
    const answer = await controller.list(caller);
    expect(listCountryProcessors).toHaveBeenCalledWith('b-1');
    expect(answer).toMatchObject([{ businessCountryProcessorId: 'bcp-1', countryProcessor: { countryProcessorId: 'cp-1' } }]);
  });
});
