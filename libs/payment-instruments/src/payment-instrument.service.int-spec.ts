import { INestApplicationContext } from '@nestjs/common';
import { BusinessService } from '@pcs/businesses';
import { asPayerId, Caller, DocumentType } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { PayerService } from '@pcs/payers';
import { PaymentIntentActivityModule } from '@pcs/payments';
import { serviceContext, ServiceContext } from '@pcs/testing';
import { DataSource } from 'typeorm';
import { PaymentInstrumentService } from './payment-instrument.service';
import { PaymentInstrumentsModule } from './payment-instruments.module';
import { transactionOf } from '@pcs/database';

describe('payer and instrument services on PostgreSQL', () => {
  let services: ServiceContext;
  let context: INestApplicationContext;
  let caller: Caller;
  let dataSource: DataSource;

  beforeAll(async () => {
    services = await serviceContext([PaymentIntentActivityModule, PaymentInstrumentsModule], { poolSize: 6 });
    context = services.context;
    dataSource = services.dataSource;
    const business = await context.get(BusinessService).create('Instrument services');
    const merchant = await context
      .get(MerchantService)
      .create({ businessId: business.businessId, name: 'Shop', countryIso3: 'URY', approve: true });
    caller = { credentialId: 'c', businessId: business.businessId, merchantId: merchant.merchantId };
  });
  afterAll(() => services.close());

  it('creating a payer and an instrument inside one transaction leaves nothing behind when it rolls back', async () => {
    const payers = context.get(PayerService);
    const instruments = context.get(PaymentInstrumentService);
    let payerId = asPayerId('');
    await expect(
      dataSource.transaction(async (manager) => {
        const payer = await payers.createWithin(transactionOf(manager), caller, {
          firstName: 'Rolled',
          documentType: DocumentType.PASSPORT,
          document: 'ROLL123456',
        });
        payerId = payer.id;
        await instruments.createWithin(transactionOf(manager), caller, { payerId, paymentMethodName: 'VISA', country: 'URY' });
        throw new Error('the payment intent failed after both were created');
      }),
    ).rejects.toThrow('the payment intent failed');
    const [{ n }] = await dataSource.query(
      'SELECT (SELECT count(*) FROM payer WHERE payer_id = $1) + (SELECT count(*) FROM payment_instrument WHERE payer_id = $1) AS n',
      [payerId],
    );
    expect(Number(n)).toBe(0);
  });

  it('a duplicate document inside a transaction is a conflict that leaves the transaction usable', async () => {
    const payers = context.get(PayerService);
    await payers.create(caller, { documentType: DocumentType.PASSPORT, document: 'DUPE123456' });
    const outcome = await dataSource.transaction(async (manager) => {
      const code = await payers
        .createWithin(transactionOf(manager), caller, { documentType: DocumentType.PASSPORT, document: 'DUPE123456' })
        .then(
          () => 'created',
          (e: { code?: string }) => e.code,
        );
      // The savepoint rolled back only the failed insert: the transaction still works.
      const [{ ok }] = await manager.query('SELECT 1 AS ok');
      return { code, ok };
    });
    expect(outcome).toEqual({ code: 'PAYER_ALREADY_EXISTS', ok: 1 });
  });

  it('concurrent requests for the same instrument queue on the payer row and create it once', async () => {
    const payer = await context.get(PayerService).create(caller, { firstName: 'Busy' });
    const instruments = context.get(PaymentInstrumentService);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => instruments.create(caller, { payerId: payer.payerId, paymentMethodName: 'OCA', country: 'URY' })),
    );
    const ids = new Set(results.map((r) => r.instrument.id));
    // The payer row is locked while an instrument is created, so the requests queue and reuse the first.
    expect(ids.size).toBe(1);
  });
});
