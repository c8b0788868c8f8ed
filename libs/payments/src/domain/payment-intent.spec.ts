import fc from 'fast-check';
import {
  asBusinessId,
  asMerchantId,
  asPayerId,
  asPaymentInstrumentId,
  asPaymentIntentId,
  Currency,
  DomainError,
  Money,
  PayinType,
} from '@pcs/kernel';
import { PAYMENT_INTENT_STATUSES, PaymentIntent, PaymentIntentStatus } from './payment-intent';
import { apiIntent, b2bIntent, fastIntent, linkIntent } from './payment-intent-origins';

const now = new Date('2026-11-01T00:00:00Z');

function intentIn(status: PaymentIntentStatus, received = 0, refunded = 0): PaymentIntent {
  const created = PaymentIntent.create({
    paymentIntentId: asPaymentIntentId('pi'),
    businessId: asBusinessId('b'),
    merchantId: asMerchantId('m'),
    payerId: asPayerId('p'),
    paymentInstrumentId: asPaymentInstrumentId('i'),
    countryId: 'ury',
    origin: 'API',
    payinType: PayinType.DEFAULT,
    amount: Money.ofMinor(12200, Currency.UYU),
    tip: Money.zero(Currency.UYU),
    vatRateBp: 2200,
    externalReference: 'r',
    externalInvoiceId: '1',
    invoiceNumber: 1,
    invoiceEmail: null,
    description: null,
    receiptEmail: null,
    setupFutureUsage: false,
    offSession: false,
    confirmationMethod: 'MANUAL',
    metadata: null,
    linkId: null,
    preferredPaymentMethod: null,
    preferredInstrumentType: null,
    allowedPaymentMethods: null,
    additionalInfo: null,
    createdAt: now,
  });
  return PaymentIntent.restore({ ...created.snapshot(), status, receivedAmount: received, refundedAmount: refunded });
}

const ALL = PAYMENT_INTENT_STATUSES;

/** Contract §9, as (transition, from-states it is allowed in, resulting state). */
const TRANSITIONS: [string, (i: PaymentIntent) => unknown, PaymentIntentStatus[], PaymentIntentStatus | null][] = [
  [
    'initialize at a gateway',
    (i) => i.awaitPayerAtGateway(now),
    ['REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_CONFIRMATION', 'REQUIRES_ACTION'],
    'REQUIRES_ACTION',
  ],
  ['charge off-session', (i) => i.startOffSessionCharge(now), ['REQUIRES_CONFIRMATION'], 'PROCESSING'],
  ['payer completes, money on its way', (i) => i.markProcessing(now), ['REQUIRES_ACTION', 'PROCESSING'], 'PROCESSING'],
  ['gateway approves', (i) => i.succeed('ch', now), ['REQUIRES_ACTION', 'PROCESSING'], 'SUCCEEDED'],
  ['gateway rejects', (i) => i.fail('declined', now), ['REQUIRES_ACTION', 'PROCESSING'], 'REQUIRES_PAYMENT_INSTRUMENT'],
  ['payer abandons the page', (i) => i.expireAttempt(now), ['REQUIRES_ACTION'], 'REQUIRES_PAYMENT_INSTRUMENT'],
  [
    'cancel',
    (i) => i.cancel('merchant asked', now),
    ['REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_CONFIRMATION', 'REQUIRES_ACTION', 'PROCESSING'],
    'CANCELED',
  ],
];

