import { BusinessService } from '@pcs/businesses';
import { Caller, Currency, DomainError, Money } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { serviceContext, ServiceContext } from '@pcs/testing';
import { PaymentIntentActivityModule } from '../payment-intent-activity.module';
import { PaymentsModule } from '../payments.module';
import { B2bPaymentIntentsService } from './b2b-payment-intents.service';
import { CheckoutExpiryService } from './checkout-expiry.service';

/** B2B intents and their checkouts on PostgreSQL: what one creation writes, and expiry by concurrent sweeps. */
describe('B2B payment intents service on PostgreSQL', () => {
  let services: ServiceContext;
  let b2b: B2bPaymentIntentsService;
  let caller: Caller;

  beforeAll(async () => {
    // A checkout expires about a second after it opens.
    services = await serviceContext([PaymentIntentActivityModule, PaymentsModule], {
      gateway: { checkoutMinutes: 1 / 60 },
      poolSize: 8,
    });
    b2b = services.get(B2bPaymentIntentsService);
    const business = await services.get(BusinessService).create('B2B services');
    const merchant = await services
      .get(MerchantService)
      .create({ businessId: business.businessId, name: 'Shop', countryIso3: 'URY', approve: true });
    const [credential] = await services.dataSource.query(`SELECT credential_id FROM api_credential WHERE api_key = $1`, [merchant.apiKey]);
    caller = { credentialId: credential.credential_id, businessId: business.businessId, merchantId: merchant.merchantId };
  });
  afterAll(() => services.close());

  const count = async (table: string) => (await services.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;
  const command = (extra: object = {}) => ({
    countryCode: 'URY',
    amount: Money.ofMinor(122000, Currency.UYU),
    redirectUrl: 'https://shop.example/r',
    ...extra,
  });

  it('writes the intent and its checkout together, or nothing at all', async () => {
    const [intents, checkouts] = [await count('payment_intent'), await count('b2b_checkout')];
    const view = await b2b.create(caller, command({ paymentMethods: { name: 'CREDIT_CARD', networks: ['VISA', 'VISA'] } }));
    expect(view.intent.snapshot()).toMatchObject({
      origin: 'B2B',
      status: 'REQUIRES_PAYMENT_INSTRUMENT',
      taxAmount: 22000,
      preferredInstrumentType: 'CREDIT_CARD',
      allowedPaymentMethods: ['VISA'],
    });
    expect(view.available.map((p) => `${p.paymentInstrumentType.name} ${p.paymentMethod.name}`)).toEqual(['CREDIT_CARD VISA']);
    expect(view.checkout).toMatchObject({
      credentialId: caller.credentialId,
      redirectUrl: 'https://shop.example/r',
      includeAllPaymentMethods: false,
    });
    expect([await count('payment_intent'), await count('b2b_checkout')]).toEqual([intents + 1, checkouts + 1]);

    // Nothing to pay with: refused before anything is written.
    const refused = b2b.create(caller, command({ paymentMethods: { name: 'PIX' } }));
    await expect(refused).rejects.toBeInstanceOf(DomainError);
    await expect(refused).rejects.toMatchObject({ code: 'PAYMENT_METHOD_NOT_AVAILABLE' });
    expect([await count('payment_intent'), await count('b2b_checkout')]).toEqual([intents + 1, checkouts + 1]);
  });

  it('the same operation id twice, even at once, makes one intent', async () => {
    const operationId = '7d1f1c2e-5b4a-4c3d-9e8f-0a1b2c3d4e5f';
    const [a, b] = await Promise.all([b2b.create(caller, command(), operationId), b2b.create(caller, command(), operationId)]);
    expect(a.intent.id).toBe(operationId);
    expect(b.intent.id).toBe(operationId);
    expect(
      (await services.dataSource.query(`SELECT count(*)::int AS n FROM b2b_checkout WHERE payment_intent_id = $1`, [operationId]))[0].n,
    ).toBe(1);
  });

  it('expires unpaid checkouts once, however many replicas sweep at the same time', async () => {
    const views = await Promise.all([1, 2, 3].map(() => b2b.create(caller, command())));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const sweeps = services.get(CheckoutExpiryService);
    const expired = await Promise.all([sweeps.expireDue(), sweeps.expireDue(), sweeps.expireDue()]);
    // Every due checkout of the database may expire here (other spec files share it, and may sweep first), but no
    // intent is counted by two sweeps: together they never expire more than have expired.
    const total = expired.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(await count(`payment_intent WHERE origin = 'B2B' AND cancellation_reason = 'EXPIRED'`));
    for (const view of views) {
      const again = await b2b.get(caller, view.intent.id);
      expect(again.intent.snapshot()).toMatchObject({ status: 'CANCELED', cancellationReason: 'EXPIRED' });
    }
  });
});
