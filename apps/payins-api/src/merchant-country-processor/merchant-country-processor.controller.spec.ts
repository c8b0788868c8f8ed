import type { CountryProcessor } from '@pcs/catalog';
import { asBusinessId, asMerchantId, Caller, Currency } from '@pcs/kernel';
import type { MerchantCountryProcessorService } from '@pcs/merchants';
import type { PricingService } from '@pcs/settlement';
import { MerchantCountryProcessorController } from './merchant-country-processor.controller';

/**
 * Country processors' controllers against their services: a merchant's
 * relationships, each with its price read from settlement (the merchant's own
 * or the catalog's, read-only), the merchant typed; a business's, for the
 * caller's business. test/merchant-country-processors.e2e-spec.ts and
 * test/settlement.e2e-spec.ts run them over HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');

const visaUruguay = {
  countryProcessorId: 'cp-1',
  paymentInstrumentType: { paymentInstrumentTypeId: 'it-1', name: 'CREDIT_CARD' },
  paymentMethod: { paymentMethodId: 'pm-1', name: 'VISA' },
  active: true,
  currencies: [Currency.UYU, Currency.USD],
  country: { countryId: 'ury', iso3: 'URY', currency: Currency.UYU, timeZone: 'America/Montevideo' },
} as unknown as CountryProcessor;

const view = (active: boolean) => ({
  relationship: { merchantCountryProcessorId: 'mcp-1', merchantId, onboardingStatus: 'ACTIVE', active },
  countryProcessor: visaUruguay,
});

describe('MerchantCountryProcessorController', () => {
  function controllerWith() {
    const relationships = {
      list: jest.fn().mockResolvedValue([view(true)]),
      relate: jest.fn().mockResolvedValue([view(true)]),
      update: jest.fn().mockResolvedValue(view(false)),
    };
    const pricing = {
      priceOf: jest.fn().mockResolvedValue({ percentageBp: 290, fixed: { UYU: 1000, USD: 0 }, settlementDelayDays: 2 }),
    };
    const controller = new MerchantCountryProcessorController(
      relationships as unknown as MerchantCountryProcessorService,
      pricing as unknown as PricingService,
    );
    return { controller, relationships, pricing };
  }

  it('shows each relationship with its country processor and its price, the merchant’s own', async () => {
    const { controller, relationships, pricing } = controllerWith();
    const [shown] = await controller.list(caller, { merchantId });
    expect(relationships.list).toHaveBeenCalledWith(caller, merchantId);
    expect(pricing.priceOf).toHaveBeenCalledWith(merchantId, visaUruguay);
    expect(shown).toMatchObject({
      merchantCountryProcessorId: 'mcp-1',
      merchant: { merchantId },
      onboardingStatus: 'ACTIVE',
      active: true,
      countryProcessor: { countryProcessorId: 'cp-1', paymentMethod: { paymentMethodName: 'VISA' }, currency: ['UYU', 'USD'] },
      pricing: { percentage: 2.9, fixed: [{ currency: 'UYU', amount: 10 }], settlementDelayDays: 2 },
    });
  });

  it('relates the processors named to the merchant and changes one relationship, one call each', async () => {
    const { controller, relationships } = controllerWith();
    await controller.relate(caller, { merchantId, countryProcessorsId: ['cp-1', 'cp-2'] });
    expect(relationships.relate).toHaveBeenCalledWith(caller, merchantId, ['cp-1', 'cp-2']);
    expect(await controller.update(caller, 'mcp-1', { active: false })).toMatchObject({
      merchantCountryProcessorId: 'mcp-1',
      active: false,
    });
    expect(relationships.update).toHaveBeenCalledWith(caller, 'mcp-1', { active: false });
  });
});