describe('PaymentIntent state machine (contract §9)', () => {
  it('starts REQUIRES_PAYMENT_INSTRUMENT without an instrument and REQUIRES_CONFIRMATION with one, with the VAT split', () => {
    const intent = intentIn('REQUIRES_CONFIRMATION');
    expect(intent.snapshot()).toMatchObject({ taxAmount: 2200, receivedAmount: 0 });
    expect(intent.subtotalAmount).toBe(10000);
  });

  for (const [name, act, allowed, result] of TRANSITIONS) {
    it(`${name}: allowed from ${allowed.join(', ')}; refused with no change from the rest`, () => {
      for (const from of ALL) {
        const intent = intentIn(from);
        const before = intent.snapshot();
        if (allowed.includes(from)) {
          act(intent);
          expect(intent.status).toBe(result);
        } else {
          let code: string | undefined;
          try {
            act(intent);
          } catch (error) {
            code = (error as DomainError).code;
          }
          expect({ from, code }).toEqual({ from, code: 'PAYMENT_INTENT_INVALID_STATE' });
          expect(intent.snapshot()).toEqual(before);
        }
      }
    });
  }

  it('records what was received on success and the cancellation facts on cancel', () => {
    const paid = intentIn('PROCESSING');
    paid.succeed('ch_1', now);
    expect(paid.snapshot()).toMatchObject({ receivedAmount: 12200, externalChargeId: 'ch_1', succeededAt: now });
    const cancelled = intentIn('REQUIRES_ACTION');
    cancelled.cancel('out of stock', now);
    expect(cancelled.snapshot()).toMatchObject({ cancelledAt: now, cancellationReason: 'out of stock' });
  });

  it('refunds only from SUCCEEDED or PARTIALLY_REFUNDED, never beyond what is refundable', () => {
    for (const from of ALL.filter((s) => s !== 'SUCCEEDED' && s !== 'PARTIALLY_REFUNDED')) {
      expect(() => intentIn(from, 12200).reserveRefund(null, now)).toThrow(DomainError);
    }
    const intent = intentIn('SUCCEEDED', 12200);
    expect(intent.reserveRefund(Money.ofMinor(2000, Currency.UYU), now).minor).toBe(2000);
    expect(intent.status).toBe('PARTIALLY_REFUNDED');
    expect(() => intent.reserveRefund(Money.ofMinor(10201, Currency.UYU), now)).toThrow('exceeds');
    expect(() => intent.reserveRefund(Money.ofMinor(100, Currency.USD), now)).toThrow(
      "the refund must be in the payment intent's currency",
    );
    expect(intent.reserveRefund(null, now).minor).toBe(10200);
    expect(intent.status).toBe('REFUNDED');
    intent.releaseRefund(Money.ofMinor(200, Currency.UYU), now);
    expect(intent.status).toBe('PARTIALLY_REFUNDED');
    expect(intent.refundable.minor).toBe(200);
  });

  it('whatever sequence of refunds is attempted, the refunded sum stays within what was received (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 1, max: 15000 }), { nil: null }), { maxLength: 30 }), (requests) => {
        const intent = intentIn('SUCCEEDED', 12200);
        let accepted = 0;
        for (const minor of requests) {
          try {
            accepted += intent.reserveRefund(minor === null ? null : Money.ofMinor(minor, Currency.UYU), now).minor;
          } catch {
            // refused: nothing reserved
          }
        }
        expect(accepted).toBe(intent.snapshot().refundedAmount);
        expect(accepted).toBeLessThanOrEqual(12200);
        expect(intent.status).toBe(accepted === 0 ? 'SUCCEEDED' : accepted === 12200 ? 'REFUNDED' : 'PARTIALLY_REFUNDED');
      }),
    );
  });
});

describe('PaymentIntent and what happens at the processor (contract §23)', () => {
  it('records a processor’s refund as made, says how far beyond what was refundable it went, and keeps refundedAmount exact in any order (contract §28)', () => {
    const intent = intentIn('SUCCEEDED', 12200);
    intent.reserveRefund(Money.ofMinor(7000, Currency.UYU), now);
    expect(intent.recordProcessorRefund(Money.ofMinor(4000, Currency.UYU), now)).toEqual({ beyond: 0 });
    expect(intent.status).toBe('PARTIALLY_REFUNDED');
    expect(intent.recordProcessorRefund(Money.ofMinor(3000, Currency.UYU), now)).toEqual({ beyond: 1800 });
    // Ours (70.00, still pending) and the processor's two (70.00): past what was received until the processor answers ours.
    expect(intent.snapshot().refundedAmount).toBe(14000);
    expect(intent.status).toBe('REFUNDED');
    expect(intent.refundable.minor).toBe(0);
    // The processor refuses ours (nothing was left there): only ours is released, and what it refunded stays.
    intent.releaseRefund(Money.ofMinor(7000, Currency.UYU), now);
    expect(intent.snapshot().refundedAmount).toBe(7000);
    expect(intent.status).toBe('PARTIALLY_REFUNDED');
    expect(intent.refundable.minor).toBe(5200);
    expect(intent.pullChanges()).toEqual([
      'payment_intent.partially_refunded',
      'payment_intent.partially_refunded',
      'payment_intent.refunded',
    ]);
    for (const from of ['REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_ACTION', 'PROCESSING', 'CANCELED'] as const)
      expect(() => intentIn(from).recordProcessorRefund(Money.ofMinor(100, Currency.UYU), now)).toThrow(DomainError);
  });

  it('counts a refund that ends a lost claim as that claim’s money: held once, by the refund', () => {
    const intent = intentIn('SUCCEEDED', 12200);
    intent.recordDispute({ disputeId: 'claim', status: 'NEEDS_RESPONSE', amount: 12200, claim: true }, now);
    expect(intent.refundable.minor).toBe(0);
    expect(intent.claimSettledBy(12200)).toBeNull(); // not lost yet
    intent.recordDispute({ disputeId: 'claim', status: 'LOST', amount: 12200, claim: true }, now);
    expect(intent.claimSettledBy(12000)).toBeNull(); // another amount: not its refund
    expect(intent.claimSettledBy(12200)).toBe('claim');
    expect(intent.recordProcessorRefund(Money.ofMinor(12200, Currency.UYU), now, 'claim')).toEqual({ beyond: 0 });
    expect(intent.snapshot()).toMatchObject({ refundedAmount: 12200, disputedAmount: 0, status: 'REFUNDED' });
    expect(intent.claimSettledBy(12200)).toBeNull(); // settled once
    // A later word on the claim keeps it settled.
    intent.recordDispute({ disputeId: 'claim', status: 'LOST', amount: 12200, claim: true }, now);
    expect(intent.snapshot().disputedAmount).toBe(0);
  });
});

