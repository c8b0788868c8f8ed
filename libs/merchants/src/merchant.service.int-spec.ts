import { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { BusinessService, CreatedBusiness } from '@pcs/businesses';
import { CatalogService } from '@pcs/catalog';
import { Caller, DomainError } from '@pcs/kernel';
import { serviceContext, ServiceContext } from '@pcs/testing';
import { inTransaction, transactionOf } from '@pcs/database';
import { DataSource } from 'typeorm';
import { MerchantConfigurationService } from './merchant-configuration.service';
import { MerchantCountryProcessorService } from './merchant-country-processor.service';
import { CreatedMerchant, MerchantService } from './merchant.service';
import { MerchantsModule } from './merchants.module';

describe('merchant services on PostgreSQL', () => {
  let services: ServiceContext;
  let context: INestApplicationContext;
  let merchants: MerchantService;
  let business: CreatedBusiness;
  let other: CreatedBusiness;
  let merchant: CreatedMerchant;
  const asBusiness = (b: CreatedBusiness): Caller => ({ credentialId: 'c', businessId: b.businessId, merchantId: null });

  beforeAll(async () => {
    services = await serviceContext([MerchantsModule], { poolSize: 6 });
    context = services.context;
    merchants = context.get(MerchantService);
    business = await context.get(BusinessService).create('Service tests');
    other = await context.get(BusinessService).create('Someone else');
    merchant = await merchants.create({ businessId: business.businessId, name: 'Tienda', countryIso3: 'ARG', approve: false });
  });
  afterAll(() => services.close());

  const codeOf = async (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (e: unknown) => (e instanceof DomainError ? e.code : String(e)),
    );

  it("tenant A cannot read, change or delete tenant B's merchant", async () => {
    const stranger = asBusiness(other);
    expect(await codeOf(merchants.get(stranger, merchant.merchantId))).toBe('MERCHANT_NOT_FOUND');
    expect(await codeOf(merchants.update(stranger, merchant.merchantId, { merchantName: 'Mine now' }))).toBe('MERCHANT_NOT_FOUND');
    expect(await codeOf(merchants.delete(stranger, merchant.merchantId))).toBe('MERCHANT_NOT_FOUND');
    expect(await codeOf(context.get(MerchantConfigurationService).get(stranger, merchant.merchantId))).toBe('MERCHANT_NOT_FOUND');
    expect((await merchants.list(stranger, { page: 1, limit: 100 })).items.map((v) => v.merchant.merchantId)).not.toContain(
      merchant.merchantId,
    );
    expect((await merchants.get(asBusiness(business), merchant.merchantId)).merchant.merchantName).toBe('Tienda');
  });

  it("keeps a merchant created without approval in ONBOARDING with no processors, uses its country's currencies", async () => {
    const view = await merchants.get(asBusiness(business), merchant.merchantId);
    expect(view.merchant).toMatchObject({ status: 'ONBOARDING', approvedAt: null, currencies: ['ARS', 'USD'] });
    expect(await context.get(MerchantCountryProcessorService).list(asBusiness(business), merchant.merchantId)).toEqual([]);
  });

  it('relates concurrently without duplicates, then approval onboards every relationship', async () => {
    const processors = (await context.get(CatalogService).countryProcessorsOfCountry('ARG')).slice(0, 3).map((p) => p.countryProcessorId);
    const service = context.get(MerchantCountryProcessorService);
    const caller = asBusiness(business);
    await Promise.all(Array.from({ length: 6 }, () => service.relate(caller, merchant.merchantId, processors)));
    const related = await service.list(caller, merchant.merchantId);
    expect(related.map((r) => r.countryProcessor.countryProcessorId).sort()).toEqual([...processors].sort());
    expect(related.every((r) => r.relationship.onboardingStatus === 'ONBOARDING')).toBe(true);

    const approved = await merchants.approve(merchant.merchantId);
    expect(approved.status).toBe('ACTIVE');
    const after = await service.list(caller, merchant.merchantId);
    expect(after.every((r) => r.relationship.onboardingStatus === 'ACTIVE')).toBe(true);
    expect((await service.offeredCountryProcessors(merchant.merchantId)).map((p) => p.countryProcessorId).sort()).toEqual(
      [...processors].sort(),
    );
  });

  it('gives a contested short name to exactly one merchant', async () => {
    const a = await merchants.create({ businessId: business.businessId, name: 'A', countryIso3: 'URY', approve: true });
    const b = await merchants.create({ businessId: business.businessId, name: 'B', countryIso3: 'URY', approve: true });
    const configurations = context.get(MerchantConfigurationService);
    const results = await Promise.all(
      [a, b].map((m) =>
        configurations.upsert(asBusiness(business), m.merchantId, { shortName: 'contested' }).then(
          () => 'ok',
          (e: DomainError) => e.code,
        ),
      ),
    );
    expect(results.sort()).toEqual(['ERROR_IN_UPDATE_MERCHANT_CONFIGURATION', 'ok']);
    const rows = await context
      .get<DataSource>(getDataSourceToken())
      .query(`SELECT count(*)::int AS n FROM merchant_configuration WHERE short_name = 'contested'`);
    expect(rows[0].n).toBe(1);
  });

  it("deleting keeps the row but revokes the merchant's credentials", async () => {
    const doomed = await merchants.create({ businessId: business.businessId, name: 'Doomed', countryIso3: 'URY', approve: true });
    await merchants.delete(asBusiness(business), doomed.merchantId);
    const dataSource = context.get<DataSource>(getDataSourceToken());
    const [row] = await dataSource.query('SELECT deleted_at FROM merchant WHERE merchant_id = $1', [doomed.merchantId]);
    expect(row.deleted_at).toBeInstanceOf(Date);
    const [credential] = await dataSource.query('SELECT revoked_at FROM api_credential WHERE merchant_id = $1', [doomed.merchantId]);
    expect(credential.revoked_at).toBeInstanceOf(Date);
  });

  it('keeps in memory only what was committed: a merchant read inside a transaction that rolls back is read again', async () => {
    const fresh = await merchants.create({ businessId: business.businessId, name: 'Committed', countryIso3: 'URY', approve: false });
    const caller = asBusiness(business);
    await expect(
      inTransaction(services.dataSource, async (manager) => {
        await manager.query(`UPDATE merchant SET merchant_name = 'Uncommitted' WHERE merchant_id = $1`, [fresh.merchantId]);
        // Read from the transaction itself (not from memory): it sees its own write.
        expect((await merchants.load(caller, fresh.merchantId, transactionOf(manager))).snapshot().merchantName).toBe('Uncommitted');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await merchants.load(caller, fresh.merchantId)).snapshot().merchantName).toBe('Committed');
  });
});
