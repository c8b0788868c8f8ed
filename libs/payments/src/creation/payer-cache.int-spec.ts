import { BusinessService } from '@pcs/businesses';
import { Caller, Currency, DomainError, Money, PayerId, PayinType } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { PayerService } from '@pcs/payers';
import { eventually, serviceContext, ServiceContext } from '@pcs/testing';
import { DataSource } from 'typeorm';
import { PaymentIntentActivityModule } from '../payment-intent-activity.module';
import { PaymentsModule } from '../payments.module';
import { PaymentIntentCreationService } from './payment-intent-creation.service';

/**
 * The live payers creations read are kept in each process's memory and
 * forgotten when their row changes, whoever changes it; tenancy is still
 * checked on every read, and a deletion is never missed by a write (its
 * requirement reads the database).
 */
describe('the payer kept in memory, on PostgreSQL', () => {
  let here: ServiceContext;
  let there: ServiceContext;
  let dataSource: DataSource;
  let caller: Caller;
  let stranger: Caller;
  let payerId: PayerId;

  beforeAll(async () => {
    here = await serviceContext([PaymentIntentActivityModule, PaymentsModule], { poolSize: 4 });
    there = await serviceContext([PaymentIntentActivityModule, PaymentsModule], { poolSize: 2 });
    dataSource = here.dataSource;
    const businesses = here.context.get(BusinessService);
    const business = await businesses.create('Payer cache');
    const merchant = await here.context
      .get(MerchantService)
      .create({ businessId: business.businessId, name: 'Tienda', countryIso3: 'URY', approve: true });
    caller = { credentialId: 'c', businessId: business.businessId, merchantId: merchant.merchantId };
    stranger = { credentialId: 'c', businessId: (await businesses.create('Someone else')).businessId, merchantId: null };
    payerId = (await here.context.get(PayerService).create(caller, { firstName: 'Ana', lastName: 'Memoria', email: 'ana@example.uy' }))
      .payerId;
  });
  afterAll(async () => {
    await there?.close();
    await here?.close();
  });

  const emailThere = () =>
    there.context
      .get(PayerService)
      .loadVisible(caller, payerId)
      .then(
        (payer) => payer.snapshot().email,
        (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
      );

  it('answers from memory, hears of a change made by plain SQL, and never shows the payer to another business', async () => {
    expect(await emailThere()).toBe('ana@example.uy');
    const readsOfTwo = async () => {
      const reads = jest.spyOn(there.dataSource, 'createQueryRunner');
      try {
        expect(await emailThere()).toBe('ana@example.uy');
        expect(await emailThere()).toBe('ana@example.uy');
        return reads.mock.calls.length;
      } finally {
        reads.mockRestore();
      }
    };
    expect(await eventually(readsOfTwo, (reads) => reads === 0, 5)).toBe(0);
    // Kept, and still another business's payer is not found.
    expect(
      await there.context
        .get(PayerService)
        .loadVisible(stranger, payerId)
        .catch((error: DomainError) => error.code),
    ).toBe('PAYER_NOT_FOUND');

    await dataSource.query(`UPDATE payer SET email = 'ana.nueva@example.uy' WHERE payer_id = $1`, [payerId]);
    expect(await eventually(emailThere, (email) => email === 'ana.nueva@example.uy', 5)).toBe('ana.nueva@example.uy');
  });

  it('hands each caller its own copy', async () => {
    const payers = there.context.get(PayerService);
    const first = await payers.loadVisible(caller, payerId);
    first.snapshot().createdAt.setFullYear(1999); // a snapshot's date, changed by a careless caller
    const again = (await payers.loadVisible(caller, payerId)).snapshot();
    expect(again.createdAt.getFullYear()).not.toBe(1999);
  });

  it('refuses a creation for a payer deleted by plain SQL, kept in memory or not', async () => {
    expect(await emailThere()).toBe('ana.nueva@example.uy'); // kept there
    await dataSource.query(`UPDATE payer SET deleted_at = now() WHERE payer_id = $1`, [payerId]);
    // At once, before any notice could arrive: the write's requirement reads the database.
    const created = await there.context
      .get(PaymentIntentCreationService)
      .create(caller, {
        amount: Money.ofMinor(1000, Currency.UYU),
        payinType: PayinType.DEFAULT,
        externalReference: 'payer-gone',
        payerId,
        offSession: false,
        invoiceNumber: 1,
        country: 'URY',
      })
      .catch((error: DomainError) => error.code);
    expect(created).toBe('PAYER_NOT_FOUND');
    expect(await eventually(emailThere, (email) => email === 'PAYER_NOT_FOUND', 5)).toBe('PAYER_NOT_FOUND');
  });
});
