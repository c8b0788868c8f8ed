import { asBusinessId, asMerchantId, asPayerId, asPaymentInstrumentId, Currency } from '@pcs/kernel';
import { cycleFrom } from './billing-calendar';
import { Invoice } from './invoice';
import { Subscription } from './subscription';
import { TestClock } from './test-clock';

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);

function subscription(input: { now?: string; startDate?: string; trialDays?: number } = {}) {
  const now = at(input.now ?? '2027-01-10T15:00:00Z');
  const cycle = cycleFrom({
    interval: 'MONTH',
    intervalCount: 1,
    startDate: input.startDate,
    trialDays: input.trialDays,
    now,
    timeZone: 'UTC',
  });
  return Subscription.start({
    subscriptionId: 's-1',
    businessId: asBusinessId('b-1'),
    merchantId: asMerchantId('m-1'),
    payerId: asPayerId('p-1'),
    paymentInstrumentId: asPaymentInstrumentId('i-1'),
    country: 'URY',
    amount: 990_00,
    currency: Currency.UYU,
    cycle,
    trialEnd: input.trialDays ? new Date(now.getTime() + input.trialDays * DAY) : null,
    description: 'Club',
    metadata: null,
    testClockId: null,
    cardExpiresAt: null,
    createdAt: now,
  });
}

function invoice(retryDays: number[] = [1, 3, 5, 7]) {
  return Invoice.issue(
    {
      invoiceId: 'inv-1',
      subscriptionId: 's-1',
      businessId: asBusinessId('b-1'),
      merchantId: asMerchantId('m-1'),
      payerId: asPayerId('p-1'),
      paymentInstrumentId: asPaymentInstrumentId('i-1'),
      testClockId: null,
      periodNumber: 0,
      periodStart: at('2027-02-01T00:00:00Z'),
      periodEnd: at('2027-03-01T00:00:00Z'),
      amount: 990_00,
      currency: Currency.UYU,
      description: 'Club',
      createdAt: at('2027-02-01T00:00:00Z'),
    },
    { retryDays, finalStatus: 'UNPAID' },
  );
}

