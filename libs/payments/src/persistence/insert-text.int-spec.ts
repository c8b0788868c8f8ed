import { BusinessService } from '@pcs/businesses';
import { EntityColumns } from '@pcs/database';
import { Currency, Money, PayinType } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { PayerService } from '@pcs/payers';
import { PaymentInstrumentService } from '@pcs/payment-instruments';
import { serviceContext, ServiceContext } from '@pcs/testing';
import { PaymentIntentCreationService } from '../creation/payment-intent-creation.service';
import { PaymentIntentActivityModule } from '../payment-intent-activity.module';
import { PaymentsModule } from '../payments.module';

/**
 * The INSERT whose text is built once (EntityColumns.insert) is the one
 * TypeORM's insert builder writes, text and values alike, for every payment
 * intent and payin row there is (a confirmed charge of our own among them:
 * nulls, jsonb, bigints, dates).
 */
describe('INSERT text built once per entity', () => {
  let services: ServiceContext;

  beforeAll(async () => {
    services = await serviceContext([PaymentIntentActivityModule, PaymentsModule], { poolSize: 4 });
    const { context } = services;
    const business = await context.get(BusinessService).create('Insert text');
    const merchant = await context
      .get(MerchantService)
      .create({ businessId: business.businessId, name: 'Shop', countryIso3: 'URY', approve: true });
    const caller = { credentialId: 'c', businessId: business.businessId, merchantId: merchant.merchantId };
    const payer = await context.get(PayerService).create(caller, { firstName: 'Insert', lastName: 'Text' });
    const instrument = await context
      .get(PaymentInstrumentService)
      .create(caller, { payerId: payer.payerId, paymentMethodName: 'VISA', country: 'URY' });
    await context.get(PaymentIntentCreationService).create(caller, {
      amount: Money.ofMinor(12345, Currency.UYU),
      tipAmount: Money.ofMinor(100, Currency.UYU),
      vatPercentage: 22,
      payinType: PayinType.DEFAULT,
      externalReference: 'insert-text',
      payerId: payer.payerId,
      offSession: true,
      invoiceNumber: 1,
      country: 'URY',
      paymentInstrumentId: instrument.instrument.id,
      confirm: true,
    });
  });
  afterAll(() => services.close());

  it.each(['payment_intent', 'payin'])('writes %s rows as the builder does', async (table) => {
    const manager = services.dataSource.manager;
    const entity = services.dataSource.entityMetadatas.find((m) => m.tableName === table)!.target;
    const rows = await manager.find(entity, { take: 200 });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const built = new EntityColumns(manager, entity, '').insert(row);
      expect(built).not.toBeNull();
      expect(built).toEqual(manager.createQueryBuilder().insert().into(entity).values(row).getQueryAndParameters());
    }
  });
});