describe('PaymentIntent.create and money', () => {
  it('takes Money and keeps minor units, splitting VAT out of the gross', () => {
    const intent = intentIn('REQUIRES_PAYMENT_INSTRUMENT');
    expect(intent.snapshot()).toMatchObject({ currency: Currency.UYU, amount: 12200, taxAmount: 2200, tipAmount: 0 });
    expect(intent.total.equals(Money.ofMinor(12200, Currency.UYU))).toBe(true);
  });

  it('refuses an amount plus tip above the largest amount accepted', () => {
    const base = intentIn('REQUIRES_PAYMENT_INSTRUMENT').snapshot();
    expect(() =>
      PaymentIntent.create({ ...base, amount: Money.ofMinor(999_999_999_999, Currency.UYU), tip: Money.ofMinor(1, Currency.UYU) }),
    ).toThrow(/exceeds the maximum/);
  });

  describe('origin factories', () => {
    const basis = {
      paymentIntentId: asPaymentIntentId('pi'),
      businessId: asBusinessId('b'),
      merchantId: asMerchantId('m'),
      countryId: 'ury',
      amount: Money.ofMinor(12200, Currency.UYU),
      vatRateBp: 2200,
      createdAt: now,
    };
    const offered = {
      description: 'd',
      preferredPaymentMethod: 'VISA',
      preferredInstrumentType: 'CREDIT_CARD',
      additionalInfo: { payerInfo: { email: 'ana@example.uy' } },
    };

    it('own the amount-plus-tip limit, naming each origin request field', () => {
      const huge = { ...basis, amount: Money.ofMinor(999_999_999_999, Currency.UYU) };
      const api = {
        payinType: PayinType.DEFAULT,
        tip: Money.ofMinor(1, Currency.UYU),
        payerId: asPayerId('p'),
        payerEmail: null,
        paymentInstrumentId: null,
        externalReference: 'r',
        invoiceNumber: 7,
        description: null,
        setupFutureUsage: false,
        offSession: false,
        confirm: true,
        metadata: null,
      };
      expect(() => apiIntent(huge, api)).toThrow(expect.objectContaining({ fields: ['tipAmount'] }));
      const b2b = {
        tip: Money.ofMinor(1, Currency.UYU),
        externalReference: null,
        invoiceReference: null,
        invoiceNumber: null,
        description: null,
        instrumentType: null,
        networks: null,
      };
      expect(() => b2bIntent(huge, b2b)).toThrow(expect.objectContaining({ fields: ['amountDetails.tip'] }));
      const made = apiIntent(basis, api).snapshot();
      expect(made).toMatchObject({ origin: 'API', confirmationMethod: 'AUTOMATIC', externalInvoiceId: '7', tipAmount: 1, taxAmount: 2200 });
      expect(b2bIntent(basis, { ...b2b, tax: Money.ofMinor(100, Currency.UYU) }).snapshot()).toMatchObject({
        origin: 'B2B',
        taxAmount: 100,
      });
    });

    it('make fast and link intents payerless, tipless and paid on a page', () => {
      for (const intent of [fastIntent(basis, offered), linkIntent(basis, { linkId: 'l', reference: 'ref' }, offered)]) {
        expect(intent.snapshot()).toMatchObject({
          payerId: null,
          tipAmount: 0,
          invoiceNumber: null,
          confirmationMethod: 'MANUAL',
          status: 'REQUIRES_PAYMENT_INSTRUMENT',
          preferredPaymentMethod: 'VISA',
          receiptEmail: 'ana@example.uy',
        });
      }
      expect(linkIntent(basis, { linkId: 'l', reference: 'ref' }, offered).snapshot()).toMatchObject({
        origin: 'LINK',
        linkId: 'l',
        externalReference: 'ref',
      });
      expect(fastIntent(basis, offered).snapshot()).toMatchObject({ origin: 'FAST', linkId: null, externalReference: null });
    });
  });
});
