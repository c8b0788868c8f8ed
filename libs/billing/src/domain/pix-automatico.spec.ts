import { asBusinessId, asMerchantId, asPayerId, asPaymentInstrumentId, Currency, InvalidRequestError } from '@pcs/kernel';
import { cycleFrom } from './billing-calendar';
import { Invoice } from './invoice';
import { assertPixTerms, PIX_CHARGE_LEAD_MS, pixDunning, pixFrequencyOf } from './pix-automatico';
import { Subscription } from './subscription';

const mandate = { amount: 89_90, frequency: 'MONTHLY' as const, startDate: '2027-01-10', description: '' };
const monthly = { amount: 89_90, currency: 'BRL', interval: 'MONTH' as const, intervalCount: 1, firstDate: '2027-01-10' };

/** Pix Automático's rules on a subscription (contract §31): the authorised terms kept, the charge requested ahead, dLocal's retries. */
describe('Pix Automático in billing', () => {
  it('maps only the scheme’s periodicities', () => {
    expect(
      (
        [
          ['WEEK', 1],
          ['MONTH', 1],
          ['MONTH', 3],
          ['MONTH', 6],
          ['MONTH', 12],
          ['YEAR', 1],
        ] as const
      ).map(([interval, count]) => pixFrequencyOf(interval, count)),
    ).toEqual(['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL', 'ANNUAL']);
    for (const [interval, count] of [
      ['DAY', 1],
      ['WEEK', 2],
      ['MONTH', 2],
      ['YEAR', 2],
    ] as const)
      expect(pixFrequencyOf(interval, count)).toBeNull();
  });

  it('refuses, naming the field, a subscription the authorisation would not take', () => {
    expect(() => assertPixTerms(mandate, monthly, '2027-01-01')).not.toThrow();
    const refusal = (subscription: Partial<typeof monthly>, today = '2027-01-01') => {
      try {
        assertPixTerms(mandate, { ...monthly, ...subscription }, today);
        return null;
      } catch (error) {
        return error instanceof InvalidRequestError ? error.message.split(':')[0] : 'other';
      }
    };
    expect(refusal({ amount: 99_90 })).toBe('amount must be the Pix Automático authorisation’s');
    expect(refusal({ currency: 'USD' })).toBe('amount must be the Pix Automático authorisation’s');
    expect(refusal({ intervalCount: 3 })).toMatch(/^interval and intervalCount/);
    expect(refusal({ firstDate: '2027-01-09' })).toBe('startDate');
    // The scheme's 2 days: a first charge tomorrow cannot be requested in time.
    expect(refusal({ firstDate: '2027-01-11' }, '2027-01-10')).toBe('startDate');
    expect(refusal({ firstDate: '2027-01-12' }, '2027-01-10')).toBeNull();
  });

  it('makes the invoice 3 days before its period and charges it then; retries on dLocal’s days, then the merchant’s end', () => {
    const now = new Date('2027-01-01T15:00:00Z');
    const subscription = Subscription.start({
      subscriptionId: 's-1',
      businessId: asBusinessId('b-1'),
      merchantId: asMerchantId('m-1'),
      payerId: asPayerId('p-1'),
      paymentInstrumentId: asPaymentInstrumentId('i-1'),
      country: 'BRA',
      amount: 89_90,
      currency: Currency.BRL,
      cycle: cycleFrom({ interval: 'MONTH', intervalCount: 1, startDate: '2027-01-10', now, timeZone: 'America/Sao_Paulo' }),
      trialEnd: null,
      description: 'Plano',
      metadata: null,
      testClockId: null,
      cardExpiresAt: null,
      chargeLeadSeconds: PIX_CHARGE_LEAD_MS / 1000,
      createdAt: now,
    });
    const start = subscription.period(0).start;
    expect(start.toISOString()).toBe('2027-01-10T03:00:00.000Z');
    expect(subscription.nextDueAt()).toEqual(new Date(start.getTime() - PIX_CHARGE_LEAD_MS));
    expect(subscription.dueAt(new Date(start.getTime() - PIX_CHARGE_LEAD_MS - 1))).toBeNull();
    expect(subscription.dueAt(new Date(start.getTime() - PIX_CHARGE_LEAD_MS))).toEqual({ kind: 'INVOICE', period: 0 });

    const issuedAt = new Date(start.getTime() - PIX_CHARGE_LEAD_MS);
    const dunning = pixDunning({ retryDays: [2, 4, 6, 8, 10], finalStatus: 'CANCELED' });
    expect(dunning).toEqual({ retryDays: [1, 3, 5], finalStatus: 'CANCELED' });
    const invoice = Invoice.issue(
      {
        invoiceId: 'inv-1',
        subscriptionId: 's-1',
        businessId: asBusinessId('b-1'),
        merchantId: asMerchantId('m-1'),
        payerId: asPayerId('p-1'),
        paymentInstrumentId: asPaymentInstrumentId('i-1'),
        testClockId: null,
        periodNumber: 0,
        periodStart: start,
        periodEnd: subscription.period(1).start,
        amount: 89_90,
        currency: Currency.BRL,
        description: 'Plano',
        createdAt: issuedAt,
        chargeFrom: issuedAt,
      },
      dunning,
    );
    expect(invoice.claim(issuedAt, 600_000)).toMatchObject({ kind: 'CHARGE' });
    // The billing date's attempt failed: retried the next day, then 3 and 5 days after it; after the last, over.
    const DAY = 86_400_000;
    expect(invoice.declined('dLocal: Insufficient amount. (302)', 'SOFT', dunning, new Date(start.getTime() + 15 * 3_600_000))).toBe(false);
    expect(invoice.snapshot().nextAttemptAt).toEqual(new Date(start.getTime() + DAY));
    invoice.claim(new Date(start.getTime() + DAY), 600_000);
    expect(invoice.declined('dLocal: attempt failed (100)', 'SOFT', dunning, new Date(start.getTime() + 2 * DAY))).toBe(false);
    expect(invoice.snapshot().nextAttemptAt).toEqual(new Date(start.getTime() + 3 * DAY));
    invoice.claim(new Date(start.getTime() + 3 * DAY), 600_000);
    invoice.declined('dLocal: attempt failed (100)', 'SOFT', dunning, new Date(start.getTime() + 4 * DAY));
    invoice.claim(new Date(start.getTime() + 5 * DAY), 600_000);
    expect(invoice.declined('dLocal: Max attempts reached. (305)', 'SOFT', dunning, new Date(start.getTime() + 6 * DAY))).toBe(true);
    expect(invoice.snapshot().attemptCount).toBe(4);
  });
});
