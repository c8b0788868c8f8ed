import { CheckoutOutcomeUnknownError } from '@pcs/gateways';
import { asBusinessId, Caller, DomainError } from '@pcs/kernel';
import { anAttempt, anIntent, attemptsWorld, CALLER, INTENT_ID, MERCHANT_ID, NOW } from '../../test/in-memory-ports.fixture';

/**
 * Collection attempts (operation 21 and off-session charges) on the context's ports in memory and a
 * stand-in gateway: what is asked of the gateway and what is recorded, a replaced attempt closed, a
 * lost checkout answer kept for reconciliation, a retried operation answered from what it recorded,
 * and an off-session charge's answer applied by the outcomes' rules. The same flows over PostgreSQL
 * and the real sandbox: payment-attempts.service.int-spec.ts, test/payment-attempts.e2e-spec.ts.
 */
function world() {
  const w = attemptsWorld();
  w.intents.put(anIntent());
  const intent = () => w.intents.read(INTENT_ID)!.snapshot();
  const attempts = () => w.payins.ofIntent(INTENT_ID, 'PAYIN').map((p) => p.snapshot());
  return { ...w, intent, attemptsOf: attempts };
}

describe('PaymentAttemptsService.initialize (on the ports, in memory)', () => {
  it('opens a checkout for the intent’s whole amount under the attempt’s id, and records it PENDING with the gateway’s reference', async () => {
    const { attempts, gateway, intent, attemptsOf } = world();
    const opened = await attempts.initialize(CALLER, INTENT_ID, 'cp-visa', 'op-1', 'https://merchant.example/back');
    expect(opened).toMatchObject({ gatewayReferenceId: 'sbx-op-1', gatewayUrl: 'https://sandbox.example/pay/op-1' });
    expect(gateway.checkouts).toEqual([
      expect.objectContaining({
        payinId: 'op-1',
        amount: 122000,
        currency: 'UYU',
        merchantName: 'Tienda Pocitos',
        title: 'order-1',
        paymentMethod: 'VISA',
        returnUrl: 'https://merchant.example/back',
        method: { country: 'URY', instrumentType: 'CREDIT_CARD', paymentMethod: 'VISA' },
      }),
    ]);
    expect(gateway.checkouts[0].payer).toBeUndefined();
    expect(intent().status).toBe('REQUIRES_ACTION');
    expect(attemptsOf()).toEqual([
      expect.objectContaining({
        transactionId: 'op-1',
        status: 'PENDING',
        externalId: 'sbx-op-1',
        amount: 122000,
        paymentIntentInitiator: 'PAYER',
        personFirstName: 'Ana',
        fundsFlow: 'PLATFORM',
      }),
    ]);
    expect(attemptsOf()[0].sessionExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
  });

  it('answers a retried operation from what it recorded, opening no second checkout', async () => {
    const { attempts, gateway, attemptsOf } = world();
    const first = await attempts.initialize(CALLER, INTENT_ID, 'cp-visa', 'op-2');
    const again = await attempts.initialize(CALLER, INTENT_ID, 'cp-visa', 'op-2');
    expect(again.gatewayReferenceId).toBe(first.gatewayReferenceId);
    expect(gateway.checkouts).toHaveLength(1);
    expect(attemptsOf()).toHaveLength(1);
  });

  it('replaces an earlier attempt: cancelled in the same write, its checkout closed at the gateway after', async () => {
    const { attempts, gateway, attemptsOf } = world();
    await attempts.initialize(CALLER, INTENT_ID, 'cp-visa', 'op-a');
    await attempts.initialize(CALLER, INTENT_ID, 'cp-visa', 'op-b');
    expect(attemptsOf().map((a) => [a.transactionId, a.status])).toEqual([
      ['op-a', 'CANCELLED'],
      ['op-b', 'PENDING'],
    ]);
    expect(gateway.closed).toEqual([{ reference: 'sbx-op-a', reason: 'CANCELLED' }]);
  });

  it('keeps an attempt whose checkout answer was lost, to be asked about later, and answers GATEWAY_UNREACHABLE', async () => {
    const { attempts, gateway, attemptsOf, intent } = world();
    const answering = gateway.checkout;
    gateway.checkout = () => {
      throw new CheckoutOutcomeUnknownError('SANDBOX', null, 'the connection closed after the request was sent');
    };
    const refused = await attempts.initialize(CALLER, INTENT_ID, 'cp-visa', 'op-3').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'GATEWAY_UNREACHABLE' });
    const [kept] = attemptsOf();
    expect(kept).toMatchObject({ transactionId: 'op-3', status: 'PENDING', externalId: null, sessionExpiresAt: null });
    expect(kept.reconcileAt!.getTime()).toBeGreaterThanOrEqual(Date.now() + 299_000);
    expect(intent().status).toBe('REQUIRES_ACTION');
    // The same operation again: still unavailable until reconciliation settles it, and no second checkout.
    expect(await attempts.initialize(CALLER, INTENT_ID, 'cp-visa', 'op-3').catch((e: unknown) => e)).toMatchObject({
      code: 'GATEWAY_UNREACHABLE',
    });
    expect(gateway.checkouts).toHaveLength(1);
    // Another operation may start a new attempt at once, replacing the lost one.
    gateway.checkout = answering;
    await attempts.initialize(CALLER, INTENT_ID, 'cp-visa', 'op-3b');
    expect(attemptsOf().map((a) => [a.transactionId, a.status])).toEqual([
      ['op-3', 'CANCELLED'],
      ['op-3b', 'PENDING'],
    ]);
  });

  it('binds the reference a lost answer still told, asks about it later, and answers a retry with that checkout', async () => {
    const { attempts, gateway, attemptsOf } = world();
    gateway.checkout = () => {
      throw new CheckoutOutcomeUnknownError('SANDBOX', 'sbx-maybe', 'timed out reading the answer');
    };
    expect(await attempts.initialize(CALLER, INTENT_ID, 'cp-visa', 'op-6').catch((e: unknown) => e)).toMatchObject({
      code: 'GATEWAY_UNREACHABLE',
    });
    expect(attemptsOf()[0]).toMatchObject({ externalId: 'sbx-maybe', sessionExpiresAt: null, status: 'PENDING' });
    expect(attemptsOf()[0].reconcileAt).not.toBeNull();
    const again = await attempts.initialize(CALLER, INTENT_ID, 'cp-visa', 'op-6');
    expect(again).toMatchObject({ gatewayReferenceId: 'sbx-maybe', gatewayUrl: 'https://sandbox.example/pay/sbx-maybe' });
    expect(gateway.checkouts).toHaveLength(1);
  });

  it('closes the checkout it opened when recording it fails, and records nothing', async () => {
    const { attempts, gateway, payins, attemptsOf } = world();
    payins.insert = () => Promise.reject(new Error('the database went away'));
    await expect(attempts.initialize(CALLER, INTENT_ID, 'cp-visa', 'op-4')).rejects.toThrow('the database went away');
    expect(gateway.closed).toEqual([{ reference: 'sbx-op-4', reason: 'CANCELLED' }]);
    expect(attemptsOf()).toEqual([]);
  });

  it('refuses a processor the merchant does not offer, and another tenant’s intent, before asking any gateway', async () => {
    const { attempts, gateway } = world();
    expect(await attempts.initialize(CALLER, INTENT_ID, 'cp-mastercard').catch((e: unknown) => e)).toMatchObject({
      code: 'COUNTRY_PROCESSOR_NOT_AVAILABLE',
    });
    const stranger: Caller = { credentialId: 'c-9', businessId: asBusinessId('b-9'), merchantId: null };
    expect(await attempts.initialize(stranger, INTENT_ID, 'cp-visa').catch((e: unknown) => e)).toMatchObject({
      code: 'PAYMENT_INTENT_NOT_FOUND',
    });
    expect(gateway.checkouts).toEqual([]);
  });

  it('refuses an intent that cannot take a payer to a gateway (already paid) before opening a checkout', async () => {
    const { attempts, gateway, intents } = world();
    intents.change(INTENT_ID, (i) => {
      i.awaitPayerAtGateway(NOW);
      i.succeed('sbx-earlier', NOW);
    });
    expect(await attempts.initialize(CALLER, INTENT_ID, 'cp-visa').catch((e: unknown) => e)).toMatchObject({
      code: 'PAYMENT_INTENT_INVALID_STATE',
    });
    expect(gateway.checkouts).toEqual([]);
  });

  it('hands a gateway that verifies payers the payer’s identity from the record when the page gave none', async () => {
    const { attempts, gateway } = world();
    gateway.payerIdentity = true;
    await attempts.initialize(CALLER, INTENT_ID, 'cp-visa', 'op-5');
    expect(gateway.checkouts[0].payer).toEqual({ name: 'Ana Pérez', email: 'ana@example.uy', document: null, documentType: null });
  });
});

