import type { SignedClient, TestTenant } from '@pcs/testing/http';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

describe('merchants, configuration and country processors (operations 1–10, 37, 38)', () => {
  let bed: HttpTestbed;
  let tenant: TestTenant;
  let business: SignedClient;
  let merchantId: string;

  beforeAll(async () => {
    bed = await sharedTestbed({ merchants: 3 });
    ({ tenant, business } = bed);
    merchantId = tenant.merchants[0].merchantId;
  });
  afterAll(() => bed.close());

  describe('list and get (1, 2)', () => {
    it("pages the business's merchants in the specification's envelope", async () => {
      const response = await business.get('/merchant?page=2&limit=2');
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(1);
      const [envelope] = response.body;
      expect(envelope).toMatchObject({ currentPage: '2', pageSize: '2', rowCount: 3, pageCount: 2 });
      expect(envelope.results).toHaveLength(1);
      const all = (await business.get('/merchant')).body[0];
      expect(all.results.map((m: { merchantId: string }) => m.merchantId).sort()).toEqual(tenant.merchants.map((m) => m.merchantId).sort());
    });

    it('filters by searchTerm, treating % and _ literally', async () => {
      const named = (await business.get(`/merchant?searchTerm=${encodeURIComponent('merchant 2 of')}`)).body[0];
      expect(named.rowCount).toBe(1);
      expect(named.results[0].merchantId).toBe(tenant.merchants[1].merchantId);
      expect((await business.get('/merchant?searchTerm=%25')).body[0].rowCount).toBe(0);
    });

    it("shows a merchant's own key pair to its business only", async () => {
      const asBusiness = await business.get(`/merchant/${merchantId}`);
      expect(asBusiness.status).toBe(200);
      expect(asBusiness.body).toMatchObject({
        merchantId,
        businessId: tenant.business.businessId,
        status: 'ACTIVE',
        type: 'SOLE_PROPRIETORSHIP_CORPORATION',
        accountCurrencies: 'UYU,USD',
        apiKey: tenant.merchants[0].apiKey,
        apiSecret: tenant.merchants[0].apiSecret,
      });
      expect(asBusiness.body.approvedAt).toEqual(expect.any(String));
      const asMerchant = await bed.client(tenant.merchants[0]).get(`/merchant/${merchantId}`);
      expect(asMerchant.status).toBe(200);
      expect(asMerchant.body.apiKey).toBeNull();
      expect(asMerchant.body.apiSecret).toBeNull();
      const listed = (await bed.client(tenant.merchants[0]).get('/merchant')).body[0];
      expect(listed.rowCount).toBe(1);
      expect(listed.results[0].merchantId).toBe(merchantId);
    });
  });

  describe('update (3)', () => {
    it('applies the fields sent and keeps the rest', async () => {
      const country = (await business.get('/business-country-processor')).body[0].countryProcessor;
      expect(country).toBeDefined();
      const brou = ((await business.get('/bank?country=URY')).body as { bankId: string; code: string }[]).find(
        (bank) => bank.code === '001',
      );
      expect(brou).toBeDefined();
      const response = await business.patch(`/merchant/${merchantId}`, {
        merchantName: 'Café Centro',
        email: 'Ops@Cafe.UY',
        phone: '+59899123456',
        transfersType: 'L2L',
        metadata: '{"tier":"gold"}',
        currencies: ['UYU', 'USD'],
        account: {
          serviceAccount: '2f0c7c3e-8d9a-4c1e-9a43-2b0d4a5e6f70',
          settlementBank: { bankId: brou!.bankId, accountNumber: '001-234567', currency: 'UYU' },
        },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        merchantName: 'Café Centro',
        email: 'ops@cafe.uy',
        phone: '+59899123456',
        transfersType: 'L2L',
        metadata: '{"tier":"gold"}',
        account: {
          serviceAccount: '2f0c7c3e-8d9a-4c1e-9a43-2b0d4a5e6f70',
          settlementBank: { bankId: brou!.bankId, accountNumber: '001234567', currency: 'UYU', settlementBankId: expect.any(String) },
        },
      });
      const accounts = await business.get(`/merchant/${merchantId}/settlement-account`);
      expect(accounts.body).toEqual([expect.objectContaining({ bankId: brou!.bankId, accountNumber: '001234567', currency: 'UYU' })]);
      // The seed's settlementBankId names the settlement account it set.
      expect(response.body.account.settlementBank.settlementBankId).toBe(accounts.body[0].settlementAccountId);
      const again = await business.patch(`/merchant/${merchantId}`, { phone: '59899000000' });
      expect(again.body).toMatchObject({ merchantName: 'Café Centro', phone: '59899000000' });
      const unknownBank = await business.patch(`/merchant/${merchantId}`, {
        phone: '59899111111',
        account: { settlementBank: { bankId: '7d7b2c55-0a5b-4c1c-8f2e-1f1e6f0a9b11', accountNumber: '001-234567', currency: 'UYU' } },
      });
      expect(unknownBank.status).toBe(400);
      expect(unknownBank.body.message).toContain('bankId');
      expect((await business.get(`/merchant/${merchantId}`)).body.phone).toBe('59899000000');
    });

    it('enforces the 128-character limits and formats, naming the fields', async () => {
      const response = await business.patch(`/merchant/${merchantId}`, {
        merchantName: 'x'.repeat(129),
        email: 'not-an-email',
        phone: '099 123',
      });
      expect(response.status).toBe(400);
      expect(response.body.showMessage.EN).toContain('merchantName, email, phone');
      const longEmail = await business.patch(`/merchant/${merchantId}`, { email: `${'a'.repeat(120)}@example.com` });
      expect(longEmail.status).toBe(400);
      expect((await business.get(`/merchant/${merchantId}`)).body.merchantName).toBe('Café Centro');
    });

    it("refuses an address in an unknown country and a settlement currency outside the merchant's", async () => {
      const address = await business.patch(`/merchant/${merchantId}`, {
        address: { country: '00000000-0000-4000-8000-000000000000', city: 'Nowhere' },
      });
      expect(address.status).toBe(400);
      expect(address.body.message).toContain('address.country');
      const currency = await business.patch(`/merchant/${merchantId}`, {
        currencies: ['UYU'],
        account: { settlementBank: { currency: 'USD' } },
      });
      expect(currency.status).toBe(400);
      expect(currency.body.message).toContain('settlement');
    });
  });

  describe('configuration (6, 7)', () => {
    it('gets the default configuration, then creates and updates it', async () => {
      const initial = await business.get(`/merchant/${merchantId}/configuration`);
      expect(initial.status).toBe(200);
      expect(initial.body).toMatchObject({
        merchantId,
        shortName: null,
        fastPaymentsEnabled: false,
        notificationEmails: [],
        merchantCountryConfigurations: [],
        installments: {},
      });

      const saved = await business.put(`/merchant/${merchantId}/configuration`, {
        shortName: 'Cafe-Centro',
        notificationEmails: ['ops@cafe.uy'],
        paymentSuccessNotification: true,
        fastPaymentsEnabled: true,
        merchantCountryConfigurations: [
          { countryIsoAlpha3: 'URY', vatPercentage: 10 },
          { countryIsoAlpha3: 'ARG', vatPercentage: 10.5 },
        ],
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        shortName: 'cafe-centro',
        fastPaymentsEnabled: true,
        paymentSuccessNotification: true,
        paymentErrorNotification: false,
      });
      const byCountry = Object.fromEntries(
        saved.body.merchantCountryConfigurations.map((c: { country: { iso31663AlphabeticalCode: string }; vatPercentage: number }) => [
          c.country.iso31663AlphabeticalCode,
          c,
        ]),
      );
      expect(byCountry.URY.vatPercentage).toBe(10);
      expect(byCountry.ARG).toMatchObject({
        vatPercentage: 10.5,
        country: {
          name: 'Argentina',
          iso31662AlphabeticalCode: 'AR',
          iso3166NumericCode: 32,
          iso4217CurrencyCode: 'ARS',
          phoneCode: 54,
          vatPercentage: [0, 10.5, 21, 27],
          currency: ['ARS', 'USD'],
        },
      });

      const partial = await business.put(`/merchant/${merchantId}/configuration`, {
        paymentErrorNotification: true,
        merchantCountryConfigurations: [{ countryIsoAlpha3: 'URY', vatPercentage: 22 }],
      });
      expect(partial.body).toMatchObject({ shortName: 'cafe-centro', paymentErrorNotification: true });
      expect(partial.body.merchantCountryConfigurations).toHaveLength(1);
      expect(partial.body.merchantCountryConfigurations[0].merchantCountryConfigurationId).toBe(
        byCountry.URY.merchantCountryConfigurationId,
      );
      expect(partial.body.merchantCountryConfigurations[0].vatPercentage).toBe(22);
    });

    it('keeps the installment policy per country (contract §25), replaced whole when sent and kept when not', async () => {
      const saved = await business.put(`/merchant/${merchantId}/configuration`, {
        installments: {
          ARG: { maxInstallments: 12, interestFreeUpTo: 6, minInstallmentAmount: { ARS: 5000.5 } },
          BRA: { maxInstallments: 10, interestFreeUpTo: 0 },
        },
      });
      expect(saved.status).toBe(200);
      expect(saved.body.installments).toEqual({
        ARG: { maxInstallments: 12, interestFreeUpTo: 6, minInstallmentAmount: { ARS: 5000.5 } },
        BRA: { maxInstallments: 10, interestFreeUpTo: 0, minInstallmentAmount: {} },
      });
      const untouched = await business.put(`/merchant/${merchantId}/configuration`, { paymentErrorNotification: false });
      expect(untouched.body.installments).toEqual(saved.body.installments);
      const replaced = await business.put(`/merchant/${merchantId}/configuration`, {
        installments: { URY: { maxInstallments: 3, interestFreeUpTo: 3 } },
      });
      expect(replaced.body.installments).toEqual({ URY: { maxInstallments: 3, interestFreeUpTo: 3, minInstallmentAmount: {} } });
      expect((await business.get(`/merchant/${merchantId}/configuration`)).body.installments).toEqual(replaced.body.installments);
      const none = await business.put(`/merchant/${merchantId}/configuration`, { installments: {} });
      expect(none.body.installments).toEqual({});
    });

    it('reports every 400 as Payins:ERROR_IN_UPDATE_MERCHANT_CONFIGURATION and saves nothing', async () => {
      const before = (await business.get(`/merchant/${merchantId}/configuration`)).body;
      const cases: unknown[] = [
        { merchantCountryConfigurations: [{ countryIsoAlpha3: 'URY', vatPercentage: 21 }] },
        { merchantCountryConfigurations: [{ countryIsoAlpha3: 'CHL', vatPercentage: 19 }] },
        { notificationEmails: ['nope'] },
        { shortName: 'no spaces allowed' },
        { unknownField: true },
        { shortName: 'fresh-name', merchantCountryConfigurations: [{ countryIsoAlpha3: 'BRA', vatPercentage: 5 }] },
        { installments: { ARG: { maxInstallments: 25, interestFreeUpTo: 0 } } },
        { installments: { ARG: { maxInstallments: 6, interestFreeUpTo: 7 } } },
        { installments: { ARG: { maxInstallments: 6.5, interestFreeUpTo: 0 } } },
        { installments: { ARG: { maxInstallments: '6', interestFreeUpTo: 0 } } },
        { installments: { CHL: { maxInstallments: 6, interestFreeUpTo: 0 } } },
        { installments: { ARG: { maxInstallments: 6, interestFreeUpTo: 0, minInstallmentAmount: { BRL: 10 } } } },
        { installments: { ARG: { maxInstallments: 6, interestFreeUpTo: 0, minInstallmentAmount: { ARS: 0.001 } } } },
        { installments: { ARG: null } },
        { installments: [] },
        { shortName: 'other-fresh', installments: { BRA: { maxInstallments: 6, interestFreeUpTo: 7 } } },
      ];
      for (const body of cases) {
        const response = await business.put(`/merchant/${merchantId}/configuration`, body);
        expect(response.status).toBe(400);
        expect(response.body.errorId).toBe('Payins:ERROR_IN_UPDATE_MERCHANT_CONFIGURATION');
        expect(response.body.showMessage.ES).not.toBe(response.body.showMessage.EN);
      }
      expect((await business.get(`/merchant/${merchantId}/configuration`)).body).toEqual(before);
    });

    it('keeps short names unique across merchants', async () => {
      const other = tenant.merchants[1].merchantId;
      const taken = await business.put(`/merchant/${other}/configuration`, { shortName: 'CAFE-CENTRO' });
      expect(taken.status).toBe(400);
      expect(taken.body.errorId).toBe('Payins:ERROR_IN_UPDATE_MERCHANT_CONFIGURATION');
      expect(taken.body.message).toContain('shortName');
    });
  });

  describe('payment methods and processors (5, 8, 9, 10, 37, 38)', () => {
    it("lists the business's country processors and the methods they offer", async () => {
      const processors = await business.get('/business-country-processor');
      expect(processors.status).toBe(200);
      expect(processors.body.length).toBeGreaterThan(30);
      const pix = processors.body.find(
        (p: { countryProcessor: { paymentMethod: { paymentMethodName: string } } }) =>
          p.countryProcessor.paymentMethod.paymentMethodName === 'PIX',
      );
      expect(pix.countryProcessor).toMatchObject({
        active: true,
        currency: ['BRL'],
        paymentInstrumentType: { paymentInstrumentTypeName: 'PIX' },
      });
      const methods = await business.get('/payment-method');
      expect(methods.body.map((m: { paymentMethodName: string }) => m.paymentMethodName)).toHaveLength(14);
      const brou = methods.body.find((m: { paymentMethodName: string }) => m.paymentMethodName === 'BROU');
      expect(brou).toMatchObject({
        mayHaveAsyncPayments: true,
        supportsReserve: false,
        imageUrl: expect.stringMatching(/\/assets\/payment-methods\/brou\.svg$/),
      });
    });

    it('relates processors idempotently, starting in ONBOARDING, and the merchant offers only ACTIVE and active ones', async () => {
      const fresh = await bed.newTenant({ approve: false });
      const client = bed.client(fresh.business);
      const processors = (await client.get('/business-country-processor')).body;
      const visaArg = processors.find(
        (p: {
          countryProcessor: {
            paymentMethod: { paymentMethodName: string };
            paymentInstrumentType: { paymentInstrumentTypeName: string };
            currency: string[];
          };
        }) =>
          p.countryProcessor.paymentMethod.paymentMethodName === 'VISA' &&
          p.countryProcessor.paymentInstrumentType.paymentInstrumentTypeName === 'CREDIT_CARD' &&
          p.countryProcessor.currency.includes('ARS'),
      ).countryProcessor;

      const related = await client.post('/merchant-country-processor', { countryProcessorsId: [visaArg.countryProcessorId] });
      expect(related.status).toBe(200);
      expect(related.body).toHaveLength(1);
      expect(related.body[0]).toMatchObject({
        onboardingStatus: 'ONBOARDING',
        active: true,
        merchant: { merchantId: fresh.merchants[0].merchantId },
        countryProcessor: { countryProcessorId: visaArg.countryProcessorId },
      });
      const again = await client.post('/merchant-country-processor', { countryProcessorsId: [visaArg.countryProcessorId] });
      expect(again.body[0].merchantCountryProcessorId).toBe(related.body[0].merchantCountryProcessorId);
      expect((await client.get('/merchant-country-processor')).body).toHaveLength(1);
      expect((await client.get(`/merchant/${fresh.merchants[0].merchantId}/payment-methods`)).body).toEqual([]);

      const listed = (await business.get(`/merchant/${merchantId}/payment-methods`)).body.map(
        (m: { paymentMethodName: string }) => m.paymentMethodName,
      );
      expect(listed).toEqual(expect.arrayContaining(['VISA', 'OCA', 'BROU', 'MERCADO_PAGO']));
      expect(listed).not.toContain('PIX');
    });

    it('switches a relationship off and on, and moves it to another processor', async () => {
      const relationships = (await business.get(`/merchant-country-processor?merchantId=${merchantId}`)).body;
      const oca = relationships.find(
        (r: { countryProcessor: { paymentMethod: { paymentMethodName: string } } }) =>
          r.countryProcessor.paymentMethod.paymentMethodName === 'OCA',
      );
      expect(oca.onboardingStatus).toBe('ACTIVE');
      const off = await business.patch(`/merchant-country-processor/${oca.merchantCountryProcessorId}`, { active: false });
      expect(off.body).toMatchObject({ active: false, onboardingStatus: 'ACTIVE' });
      expect(
        (await business.get(`/merchant/${merchantId}/payment-methods`)).body.map((m: { paymentMethodName: string }) => m.paymentMethodName),
      ).not.toContain('OCA');
      await business.patch(`/merchant-country-processor/${oca.merchantCountryProcessorId}`, { active: true });

      const pix = (await business.get('/business-country-processor')).body.find(
        (p: { countryProcessor: { paymentMethod: { paymentMethodName: string } } }) =>
          p.countryProcessor.paymentMethod.paymentMethodName === 'PIX',
      ).countryProcessor;
      const moved = await business.patch(`/merchant-country-processor/${oca.merchantCountryProcessorId}`, {
        countryProcessorId: pix.countryProcessorId,
      });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({
        onboardingStatus: 'ONBOARDING',
        countryProcessor: { countryProcessorId: pix.countryProcessorId },
      });

      const visa = relationships.find(
        (r: { countryProcessor: { paymentMethod: { paymentMethodName: string } } }) =>
          r.countryProcessor.paymentMethod.paymentMethodName === 'VISA',
      );
      const clash = await business.patch(`/merchant-country-processor/${visa.merchantCountryProcessorId}`, {
        countryProcessorId: pix.countryProcessorId,
      });
      expect(clash.status).toBe(409);
      expect(clash.body.errorId).toBe('Payins:MERCHANT_COUNTRY_PROCESSOR_ALREADY_EXISTS');
    });

    it('refuses processors that do not exist and needs merchantId when the business has several merchants', async () => {
      const unknown = await business.post('/merchant-country-processor', {
        merchantId,
        countryProcessorsId: ['00000000-0000-4000-8000-000000000000'],
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errorId).toBe('Payins:COUNTRY_PROCESSOR_NOT_ENABLED');
      const ambiguous = await business.get('/merchant-country-processor');
      expect(ambiguous.status).toBe(400);
      expect(ambiguous.body.errorId).toBe('Payins:MERCHANT_REQUIRED');
      expect((await bed.client(tenant.merchants[2]).get('/merchant-country-processor')).status).toBe(200);
    });
  });

  describe('delete (4)', () => {
    it('soft-deletes: the merchant disappears and its own credentials stop working', async () => {
      const doomed = tenant.merchants[2];
      const deleted = await business.delete(`/merchant/${doomed.merchantId}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ success: true, id: doomed.merchantId });
      expect((await business.get(`/merchant/${doomed.merchantId}`)).status).toBe(404);
      expect((await business.delete(`/merchant/${doomed.merchantId}`)).status).toBe(404);
      expect((await business.get('/merchant')).body[0].rowCount).toBe(2);
      expect((await bed.client(doomed).get('/merchant')).status).toBe(401);
    });
  });
});
