import { BusinessService } from '@pcs/businesses';
import { MerchantCountryProcessorService, MerchantService } from '@pcs/merchants';
import { asMerchantId, MerchantId } from '@pcs/kernel';
import { eventually, serviceContext, ServiceContext } from '@pcs/testing';
import { DataSource } from 'typeorm';
import { GatewayAccountsModule } from './gateway-accounts.module';
import { GatewayAccounts } from './gateway-accounts.service';

/**
 * What every confirmed charge reads about its merchant's routing — the country
 * processors it offers, the provider a method is routed to — is kept in
 * memory per merchant, and forgotten in every process when a row of that
 * merchant changes, whoever changes it (the change feed's triggers).
 */
describe('the routing caches on PostgreSQL', () => {
  let here: ServiceContext;
  let there: ServiceContext;
  let dataSource: DataSource;
  let merchantId: MerchantId;

  beforeAll(async () => {
    here = await serviceContext([GatewayAccountsModule], { poolSize: 4 });
    there = await serviceContext([GatewayAccountsModule], { poolSize: 2 });
    dataSource = here.dataSource;
    const business = await here.context.get(BusinessService).create('Routing caches');
    const merchant = await here.context
      .get(MerchantService)
      .create({ businessId: business.businessId, name: 'Tienda en memoria', countryIso3: 'URY', approve: true });
    merchantId = asMerchantId(merchant.merchantId);
  });
  afterAll(async () => {
    await there?.close();
    await here?.close();
  });

  it("keeps a merchant's offered processors in memory and hears of a change made by plain SQL", async () => {
    const offered = (context: ServiceContext) =>
      context.context
        .get(MerchantCountryProcessorService)
        .offeredCountryProcessors(merchantId)
        .then((processors) => processors.map((p) => p.countryProcessorId).sort());
    const before = await offered(there);
    expect(before.length).toBeGreaterThan(1);
    // The merchant's creation (here) reaches the other process's feed a moment after it commits, and empties what it kept
    // meanwhile; from then on a read is answered from memory.
    const readsOfTwo = async () => {
      const reads = jest.spyOn(there.dataSource.manager, 'find');
      try {
        expect(await offered(there)).toEqual(before);
        expect(await offered(there)).toEqual(before);
        return reads.mock.calls.length;
      } finally {
        reads.mockRestore();
      }
    };
    expect(await eventually(readsOfTwo, (reads) => reads === 0, 5)).toBe(0);

    await dataSource.query('UPDATE merchant_country_processor SET active = false WHERE merchant_id = $1 AND country_processor_id = $2', [
      merchantId,
      before[0],
    ]);
    expect(
      await eventually(
        () => offered(there),
        (ids) => ids.length === before.length - 1,
        5,
      ),
    ).toEqual(before.slice(1));
  });

  it("keeps a merchant's routes in memory and hears of an account connected or removed by plain SQL", async () => {
    const route = () => there.context.get(GatewayAccounts).routeOf(merchantId, 'VISA');
    expect(await route()).toBeNull();
    const reads = jest.spyOn(there.dataSource.manager, 'query');
    expect(await route()).toBeNull();
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();

    const [{ business_id: businessId }] = await dataSource.query<{ business_id: string }[]>(
      'SELECT business_id FROM merchant WHERE merchant_id = $1',
      [merchantId],
    );
    await dataSource.query(
      `INSERT INTO gateway_account (merchant_id, provider, business_id, secrets_sealed, hints, payment_methods, funds_flow, created_at, updated_at)
       VALUES ($1, 'DLOCAL', $2, '{}', '{}', ARRAY['VISA'], 'PLATFORM', now(), now())`,
      [merchantId, businessId],
    );
    expect(await eventually(route, (provider) => provider !== null, 5)).toBe('DLOCAL');
    expect(await there.context.get(GatewayAccounts).routeOf(merchantId, 'MASTERCARD')).toBeNull();

    await dataSource.query(`DELETE FROM gateway_account WHERE merchant_id = $1`, [merchantId]);
    expect(await eventually(route, (provider) => provider === null, 5)).toBeNull();
  });
});
