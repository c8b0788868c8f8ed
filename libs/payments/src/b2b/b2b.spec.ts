import type { CredentialService } from '@pcs/businesses';
import type { CatalogService, Country } from '@pcs/catalog';
import { Caller, ChangeAlongside, Currency, Money, Page, PaymentIntentId, signRedirect, TenantScope, Transaction } from '@pcs/kernel';
import type { MerchantConfigurationService, MerchantService } from '@pcs/merchants';
import { CreationRules } from '../creation/creation-rules';
import { B2bCheckout } from '../domain/b2b-checkout';
import { anIntent, attemptsWorld, CALLER, MERCHANT_ID, memoryGuard, NOW, unused, VISA } from '../../test/in-memory-ports.fixture';
import { B2bCheckoutRepository, B2bPaymentIntentRecord } from './b2b-checkout.repository';
import { B2bCheckoutService } from './b2b-checkout.service';
import { B2bPaymentIntentsService, CreateB2bPaymentIntentCommand } from './b2b-payment-intents.service';
import { CheckoutExpiryService } from './checkout-expiry.service';

/**
 * B2B payment intents (B6, B7) and their hosted checkout (contract §13) on the context's ports in
 * memory: the intent and its checkout written in one statement, nothing written when the
 * merchant offers nothing to pay with, the checkout acting for the intent's merchant on that intent
 * only, the payer back from the gateway sent to the merchant with the signed parameters (or shown the
 * checkout again after a rejection), and a checkout past its time expired on the spot. Over HTTP and
 * in a real browser: test/b2b-payment-intents.e2e-spec.ts, test/b2b-checkout.e2e-spec.ts.
 */
const URUGUAY = {
  countryId: 'ury',
  iso3: 'URY',
  currencies: [Currency.UYU],
  vatRatesBp: [0, 1000, 2200],
  defaultVatRateBp: 2200,
} as unknown as Country;
const SECRET = 'b2b-api-secret-of-c-1';

class MemoryCheckouts extends B2bCheckoutRepository {
  readonly kept = new Map<string, B2bCheckout>();
  recordedAlongside(checkout: B2bCheckout): ChangeAlongside {
    return memoryGuard(
      { holds: () => !this.kept.has(checkout.reference), apply: () => this.kept.set(checkout.reference, checkout) },
      'the checkout is new',
    );
  }
  findByPaymentIntent(_tx: Transaction, id: PaymentIntentId): Promise<B2bCheckout | null> {
    return Promise.resolve([...this.kept.values()].find((c) => c.paymentIntentId === id) ?? null);
  }
  findByReference(_tx: Transaction, reference: string): Promise<B2bCheckout | null> {
    return Promise.resolve(this.kept.get(reference) ?? null);
  }
  list(): Promise<Page<B2bPaymentIntentRecord>> {
    return unused();
  }
  pastDue = unused;
  /** Time passes: the checkout's time is up. */
  expire(reference: string): void {
    const checkout = this.kept.get(reference)!;
    this.kept.set(reference, { ...checkout, expiresAt: new Date(Date.now() - 1000) });
  }
}

function world(options: { processors?: (typeof VISA)[] } = {}) {
  const w = attemptsWorld({ processors: options.processors ?? [VISA] });
  const checkouts = new MemoryCheckouts();
  const merchant = { id: MERCHANT_ID, assertCanCollect: () => undefined, snapshot: () => ({ merchantName: 'Tienda Pocitos' }) };
  const merchants = {
    resolve: () => Promise.resolve(merchant),
    findById: () => Promise.resolve({ merchantName: 'Tienda Pocitos', account: { serviceAccount: null } }),
    load: () => Promise.resolve({ snapshot: () => ({ merchantName: 'Tienda Pocitos' }) }),
    scopeOf: (caller: Caller): Promise<TenantScope> => Promise.resolve({ businessId: caller.businessId, merchantId: caller.merchantId }),
  } as unknown as MerchantService;
  const catalog = {
    findCountryByIso3: (iso3: string) => Promise.resolve(iso3 === 'URY' ? URUGUAY : null),
    findCountryProcessors: (ids: string[]) => Promise.resolve([VISA].filter((p) => ids.includes(p.countryProcessorId))),
  } as unknown as CatalogService;
  const configurations = { vatRateFor: () => Promise.resolve(null) } as unknown as MerchantConfigurationService;
  const rules = new CreationRules(w.unitOfWork, catalog, configurations, w.intents, w.payins, w.attempts);
  const b2b = new B2bPaymentIntentsService(
    w.unitOfWork,
    merchants,
    catalog,
    w.intents,
    checkouts,
    w.available,
    w.payins,
    rules,
    w.settings,
  );
  const expiry = new CheckoutExpiryService(w.unitOfWork, w.intents, checkouts, w.payins, w.outcomes);
  const credentials = {
    secretOf: (id: string) => Promise.resolve(id === CALLER.credentialId ? SECRET : null),
  } as unknown as CredentialService;
  const checkout = new B2bCheckoutService(
    w.unitOfWork,
    checkouts,
    w.intents,
    b2b,
    w.attempts,
    expiry,
    w.payins,
    w.registry,
    credentials,
    w.settings,
    w.installmentQuotes,
    w.cardTesting,
  );
  return { ...w, checkouts, b2b, checkout };
}