describe('Subscription', () => {
  it('announces a period 3 days before it, invoices it on its date, once each', () => {
    const s = subscription({ startDate: '2027-02-01' });
    expect(s.dueAt(at('2027-01-28T23:59:59Z'))).toBeNull();
    expect(s.dueAt(at('2027-01-29T00:00:00Z'))).toEqual({ kind: 'ANNOUNCE', period: 0 });
    s.announced(0, at('2027-01-29T00:00:00Z'));
    expect(s.dueAt(at('2027-01-31T00:00:00Z'))).toBeNull();
    expect(s.dueAt(at('2027-02-01T00:00:00Z'))).toEqual({ kind: 'INVOICE', period: 0 });
    expect(s.advance(at('2027-02-01T00:00:00Z'))).toEqual({ invoiced: true, statusChanged: false });
    expect([s.snapshot().nextPeriod, s.snapshot().nextPeriodAt]).toEqual([1, at('2027-03-01T00:00:00Z')]);
    expect(s.nextDueAt()).toEqual(at('2027-02-26T00:00:00Z'));
  });

  it('does not announce a first period less than 3 days away, and ends a trial with its first invoice', () => {
    const s = subscription({ trialDays: 1 });
    expect(s.snapshot().status).toBe('TRIALING');
    expect(s.dueAt(at('2027-01-10T15:00:00Z'))).toBeNull();
    expect(s.advance(at('2027-01-11T15:00:00Z'))).toEqual({ invoiced: true, statusChanged: true });
    expect(s.snapshot().status).toBe('ACTIVE');
  });

  it('cancels at the period’s end at the next period’s start, without invoicing it', () => {
    const s = subscription();
    s.advance(at('2027-01-10T15:00:00Z'));
    s.cancel(true, at('2027-01-20T00:00:00Z'));
    expect([s.snapshot().status, s.snapshot().cancelAtPeriodEnd]).toEqual(['ACTIVE', true]);
    expect(s.advance(at('2027-02-10T15:00:00Z'))).toEqual({ invoiced: false, statusChanged: true });
    expect([s.snapshot().status, s.snapshot().endedAt, s.snapshot().nextPeriodAt]).toEqual(['CANCELED', at('2027-02-10T15:00:00Z'), null]);
    expect(() => s.cancel(false, at('2027-03-01T00:00:00Z'))).toThrow(
      expect.objectContaining({ definition: expect.objectContaining({ code: 'SUBSCRIPTION_INVALID_STATE' }) }),
    );
  });

  it('canceled at its period’s end during a trial, ends at the trial’s end without ever invoicing', () => {
    const s = subscription({ trialDays: 14 });
    s.cancel(true, at('2027-01-12T00:00:00Z'));
    expect(s.advance(at('2027-01-24T15:00:00Z'))).toEqual({ invoiced: false, statusChanged: true });
    expect([s.snapshot().status, s.snapshot().nextPeriod, s.snapshot().endedAt]).toEqual(['CANCELED', 0, at('2027-01-24T15:00:00Z')]);
  });

  it('resumes an UNPAID subscription from its next period, as a paused one', () => {
    const s = subscription();
    s.advance(at('2027-01-10T15:00:00Z'));
    s.pastDue(at('2027-01-10T15:00:00Z'));
    s.endDunning('UNPAID', at('2027-01-17T15:00:00Z'));
    s.resume(at('2027-03-01T00:00:00Z'));
    expect([s.snapshot().status, s.snapshot().nextPeriodAt]).toEqual(['ACTIVE', at('2027-03-10T15:00:00Z')]);
  });

  it('pauses and resumes with the first period from the moment it resumes; refuses what its status does not allow', () => {
    const s = subscription();
    s.advance(at('2027-01-10T15:00:00Z'));
    s.pause(at('2027-01-15T00:00:00Z'));
    expect(s.dueAt(at('2027-06-01T00:00:00Z'))).toBeNull();
    expect(() => s.pause(at('2027-01-16T00:00:00Z'))).toThrow();
    s.resume(at('2027-04-11T00:00:00Z'));
    expect([s.snapshot().status, s.snapshot().nextPeriod, s.snapshot().nextPeriodAt]).toEqual(['ACTIVE', 4, at('2027-05-10T15:00:00Z')]);
    expect(() => s.resume(at('2027-04-12T00:00:00Z'))).toThrow();
  });

  it('tells of a card’s expiry 30 days before it, once per card, after the period’s own steps', () => {
    const s = subscription({ startDate: '2027-02-01' });
    s.cardExpires(at('2027-07-01T00:00:00Z'));
    s.announced(0, at('2027-01-29T00:00:00Z'));
    s.advance(at('2027-02-01T00:00:00Z'));
    expect(s.dueAt(at('2027-02-20T00:00:00Z'))).toBeNull();
    expect(s.nextDueAt()).toEqual(at('2027-02-26T00:00:00Z'));
    s.announced(1, at('2027-02-26T00:00:00Z'));
    s.advance(at('2027-03-01T00:00:00Z'));
    s.announced(2, at('2027-03-29T00:00:00Z'));
    s.advance(at('2027-04-01T00:00:00Z'));
    s.announced(3, at('2027-04-28T00:00:00Z'));
    s.advance(at('2027-05-01T00:00:00Z'));
    s.announced(4, at('2027-05-29T00:00:00Z'));
    // June 1 is both the period's date and the notice's: the invoice first, then the card.
    expect(s.dueAt(at('2027-06-01T00:00:00Z'))).toEqual({ kind: 'INVOICE', period: 4 });
    s.advance(at('2027-06-01T00:00:00Z'));
    expect(s.dueAt(at('2027-06-01T00:00:00Z'))).toEqual({ kind: 'CARD_EXPIRY' });
    s.cardExpiryTold(at('2027-06-01T00:00:00Z'));
    expect(s.dueAt(at('2027-06-20T00:00:00Z'))).toBeNull();
    // The same card again changes nothing; a new one is told of in its turn.
    s.cardExpires(at('2027-07-01T00:00:00Z'));
    expect(s.snapshot().cardExpiryNoticed).toBe(true);
    s.cardExpires(at('2029-01-01T00:00:00Z'));
    expect([s.snapshot().cardExpiryNoticed, s.dueAt(at('2027-06-20T00:00:00Z'))]).toEqual([false, null]);
  });

  it('goes PAST_DUE while dunning runs, back to ACTIVE when paid, and to the final status when it ends', () => {
    const s = subscription();
    s.advance(at('2027-01-10T15:00:00Z'));
    expect(s.pastDue(at('2027-01-10T15:00:00Z'))).toBe(true);
    expect(s.pastDue(at('2027-01-11T15:00:00Z'))).toBe(false);
    expect(s.recovered(at('2027-01-12T15:00:00Z'))).toBe(true);
    expect(s.snapshot().status).toBe('ACTIVE');
    s.pastDue(at('2027-01-13T15:00:00Z'));
    expect(s.endDunning('UNPAID', at('2027-01-17T15:00:00Z'))).toBe(true);
    expect([s.snapshot().status, s.snapshot().nextPeriodAt]).toEqual(['UNPAID', null]);
    expect(s.endDunning('UNPAID', at('2027-01-18T15:00:00Z'))).toBe(false);
  });
});

