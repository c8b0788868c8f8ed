import type { CatalogService, Country } from '@pcs/catalog';
import {
  asMerchantId,
  asPayerId,
  asPaymentInstrumentId,
  Caller,
  Currency,
  DomainError,
  InvalidRequestError,
  Money,
  PayinType,
  Precondition,
} from '@pcs/kernel';
import type { MerchantConfigurationService, MerchantService } from '@pcs/merchants';
import type { PayerService } from '@pcs/payers';
import type { PaymentInstrumentService } from '@pcs/payment-instruments';
import { attemptsWorld, CALLER, MERCHANT_ID, VISA, withoutOffSession } from '../../test/in-memory-ports.fixture';
import { CreatePaymentIntentCommand, PaymentIntentCreationService } from './payment-intent-creation.service';
import { CreationRules } from './creation-rules';

/**
 * Operation 17 on the context's ports in memory: what is resolved before anything is written (the
 * country and its currency, the VAT rate, the merchant, the payer, the instrument), the common
 * creation's one conditional insert, a confirmed creation's off-session charge after the commit, a
 * processor that cannot charge saved cards refused before anything is written, and an operation id
 * answered once. The same over PostgreSQL and HTTP: test/payment-intents-rules.e2e-spec.ts,
 * test/payment-intent-fast-path.e2e-spec.ts, test/payment-journey.e2e-spec.ts.
 */
const URUGUAY = {
  countryId: 'ury',
  iso3: 'URY',
  currencies: [Currency.UYU, Currency.USD],
  vatRatesBp: [0, 1000, 2200],
  defaultVatRateBp: 2200,
} as unknown as Country;
const PAYER_ID = asPayerId('0b6f3a2e-8c1d-4e5f-9a7b-6c5d4e3f2a1b');
const INSTRUMENT_ID = asPaymentInstrumentId('5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d');

function world(options: { vatRateBp?: number | null } = {}) {
  const w = attemptsWorld();
  const payer = { merchantId: MERCHANT_ID, email: 'ana@example.uy', firstName: 'Ana', lastName: 'Pérez' };
  const payerLoads: string[] = [];
  const payers = {
    loadVisible: (_caller: Caller, payerId: string, _tx?: unknown, lock?: string) => {
      payerLoads.push(lock ?? 'none');
      if (payerId !== PAYER_ID) return Promise.reject(new DomainError('PAYER_NOT_FOUND'));
      return Promise.resolve({ id: PAYER_ID, snapshot: () => payer });
    },
    whileLive: () => ({}) as Precondition,
  } as unknown as PayerService;
  const instrument = {
    paymentInstrumentId: INSTRUMENT_ID,
    payerId: PAYER_ID,
    active: true,
    paymentMethodId: 'pm-visa',
    paymentInstrumentTypeId: 'pit-credit',
    externalId: 'tok-visa-4242',
  };
  // As the service answers: another payer's instrument is not found.
  const instruments = {
    whileActive: () => ({}) as Precondition,
    loadOfHeldPayer: (_caller: Caller, _id: string, payerId: string) =>
      instrument.payerId === payerId
        ? Promise.resolve({ snapshot: () => instrument })
        : Promise.reject(new DomainError('PAYMENT_INSTRUMENT_NOT_FOUND')),
  } as unknown as PaymentInstrumentService;
  const merchant = { id: MERCHANT_ID, assertCanCollect: () => undefined, snapshot: () => ({ merchantName: 'Tienda Pocitos' }) };
  const merchants = {
    resolve: () => Promise.resolve(merchant),
  } as unknown as MerchantService;
  const catalog = { findCountryByIso3: (iso3: string) => Promise.resolve(iso3 === 'URY' ? URUGUAY : null) } as unknown as CatalogService;
  const configurations = {
    vatRateFor: () => Promise.resolve(options.vatRateBp === undefined ? 1000 : options.vatRateBp),
  } as unknown as MerchantConfigurationService;
  const rules = new CreationRules(w.unitOfWork, catalog, configurations, w.intents, w.payins, w.attempts);
  const service = new PaymentIntentCreationService(
    w.routing,
    w.unitOfWork,
    merchants,
    catalog,
    payers,
    instruments,
    w.intents,
    w.payins,
    w.attempts,
    w.parties,
    w.available,
    rules,
    w.pricing,
    w.installmentQuotes,
  );
  return { ...w, service, payer, payerLoads, instrument };
}

const command = (overrides: Partial<CreatePaymentIntentCommand> = {}): CreatePaymentIntentCommand => ({
  amount: Money.ofMinor(122000, Currency.UYU),
  payinType: PayinType.DEFAULT,
  externalReference: 'order-7',
  payerId: PAYER_ID,
  offSession: false,
  invoiceNumber: 7,
  country: 'URY',
  ...overrides,
});