const b6 = (overrides: Partial<CreateB2bPaymentIntentCommand> = {}): CreateB2bPaymentIntentCommand => ({
  countryCode: 'URY',
  amount: Money.ofMinor(250000, Currency.UYU),
  externalReference: 'po-88',
  redirectUrl: 'https://merchant.example/back?order=88',
  ...overrides,
});

const referenceOf = (url: string) => url.split('/checkout/')[1];

describe('B2bPaymentIntentsService (on the ports, in memory)', () => {
  it('creates the intent with its checkout, which acts with the creating credentials and ends after the checkout time', async () => {
    const { b2b, checkouts, intents } = world();
    const before = Date.now();
    const view = await b2b.create(CALLER, b6());
    expect(view.intent.snapshot()).toMatchObject({
      origin: 'B2B',
      status: 'REQUIRES_PAYMENT_INSTRUMENT',
      amount: 250000,
      vatRateBp: 2200,
      externalReference: 'po-88',
    });
    expect(view.checkoutUrl).toMatch(/^https:\/\/pay\.example\/checkout\/chk_[\w-]{24}$/);
    const [kept] = checkouts.kept.values();
    expect(kept).toMatchObject({
      paymentIntentId: view.intent.id,
      credentialId: CALLER.credentialId,
      redirectUrl: 'https://merchant.example/back?order=88',
      includeAllPaymentMethods: true,
    });
    expect(kept.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 60 * 60_000);
    expect(view.available.map((p) => p.countryProcessorId)).toEqual(['cp-visa']);
    expect(intents.read(view.intent.id)).not.toBeNull();
  });

  it('writes nothing when the merchant offers nothing to pay with there, and refuses a VAT amount not below the amount', async () => {
    const { b2b, checkouts, intents } = world({ processors: [] });
    await expect(b2b.create(CALLER, b6())).rejects.toMatchObject({ code: 'PAYMENT_METHOD_NOT_AVAILABLE' });
    await expect(b2b.create(CALLER, b6({ vatAmount: Money.ofMinor(250000, Currency.UYU) }))).rejects.toMatchObject({
      fields: ['amountDetails.vatAmount'],
    });
    expect(intents.rows.size).toBe(0);
    expect(checkouts.kept.size).toBe(0);
  });

  it('answers a repeated operation with what it made; another tenant’s B2B intent, or a payins API intent, is not found', async () => {
    const { b2b, intents } = world();
    const operationId = '4d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a';
    const first = await b2b.create(CALLER, b6(), operationId);
    const again = await b2b.create(CALLER, b6(), operationId);
    expect(again.checkoutUrl).toBe(first.checkoutUrl);
    expect(intents.rows.size).toBe(1);
    const stranger: Caller = { credentialId: 'c-9', businessId: 'b-9' as never, merchantId: null };
    await expect(b2b.get(stranger, first.intent.id)).rejects.toMatchObject({ code: 'PAYMENT_INTENT_NOT_FOUND' });
    const fromPayinsApi = anIntent();
    intents.put(fromPayinsApi);
    await expect(b2b.get(CALLER, fromPayinsApi.id)).rejects.toMatchObject({ code: 'PAYMENT_INTENT_NOT_FOUND' });
    expect((await b2b.get(CALLER, first.intent.id)).intent.id).toBe(first.intent.id);
  });
});