describe('PaymentAttemptsService.chargeOffSession (on the ports, in memory)', () => {
  function committed() {
    const w = world();
    w.intents.rows.clear();
    const intent = anIntent({ confirm: true, paymentInstrumentId: 'pi-1' as never });
    intent.startOffSessionCharge(NOW);
    w.intents.put(intent);
    w.payins.put(anAttempt(intent, { transactionId: 'charge-9', initiator: 'MERCHANT' }));
    return w;
  }

  it('charges the saved instrument with the attempt’s id as the gateway’s idempotency key, and applies the approval', async () => {
    const { attempts, gateway, intent, payins } = committed();
    await attempts.chargeOffSession('charge-9');
    expect(gateway.charges).toEqual([
      {
        payinId: 'charge-9',
        merchantId: MERCHANT_ID,
        instrumentToken: 'tok-saved',
        merchantName: 'Tienda Pocitos',
        paymentMethod: 'VISA',
        currency: 'UYU',
        amount: 122000,
        method: { country: 'URY', paymentMethod: 'VISA', instrumentType: 'CREDIT_CARD' },
        // The stand-in verifies payers (as dLocal, which names every payer): it is told who pays.
        payer: { name: 'Ana Pérez', email: 'ana@example.uy', document: null, documentType: null },
      },
    ]);
    expect(payins.read('charge-9')!.snapshot()).toMatchObject({ status: 'APPROVED', externalId: 'sbx-charge-9', feeAmount: 3050 });
    expect(intent()).toMatchObject({ status: 'SUCCEEDED', receivedAmount: 122000 });
  });

  it('leaves the attempt PENDING for reconciliation when the gateway does not answer, and charges a final attempt never again', async () => {
    const { attempts, gateway, intent, payins } = committed();
    gateway.charge = () => {
      throw new Error('socket hang up');
    };
    await attempts.chargeOffSession('charge-9');
    expect(payins.read('charge-9')!.snapshot().status).toBe('PENDING');
    expect(intent().status).toBe('PROCESSING');
    gateway.charge = () => ({ status: 'REJECTED', reference: 'sbx-charge-9', error: 'card declined' });
    await attempts.chargeOffSession('charge-9');
    expect(intent()).toMatchObject({ status: 'REQUIRES_PAYMENT_INSTRUMENT', lastPaymentError: 'card declined' });
    await attempts.chargeOffSession('charge-9');
    expect(gateway.charges).toHaveLength(2);
  });
});
