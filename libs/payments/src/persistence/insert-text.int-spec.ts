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
 * nulls, jsonb, bigints, dates); the UPDATE (EntityColumns.update) sets every
 * column to what the builder sets it to.
 */
describe('INSERT and UPDATE text built once per entity', () => {
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

  /** What each column is set to by an UPDATE's text and values (`"column" = $n`). */
  const assignments = ([sql, values]: [string, unknown[]]) =>
    Object.fromEntries([...sql.split(' WHERE ')[0].matchAll(/"(\w+)" = \$(\d+)/g)].map(([, column, n]) => [column, values[Number(n) - 1]]));

  it.each(['payment_intent', 'payin'])('updates %s rows as the builder does, and only at their version when given one', async (table) => {
    const { dataSource } = services;
    const manager = dataSource.manager;
    const metadata = dataSource.entityMetadatas.find((m) => m.tableName === table)!;
    const [key] = metadata.primaryColumns;
    const rows = await manager.find(metadata.target, { take: 200 });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const built = new EntityColumns(manager, metadata.target, '').update(row);
      expect(built).not.toBeNull();
      const { [key.propertyName]: id, ...changes } = row as Record<string, unknown>;
      const builder = manager
        .createQueryBuilder()
        .update(metadata.target)
        .set(changes)
        .where(`${key.databaseName} = :id`, { id })
        .returning(key.databaseName)
        .getQueryAndParameters();
      expect(assignments(built!)).toEqual(assignments(builder));
      expect(built![0]).toMatch(new RegExp(`WHERE "${key.databaseName}" = \\$\\d+ RETURNING "${key.databaseName}"$`));
    }
    // With a version: written only while the row's xmin is that transaction id (here: rewriting the row as it is).
    const [row] = rows;
    const id = (row as Record<string, unknown>)[key.propertyName];
    const [{ xmin }] = await dataSource.query(`SELECT xmin::text AS xmin FROM ${table} WHERE ${key.databaseName} = $1`, [id]);
    const stale = new EntityColumns(manager, metadata.target, '').update(row, String(Number(xmin) + 1))!;
    // TypeORM answers an UPDATE with its returned rows and the count it wrote.
    expect(await dataSource.query(...stale)).toEqual([[], 0]);
    const current = new EntityColumns(manager, metadata.target, '').update(row, xmin)!;
    expect(await dataSource.query(...current)).toEqual([[{ [key.databaseName]: id }], 1]);
    expect(await manager.findOneBy(metadata.target, { [key.propertyName]: id as string })).toEqual(row);
  });
});