describe('PaymentIntentCreationService (on the ports, in memory)', () => {
  it('creates for an existing payer in one conditional insert: the merchant’s VAT rate, the payer’s e-mail for the receipt', async () => {
    const { service, intents, payins, unitOfWork } = world();
    let required = 0;
    const recordWhile = intents.recordWhile.bind(intents);
    intents.recordWhile = (...args) => {
      required += 1;
      return recordWhile(...args);
    };
    const intent = await service.create(CALLER, command());
    expect(intent.snapshot()).toMatchObject({
      status: 'REQUIRES_PAYMENT_INSTRUMENT',
      amount: 122000,
      vatRateBp: 1000,
      taxAmount: 11091,
      payerId: PAYER_ID,
      receiptEmail: 'ana@example.uy',
      externalReference: 'order-7',
      confirmationMethod: 'MANUAL',
    });
    expect(required).toBe(1);
    expect(unitOfWork.committed).toBe(0);
    expect(intents.read(intent.id)!.snapshot()).toEqual(intent.snapshot());
    expect(payins.all()).toEqual([]);
  });

  it('answers PAYER_NOT_FOUND and writes nothing when the payer is gone by the insert', async () => {
    const { service, intents } = world();
    intents.requirementHolds = false;
    await expect(service.create(CALLER, command())).rejects.toMatchObject({ code: 'PAYER_NOT_FOUND' });
    expect(intents.rows.size).toBe(0);
  });

  it('refuses another merchant’s payer, a missing payer, and a request with neither payerId nor payerData', async () => {
    const { service, payer, intents } = world();
    expect(
      await service.create(CALLER, command({ payerId: asPayerId('00000000-0000-4000-8000-000000000000') })).catch((e: unknown) => e),
    ).toMatchObject({
      code: 'PAYER_NOT_FOUND',
    });
    Object.assign(payer, { merchantId: asMerchantId('another-merchant') });
    expect(await service.create(CALLER, command()).catch((e: unknown) => e)).toMatchObject({ code: 'PAYER_NOT_FOUND' });
    const neither = await service.create(CALLER, command({ payerId: undefined })).catch((e: unknown) => e);
    expect(neither).toBeInstanceOf(InvalidRequestError);
    expect(intents.rows.size).toBe(0);
  });

  it('refuses a currency the country does not take and a VAT rate it does not allow, before anything is written', async () => {
    const { service, intents } = world();
    expect(await service.create(CALLER, command({ amount: Money.ofMinor(1000, Currency.BRL) })).catch((e: unknown) => e)).toMatchObject({
      code: 'CURRENCY_NOT_ACCEPTED',
    });
    expect(await service.create(CALLER, command({ vatPercentage: 18 })).catch((e: unknown) => e)).toMatchObject({
      code: 'VAT_RATE_NOT_ALLOWED',
    });
    expect(await service.create(CALLER, command({ country: 'ATA' })).catch((e: unknown) => e)).toBeInstanceOf(InvalidRequestError);
    expect(intents.rows.size).toBe(0);
  });

  it('confirms with a saved instrument: the intent and a MERCHANT attempt committed, then charged off-session with the instrument’s token', async () => {
    const { service, intents, payins, gateway, unitOfWork, payerLoads } = world();
    const intent = await service.create(CALLER, command({ paymentInstrumentId: INSTRUMENT_ID, confirm: true, offSession: true }));
    // No transaction: the intent and its attempt in one statement (the payer and the instrument required as they were read),
    // the gateway asked, its answer applied in one more while neither row changed.
    expect(unitOfWork.committed).toBe(0);
    expect(payerLoads).toEqual(['none']);
    const [attempt] = payins.all().map((p) => p.snapshot());
    expect(attempt).toMatchObject({
      paymentIntentId: intent.id,
      paymentIntentInitiator: 'MERCHANT',
      countryProcessorId: VISA.countryProcessorId,
      amount: 122000,
      status: 'APPROVED',
      personFirstName: 'Ana',
    });
    expect(gateway.charges).toEqual([
      expect.objectContaining({ payinId: attempt.transactionId, instrumentToken: 'tok-visa-4242', amount: 122000 }),
    ]);
    expect(intent.snapshot()).toMatchObject({ status: 'SUCCEEDED', receivedAmount: 122000, paymentInstrumentId: INSTRUMENT_ID });
    expect(intents.read(intent.id)!.snapshot().status).toBe('SUCCEEDED');
  });

  it('takes the transaction path when the payer or the instrument changed between its reads and its one statement', async () => {
    const { service, intents, payins, gateway, unitOfWork, payerLoads } = world();
    intents.requirementHolds = false; // the statement finds the payer gone or the instrument inactive: it writes nothing
    const intent = await service.create(CALLER, command({ paymentInstrumentId: INSTRUMENT_ID, confirm: true }));
    // The transaction path read them again (the payer for key share) and decided: here they are fine, and the charge went through once.
    expect(payerLoads).toEqual(['none', 'share']);
    expect(unitOfWork.committed).toBe(2);
    expect(gateway.charges).toHaveLength(1);
    expect(payins.all()).toHaveLength(1);
    expect(intents.read(intent.id)!.snapshot().status).toBe('SUCCEEDED');
  });

  it('applies the answer with the intent read and locked again when the intent changed after its creation wrote it', async () => {
    const { service, intents, payins, gateway, unitOfWork } = world();
    const charge = gateway.charge;
    gateway.charge = (request) => {
      // Another request changes the intent while the gateway is asked (its version moves on).
      intents.change(payins.read(request.payinId)!.snapshot().paymentIntentId, (intent) => intent.pullChanges());
      return charge(request);
    };
    const intent = await service.create(CALLER, command({ paymentInstrumentId: INSTRUMENT_ID, confirm: true }));
    // The one-statement write found the intent changed and wrote nothing; applyChargeAnswer's transaction applied the answer.
    expect(unitOfWork.committed).toBe(1);
    expect(intent.snapshot().status).toBe('SUCCEEDED');
    expect(intents.read(intent.id)!.snapshot().status).toBe('SUCCEEDED');
    expect(payins.all().map((p) => p.snapshot().status)).toEqual(['APPROVED']);
  });

  it('refuses a confirmed creation at a processor that does not charge saved instruments, writing nothing', async () => {
    const { service, intents, payins, gateway } = world();
    withoutOffSession(gateway);
    const refused = await service.create(CALLER, command({ paymentInstrumentId: INSTRUMENT_ID, confirm: true })).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'OFF_SESSION_NOT_SUPPORTED' });
    expect(intents.rows.size).toBe(0);
    expect(payins.all()).toEqual([]);
    expect(gateway.charges).toEqual([]);
  });

  it('refuses a confirmed creation where the merchant’s account may not charge without the payer (409), writing nothing', async () => {
    const { service, intents, payins, gateway } = world();
    gateway.offSession = false;
    const refused = await service.create(CALLER, command({ paymentInstrumentId: INSTRUMENT_ID, confirm: true })).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'OFF_SESSION_NOT_AVAILABLE' });
    expect([intents.rows.size, payins.all(), gateway.charges]).toEqual([0, [], []]);
  });

  it('refuses another payer’s instrument and an inactive one', async () => {
    const { service, instrument, intents } = world();
    Object.assign(instrument, { active: false });
    expect(
      await service.create(CALLER, command({ paymentInstrumentId: INSTRUMENT_ID, confirm: true })).catch((e: unknown) => e),
    ).toMatchObject({
      code: 'PAYMENT_INSTRUMENT_NOT_FOUND',
    });
    Object.assign(instrument, { active: true, payerId: asPayerId('someone-else') });
    expect(await service.create(CALLER, command({ paymentInstrumentId: INSTRUMENT_ID })).catch((e: unknown) => e)).toMatchObject({
      code: 'PAYMENT_INSTRUMENT_NOT_FOUND',
    });
    expect(intents.rows.size).toBe(0);
  });

  it('answers a repeated operation with the intent it made, charging once', async () => {
    const { service, intents, gateway } = world();
    const operationId = '7c6b5a49-3827-4165-9443-322110ffeedd';
    const first = await service.create(CALLER, command({ paymentInstrumentId: INSTRUMENT_ID, confirm: true }), operationId);
    const again = await service.create(CALLER, command({ paymentInstrumentId: INSTRUMENT_ID, confirm: true }), operationId);
    expect(first.id).toBe(operationId);
    expect(again.snapshot()).toEqual(first.snapshot());
    expect(intents.rows.size).toBe(1);
    expect(gateway.charges).toHaveLength(1);
  });

  it('sends a repeated operation’s charge again when its answer was never recorded, with the same attempt id (the gateway’s idempotency key)', async () => {
    const { service, gateway, payins } = world();
    const operationId = '1a2b3c4d-5e6f-4071-8293-a4b5c6d7e8f9';
    const charge = gateway.charge;
    gateway.charge = () => {
      throw new Error('socket hang up');
    };
    const first = await service.create(CALLER, command({ paymentInstrumentId: INSTRUMENT_ID, confirm: true }), operationId);
    expect(first.snapshot().status).toBe('PROCESSING');
    gateway.charge = charge;
    const again = await service.create(CALLER, command({ paymentInstrumentId: INSTRUMENT_ID, confirm: true }), operationId);
    expect(again.snapshot().status).toBe('SUCCEEDED');
    expect(gateway.charges.map((c) => c.payinId)).toEqual([payins.all()[0].id, payins.all()[0].id]);
    expect(payins.all()).toHaveLength(1);
  });
});