describe('B2bCheckoutService (on the ports, in memory)', () => {
  it('offers the methods, sends the payer to the gateway for the intent’s merchant with the checkout as the way back', async () => {
    const { b2b, checkout, gateway } = world();
    const reference = referenceOf((await b2b.create(CALLER, b6())).checkoutUrl);
    expect(await checkout.page(reference)).toMatchObject({ kind: 'CHOOSE', lastError: null });
    const started = await checkout.start(reference, 'cp-visa', '203.0.113.9');
    expect(started).toEqual({ gatewayUrl: expect.stringContaining('https://sandbox.example/pay/') });
    expect(gateway.checkouts).toEqual([
      expect.objectContaining({ amount: 250000, returnUrl: `https://pay.example/checkout/${reference}/return` }),
    ]);
    expect(await checkout.page(reference)).toMatchObject({ kind: 'AT_GATEWAY' });
  });

  it('sends the payer back to the merchant once paid, with the parameters signed by the creating credentials’ secret', async () => {
    const { b2b, checkout, intents } = world();
    const created = await b2b.create(CALLER, b6());
    const reference = referenceOf(created.checkoutUrl);
    await checkout.start(reference, 'cp-visa', '203.0.113.9');
    intents.change(created.intent.id, (i) => i.succeed('sbx-1', NOW));
    const back = await checkout.afterGateway(reference, 0);
    expect(back).toHaveProperty('redirect');
    const url = new URL((back as { redirect: string }).redirect);
    expect(url.origin + url.pathname).toBe('https://merchant.example/back');
    const parameters = {
      paymentIntentId: url.searchParams.get('paymentIntentId')!,
      externalReference: url.searchParams.get('externalReference')!,
      status: url.searchParams.get('status')!,
      timestamp: url.searchParams.get('timestamp')!,
    };
    expect(parameters).toMatchObject({ paymentIntentId: created.intent.id, externalReference: 'po-88', status: 'APPROVED' });
    expect(url.searchParams.get('order')).toBe('88');
    expect(url.searchParams.get('signature')).toBe(signRedirect(parameters, SECRET));
  });

  it('shows the checkout again after a rejection, with the reason, instead of leaving', async () => {
    const { b2b, checkout, intents } = world();
    const created = await b2b.create(CALLER, b6());
    const reference = referenceOf(created.checkoutUrl);
    await checkout.start(reference, 'cp-visa', '203.0.113.9');
    intents.change(created.intent.id, (i) => i.fail('card declined', NOW));
    expect(await checkout.afterGateway(reference, 0)).toMatchObject({ page: { kind: 'CHOOSE', lastError: 'card declined' } });
  });

  it('expires a checkout past its time on the spot: the intent CANCELED as EXPIRED, the open attempt ended and its page closed', async () => {
    const { b2b, checkout, checkouts, intents, payins, gateway } = world();
    const created = await b2b.create(CALLER, b6());
    const reference = referenceOf(created.checkoutUrl);
    await checkout.start(reference, 'cp-visa', '203.0.113.9');
    checkouts.expire(reference);
    expect(await checkout.page(reference)).toMatchObject({ kind: 'EXPIRED' });
    expect(intents.read(created.intent.id)!.snapshot()).toMatchObject({ status: 'CANCELED', cancellationReason: 'EXPIRED' });
    expect(payins.ofIntent(created.intent.id, 'PAYIN').map((p) => p.snapshot().status)).toEqual(['EXPIRED']);
    expect(gateway.closed).toEqual([expect.objectContaining({ reason: 'EXPIRED' })]);
    await expect(checkout.start(reference, 'cp-visa', '203.0.113.9')).rejects.toMatchObject({ code: 'PAYMENT_INTENT_INVALID_STATE' });
  });

  it('says GONE of a reference that is not a checkout’s, without reading anything for a malformed one', async () => {
    const { checkout, checkouts } = world();
    checkouts.findByReference = () => Promise.reject(new Error('read for a malformed reference'));
    expect(await checkout.page('../../etc/passwd')).toEqual({ kind: 'GONE' });
    expect(await checkout.page('chk_')).toEqual({ kind: 'GONE' });
    expect(await checkout.returnToMerchant('not-a-reference')).toBeNull();
  });
});