describe('Invoice', () => {
  it('derives the same intent id for the same charge, another for the next', () => {
    expect(Invoice.intentIdOf('inv-1', 1)).toBe(Invoice.intentIdOf('inv-1', 1));
    expect(Invoice.intentIdOf('inv-1', 2)).not.toBe(Invoice.intentIdOf('inv-1', 1));
    expect(Invoice.intentIdOf('inv-1', 1)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('claims a charge once, takes it up again only when its lease ends, and ends dunning after the last retry day', () => {
    const i = invoice();
    const start = at('2027-02-01T00:00:00Z');
    expect(i.claim(new Date(start.getTime() - 1), 1000)).toBeNull();
    const first = i.claim(start, 1000);
    expect(first).toEqual({ kind: 'CHARGE', paymentIntentId: Invoice.intentIdOf('inv-1', 1) });
    expect(i.claim(new Date(start.getTime() + 999), 1000)).toBeNull();
    expect(i.claim(new Date(start.getTime() + 1000), 1000)).toEqual(first);
    expect(i.snapshot().attemptCount).toBe(1);
    // Soft declines: the retry days still ahead, then the end.
    expect(i.declined('insufficient funds', 'SOFT', { retryDays: [1, 3, 5, 7], finalStatus: 'UNPAID' }, start)).toBe(false);
    expect(i.snapshot().nextAttemptAt).toEqual(new Date(start.getTime() + DAY));
    for (const day of [1, 3, 5]) {
      const when = new Date(start.getTime() + day * DAY);
      expect(i.claim(when, 1000)?.kind).toBe('CHARGE');
      expect(i.declined('insufficient funds', 'SOFT', { retryDays: [1, 3, 5, 7], finalStatus: 'UNPAID' }, when)).toBe(false);
    }
    const last = new Date(start.getTime() + 7 * DAY);
    expect(i.claim(last, 1000)?.kind).toBe('CHARGE');
    expect(i.declined('insufficient funds', 'SOFT', { retryDays: [1, 3, 5, 7], finalStatus: 'UNPAID' }, last)).toBe(true);
    expect(i.snapshot().attemptCount).toBe(5);
  });

  it('never retries a hard decline; a new instrument is tried at once; dunning ends on the last retry day', () => {
    const i = invoice([2]);
    const start = at('2027-02-01T00:00:00Z');
    i.claim(start, 1000);
    expect(i.declined('card reported stolen', 'HARD', { retryDays: [2], finalStatus: 'UNPAID' }, start)).toBe(false);
    expect([i.snapshot().nextAttemptAt, i.nextDueAt()]).toEqual([null, new Date(start.getTime() + 2 * DAY)]);
    expect(i.claim(new Date(start.getTime() + DAY), 1000)).toBeNull();
    expect(i.retryWith(asPaymentInstrumentId('i-2'), new Date(start.getTime() + DAY))).toBe(true);
    expect(i.claim(new Date(start.getTime() + DAY), 1000)).toEqual({ kind: 'CHARGE', paymentIntentId: Invoice.intentIdOf('inv-1', 2) });
    expect(i.retryWith(asPaymentInstrumentId('i-3'), new Date(start.getTime() + DAY))).toBe(false);
    i.declined('card reported stolen', 'HARD', { retryDays: [2], finalStatus: 'UNPAID' }, new Date(start.getTime() + DAY));
    expect(i.claim(new Date(start.getTime() + 2 * DAY), 1000)).toEqual({ kind: 'END' });
    i.uncollectible(new Date(start.getTime() + 2 * DAY));
    expect([i.snapshot().status, i.nextDueAt()]).toEqual(['UNCOLLECTIBLE', null]);
  });

  it('charges again at once, as no decline, a charge that never reached its processor (a crash before it was sent)', () => {
    const i = invoice();
    const start = at('2027-02-01T00:00:00Z');
    i.claim(start, 1000);
    const later = new Date(start.getTime() + 5000);
    i.notSent(later);
    expect([i.snapshot().lastDecline, i.snapshot().declineKind, i.snapshot().charging]).toEqual([null, null, false]);
    expect(i.claim(later, 1000)).toEqual({ kind: 'CHARGE', paymentIntentId: Invoice.intentIdOf('inv-1', 2) });
    // Only a running charge can have been kept from its processor.
    i.paid(later);
    i.notSent(later);
    expect(i.snapshot().status).toBe('PAID');
  });

  it('voids only when no charge runs', () => {
    const i = invoice();
    i.claim(at('2027-02-01T00:00:00Z'), 1000);
    expect(i.void(at('2027-02-01T00:00:01Z'))).toBe(false);
    i.paid(at('2027-02-01T00:00:02Z'));
    expect([i.snapshot().status, i.void(at('2027-02-01T00:00:03Z'))]).toEqual(['PAID', false]);
  });
});

describe('TestClock', () => {
  it('moves forward only, at most two years, one advance at a time until its hold ends', () => {
    const clock = TestClock.create({
      testClockId: 'c-1',
      businessId: asBusinessId('b-1'),
      merchantId: asMerchantId('m-1'),
      frozenTime: at('2027-01-01T00:00:00Z'),
      createdAt: at('2026-11-30T00:00:00Z'),
    });
    const now = at('2026-11-30T10:00:00Z');
    const code = (run: () => void) => {
      try {
        run();
        return null;
      } catch (error) {
        return (error as { definition: { code: string } }).definition.code;
      }
    };
    expect(code(() => clock.startAdvance(at('2027-01-01T00:00:00Z'), now, now))).toBe('TEST_CLOCK_INVALID_ADVANCE');
    expect(code(() => clock.startAdvance(at('2029-01-02T00:00:00Z'), now, now))).toBe('TEST_CLOCK_INVALID_ADVANCE');
    expect(code(() => clock.startAdvance(at('2028-12-31T00:00:00Z'), now, new Date(now.getTime() + 60_000)))).toBeNull();
    expect(code(() => clock.startAdvance(at('2028-12-31T00:00:00Z'), now, now))).toBe('TEST_CLOCK_ADVANCING');
    // A process that died mid-advance leaves the clock to the next once its hold has ended.
    expect(code(() => clock.startAdvance(at('2028-12-31T00:00:00Z'), new Date(now.getTime() + 60_000), now))).toBeNull();
    clock.reach(at('2027-06-01T00:00:00Z'));
    clock.reach(at('2027-05-01T00:00:00Z'));
    clock.finishAdvance(at('2028-12-31T00:00:00Z'));
    expect([clock.snapshot().frozenTime, clock.snapshot().status]).toEqual([at('2028-12-31T00:00:00Z'), 'READY']);
    clock.delete(now);
    expect(code(() => clock.startAdvance(at('2029-01-01T00:00:00Z'), now, now))).toBe('TEST_CLOCK_DELETED');
  });
});
