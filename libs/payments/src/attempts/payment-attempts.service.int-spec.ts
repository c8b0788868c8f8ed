import { INestApplicationContext } from '@nestjs/common';
import { BusinessService } from '@pcs/businesses';
import { CatalogService } from '@pcs/catalog';
import { Caller, Currency, Money, PayinType } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { PayerService } from '@pcs/payers';
import { PaymentInstrumentService } from '@pcs/payment-instruments';
import { serviceContext, ServiceContext } from '@pcs/testing';
import { DataSource } from 'typeorm';
import { PaymentIntentCreationService } from '../creation/payment-intent-creation.service';
import { PaymentIntentActivityModule } from '../payment-intent-activity.module';
import { PaymentsModule } from '../payments.module';
import { ReconciliationService } from '../reconciliation/reconciliation.service';
import { PaymentAttemptsService } from './payment-attempts.service';
import { ChargesOffSession, GatewayRegistry, PaymentGateway } from '@pcs/gateways';

/** Collection attempts with their real collaborators on PostgreSQL: checkouts, off-session outcomes, reconciliation. */
describe('payment attempts service on PostgreSQL', () => {
  let services: ServiceContext;
  let context: INestApplicationContext;
  let dataSource: DataSource;
  let attempts: PaymentAttemptsService;
  let caller: Caller;
  let processorId: string;
  let create: (amountMinor: number, withInstrument: boolean) => ReturnType<PaymentIntentCreationService['create']>;

  beforeAll(async () => {
    services = await serviceContext([PaymentIntentActivityModule, PaymentsModule], {
      gateway: { sandboxSettleSeconds: 0, reconcileAfterSeconds: 30 },
      poolSize: 8,
    });
    context = services.context;
    dataSource = services.dataSource;
    attempts = context.get(PaymentAttemptsService);
    const business = await context.get(BusinessService).create('Attempt services');
    const merchant = await context
      .get(MerchantService)
      .create({ businessId: business.businessId, name: 'Shop', countryIso3: 'URY', approve: true });
    caller = { credentialId: 'c', businessId: business.businessId, merchantId: merchant.merchantId };
    const payer = await context.get(PayerService).create(caller, { firstName: 'Attempt', lastName: 'Target' });
    const instrument = await context
      .get(PaymentInstrumentService)
      .create(caller, { payerId: payer.payerId, paymentMethodName: 'VISA', country: 'URY' });
    processorId = (await context.get(CatalogService).countryProcessorsOfCountry('URY')).find(
      (p) => p.paymentMethod.name === 'OCA',
    )!.countryProcessorId;
    create = (amountMinor, withInstrument) =>
      context.get(PaymentIntentCreationService).create(caller, {
        amount: Money.ofMinor(amountMinor, Currency.UYU),
        payinType: PayinType.DEFAULT,
        externalReference: 'attempt-int',
        payerId: payer.payerId,
        offSession: withInstrument,
        invoiceNumber: 1,
        country: 'URY',
        ...(withInstrument ? { paymentInstrumentId: instrument.instrument.id, confirm: true } : {}),
      });
  });
  afterAll(() => services.close());

  const payins = (
    paymentIntentId: string,
  ): Promise<{ transaction_id: string; status: string; external_id: string | null; reconcile_at: Date | null }[]> =>
    dataSource.query(
      `SELECT transaction_id, status, external_id, reconcile_at FROM payin WHERE payment_intent_id = $1 ORDER BY created_at`,
      [paymentIntentId],
    );

  it('opens a checkout, replaces it on a second initialization, and answers a repeated operation with its first attempt', async () => {
    const intent = await create(25000, false);
    const first = await attempts.initialize(caller, intent.id, processorId);
    expect(first.intent.status).toBe('REQUIRES_ACTION');
    const op = '5b6c7d8e-3333-4333-8333-000000000003';
    const second = await attempts.initialize(caller, intent.id, processorId, op);
    expect(second.gatewayReferenceId).not.toBe(first.gatewayReferenceId);
    expect((await payins(intent.id)).map((p) => [p.external_id, p.status])).toEqual([
      [first.gatewayReferenceId, 'CANCELLED'],
      [second.gatewayReferenceId, 'PENDING'],
    ]);
    const repeated = await attempts.initialize(caller, intent.id, processorId, op);
    expect(repeated).toMatchObject({ gatewayReferenceId: second.gatewayReferenceId, gatewayUrl: second.gatewayUrl });
    expect(await payins(intent.id)).toHaveLength(2);
  });

  it('refuses to initialize a paid intent and writes nothing', async () => {
    const intent = await create(25000, true);
    expect(intent.status).toBe('SUCCEEDED');
    await expect(attempts.initialize(caller, intent.id, processorId)).rejects.toMatchObject({ code: 'PAYMENT_INTENT_INVALID_STATE' });
    expect(await payins(intent.id)).toHaveLength(1);
  });

  it('applies off-session outcomes by amount: rejected (13), and pending (14) until reconciliation hears the gateway approved', async () => {
    const rejected = await create(25013, true);
    expect(rejected.snapshot()).toMatchObject({ status: 'REQUIRES_PAYMENT_INSTRUMENT', lastPaymentError: 'insufficient funds' });
    expect((await payins(rejected.id))[0].status).toBe('REJECTED');

    const pending = await create(25014, true);
    expect(pending.status).toBe('PROCESSING');
    const [scheduled] = await payins(pending.id);
    expect(scheduled.status).toBe('SCHEDULED');
    expect(scheduled.reconcile_at).not.toBeNull();
    // The sandbox settles it at once (settle time 0); its callback cannot reach an HTTP server here,
    // so it is reconciliation that hears the outcome from the gateway.
    await context.get(ReconciliationService).reconcileDue(new Date(Date.now() + 31_000));
    const [settled] = await payins(pending.id);
    expect(settled.status).toBe('APPROVED');
    expect(settled.reconcile_at).toBeNull();
    const [row] = await dataSource.query(`SELECT status, received_amount FROM payment_intent WHERE payment_intent_id = $1`, [pending.id]);
    expect(row).toEqual({ status: 'SUCCEEDED', received_amount: '25014' });
  });

  it('charges one payer off-session many times at once with its instrument named by method: no charge deadlocks with a creation', async () => {
    // Each creation takes the payer for update and names the instrument (its foreign key takes it for key share)
    // while earlier charges record what the gateway taught the same instrument: those must not wait on each other
    // in a cycle (a bench run saw "deadlock detected" become a 500 once charges answered faster).
    const payer = await context.get(PayerService).create(caller, { firstName: 'Many', lastName: 'Charges' });
    const charge = () =>
      context.get(PaymentIntentCreationService).create(caller, {
        amount: Money.ofMinor(30000, Currency.UYU),
        payinType: PayinType.DEFAULT,
        externalReference: 'many-charges',
        payerId: payer.payerId,
        offSession: true,
        invoiceNumber: 1,
        country: 'URY',
        paymentInstrumentData: { paymentMethodName: 'OCA' },
        confirm: true,
      });
    const statuses: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 5; i++) statuses.push((await charge()).status);
      }),
    );
    expect(statuses).toEqual(Array.from({ length: 40 }, () => 'SUCCEEDED'));
    const [row] = await dataSource.query(
      `SELECT count(*)::int AS instruments, bool_and(validated) AS validated FROM payment_instrument WHERE payer_id = $1`,
      [payer.payerId],
    );
    expect(row).toEqual({ instruments: 1, validated: true });
  });

  describe('a saved instrument charged without a transaction (one statement each side of the processor)', () => {
    const saved = async (name: string) => {
      const payer = await context.get(PayerService).create(caller, { firstName: name, lastName: 'Saved' });
      const instrument = await context
        .get(PaymentInstrumentService)
        .create(caller, { payerId: payer.payerId, paymentMethodName: 'VISA', country: 'URY' });
      return { payerId: payer.payerId, instrumentId: instrument.instrument.id };
    };
    const charge = (card: { payerId: string; instrumentId: string }, externalReference: string) =>
      context.get(PaymentIntentCreationService).create(caller, {
        amount: Money.ofMinor(40000, Currency.UYU),
        payinType: PayinType.DEFAULT,
        externalReference,
        payerId: card.payerId as never,
        offSession: true,
        invoiceNumber: 1,
        country: 'URY',
        paymentInstrumentId: card.instrumentId as never,
        confirm: true,
      });
    const sandbox = () => context.get(GatewayRegistry).get('SANDBOX') as PaymentGateway & ChargesOffSession;
    afterEach(() => jest.restoreAllMocks());

    it('answers the intent SUCCEEDED, its attempt APPROVED with the reference, and the instrument validated by its first approval', async () => {
      const card = await saved('First');
      const intent = await charge(card, 'saved-first');
      expect(intent.status).toBe('SUCCEEDED');
      const [attempt] = await payins(intent.id);
      expect(attempt).toMatchObject({ status: 'APPROVED', external_id: expect.any(String) });
      const [row] = await dataSource.query(`SELECT status, received_amount FROM payment_intent WHERE payment_intent_id = $1`, [intent.id]);
      expect(row).toEqual({ status: 'SUCCEEDED', received_amount: '40000' });
      const [instrument] = await dataSource.query(
        `SELECT validated, external_id, card_last4 FROM payment_instrument WHERE payment_instrument_id = $1`,
        [card.instrumentId],
      );
      expect(instrument).toMatchObject({ validated: true, external_id: expect.any(String), card_last4: expect.stringMatching(/^\d{4}$/) });
      // Every event of the intent recorded once, numbered in order: its creation, its charge started, its success.
      const events = await dataSource.query(`SELECT type, sequence FROM event WHERE subject_id = $1 ORDER BY sequence`, [intent.id]);
      expect(events).toEqual([
        { type: 'payment_intent.created', sequence: 1 },
        { type: 'payment_intent.processing', sequence: 2 },
        { type: 'payment_intent.succeeded', sequence: 3 },
      ]);
    });

    it('applies the answer to the intent as it is when another writer changed it after its creation (nothing of theirs lost)', async () => {
      const card = await saved('Meanwhile');
      const charging = sandbox().chargeOffSession.bind(sandbox());
      jest.spyOn(sandbox(), 'chargeOffSession').mockImplementation(async (request) => {
        // Another writer changes the intent while the processor is asked.
        await dataSource.query(
          `UPDATE payment_intent SET description = 'changed meanwhile'
            WHERE payment_intent_id = (SELECT payment_intent_id FROM payin WHERE transaction_id = $1)`,
          [request.payinId],
        );
        return charging(request);
      });
      const intent = await charge(card, 'saved-meanwhile');
      expect(intent.status).toBe('SUCCEEDED');
      const [row] = await dataSource.query(`SELECT status, description FROM payment_intent WHERE payment_intent_id = $1`, [intent.id]);
      expect(row).toEqual({ status: 'SUCCEEDED', description: 'changed meanwhile' });
      expect((await payins(intent.id)).map((p) => p.status)).toEqual(['APPROVED']);
    });

    it('writes nothing and refuses when the payer is deleted between its read and the write', async () => {
      const card = await saved('Gone');
      const instruments = context.get(PaymentInstrumentService);
      const load = instruments.loadOfHeldPayer.bind(instruments);
      jest.spyOn(instruments, 'loadOfHeldPayer').mockImplementation(async (...args) => {
        const found = await load(...args);
        await dataSource.query(`UPDATE payer SET deleted_at = now() WHERE payer_id = $1`, [card.payerId]);
        return found;
      });
      const charges = jest.spyOn(sandbox(), 'chargeOffSession');
      await expect(charge(card, 'saved-gone')).rejects.toMatchObject({ code: 'PAYER_NOT_FOUND' });
      expect(charges).not.toHaveBeenCalled();
      const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM payment_intent WHERE external_reference = 'saved-gone'`);
      expect(n).toBe(0);
    });
  });
});
