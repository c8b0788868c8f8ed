import { TestTenant } from '@pcs/testing/http';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

describe('B2B merchant countries (B1–B4)', () => {
  let bed: HttpTestbed;
  let tenant: TestTenant;
  let stranger: TestTenant;

  beforeAll(async () => {
    bed = await sharedTestbed({ api: 'b2b', merchants: 2 });
    ({ tenant } = bed);
    stranger = await bed.newTenant();
  });
  afterAll(() => bed.close());

  it('B1: tells the authenticated merchant where and how it collects', async () => {
    const response = await bed.client(tenant.merchants[0]).get('/merchant/countries');
    expect(response.status).toBe(200);
    expect(response.body.merchant).toEqual({ id: tenant.merchants[0].merchantId, name: expect.stringContaining('Merchant 1') });
    expect(response.body.countries).toHaveLength(1);
    const [ury] = response.body.countries;
    expect(ury).toMatchObject({ country: 'URY', currencies: ['UYU', 'USD'], vat: [0, 10, 22] });
    const credit = ury.paymentMethods.find((m: { name: string }) => m.name === 'CREDIT_CARD');
    expect(credit).toEqual({
      name: 'CREDIT_CARD',
      currencies: ['UYU', 'USD'],
      options: { networks: ['AMERICAN_EXPRESS', 'MASTER_CARD', 'OCA', 'VISA'] },
    });
    expect(ury.paymentMethods.map((m: { name: string }) => m.name)).toEqual(
      expect.arrayContaining(['BANK_TRANSFER', 'DEBIT_CARD', 'WALLETS']),
    );
  });

  it('B1 with business credentials of several merchants needs the merchant named', async () => {
    const response = await bed.client(tenant.business).get('/merchant/countries');
    expect(response.status).toBe(400);
    expect(response.body.errorId).toBe('B2B:MERCHANT_REQUIRED');
  });

  it('B2 and B4: one country, 404 when the merchant does not collect there, 400 for an unknown code', async () => {
    const merchant = bed.client(tenant.merchants[0]);
    expect((await merchant.get('/merchant/countries/URY')).body.countries.map((c: { country: string }) => c.country)).toEqual(['URY']);
    const brazil = await merchant.get('/merchant/countries/BRA');
    expect(brazil.status).toBe(404);
    expect(brazil.body.errorId).toBe('B2B:COUNTRY_NOT_OFFERED');
    const chile = await merchant.get('/merchant/countries/CHL');
    expect(chile.status).toBe(400);
    expect(chile.body.message).toContain('countryCode');
    const business = bed.client(tenant.business);
    expect((await business.get(`/merchant/${tenant.merchants[1].merchantId}/countries/URY`)).status).toBe(200);
  });

  it('B3: a business reads any of its merchants; anyone else gets a 404', async () => {
    const id = tenant.merchants[1].merchantId;
    expect((await bed.client(tenant.business).get(`/merchant/${id}/countries`)).body.merchant.id).toBe(id);
    for (const intruder of [stranger.business, stranger.merchants[0], tenant.merchants[0]]) {
      const response = await bed.client(intruder).get(`/merchant/${id}/countries`);
      expect(response.status).toBe(404);
      expect(response.body.errorId).toBe('B2B:MERCHANT_NOT_FOUND');
    }
  });
});
