import { BillingScheduler } from '@pcs/billing';
import { asMerchantId, Currency } from '@pcs/kernel';
import { PricingService } from '@pcs/settlement';
import { errorShape, SignedClient } from '@pcs/testing';
import request from 'supertest';
import { Testbed, testbed } from './testbed';

type Row = Record<string, unknown>;
type Invoice = {
  invoiceId: string;
  periodNumber: number;
  periodStart: string;
  status: string;
  attemptCount: number;
  paymentIntentId: string | null;
  lastDecline: string | null;
  declineKind: string | null;
  nextAttemptAt: string | null;
  paymentInstrumentId: string;
};

/**
 * Contract §31 on the sandbox, moved by test clocks: a year of monthly charges started on a month's last day,
 * soft declines retried on the merchant's retry days and ended by its final status, hard declines never retried
 * (a new instrument tried at once), cancel, pause and resume, each invoice charged once whoever runs the
 * scheduler, and the requests refused.
 */
describe('subscriptions and invoices (sandbox, test clocks)', () => {
  let bed: Testbed;
  let merchant: SignedClient;
  let merchantId: string;
  let instrumentId: string;

  beforeAll(async () => {
    bed = await testbed({ payer: { firstName: 'Socio', lastName: 'Del Club', email: 'socio@example.uy' } });
    merchant = bed.merchant;
    merchantId = bed.tenant.merchants[0].merchantId;
    instrumentId = await newInstrument();
  });
  afterAll(() => bed.close());

  async function newInstrument(payerId = bed.payerId, paymentMethodName = 'VISA'): Promise<string> {
    const answer = await merchant.post('/payment-instrument', { payerId, paymentMethodName, country: 'URY' });
    expect(answer.status).toBe(200);
    return answer.body.paymentInstrumentId as string;
  }
  const clockAt = async (frozenTime: string): Promise<string> => {
    const answer = await merchant.post('/test-clock', { merchantId, frozenTime });
    expect([answer.status, answer.body.frozenTime, answer.body.status]).toEqual([200, new Date(frozenTime).toISOString(), 'READY']);
    return answer.body.testClockId as string;
  };
  const advance = async (clockId: string, to: string) => {
    const answer = await merchant.post(`/test-clock/${clockId}/advance`, { to });
    expect([answer.status, answer.body.frozenTime]).toEqual([200, new Date(to).toISOString()]);
  };
  const subscribe = async (body: Record<string, unknown>) => {
    const answer = await merchant.post('/subscription', {
      merchantId,
      payerId: bed.payerId,
      paymentInstrumentId: instrumentId,
      currency: 'UYU',
      interval: 'MONTH',
      intervalCount: 1,
      description: 'Club membership',
      ...body,
    });
    expect(answer.status).toBe(200);
    return answer.body as Row & { subscriptionId: string; status: string };
  };
  const invoicesOf = async (subscriptionId: string): Promise<Invoice[]> => {
    const answer = await merchant.get(`/invoice?subscriptionId=${subscriptionId}&limit=100`);
    expect(answer.status).toBe(200);
    return (answer.body as { results: Invoice[] }[])[0].results.sort((a, b) => a.periodNumber - b.periodNumber);
  };
  const subscription = async (subscriptionId: string) => (await merchant.get(`/subscription/${subscriptionId}`)).body as Row;
  const eventsOf = async (subscriptionId: string): Promise<string[]> =>
    (await bed.query<{ type: string }>(`SELECT type FROM event WHERE subject_id = $1 ORDER BY sequence`, [subscriptionId])).map(
      (row) => row.type,
    );
  /** The payment intents made for an invoice, with their outcome. */
  const intentsOf = (invoiceId: string) =>
    bed.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM payment_intent WHERE external_reference = $1 GROUP BY status ORDER BY status`,
      [invoiceId],
    );
  const count = (list: string[], type: string) => list.filter((t) => t === type).length;

  it('charges a year of months started on Jan 31 on each month’s last day, each invoice once', async () => {
    const clock = await clockAt('2027-01-30T12:00:00Z');
    const created = await subscribe({ amount: 990, startDate: '2027-01-31', testClockId: clock });
    expect([created.status, created.nextChargeAt, created.timeZone]).toEqual(['ACTIVE', '2027-01-31T03:00:00.000Z', 'America/Montevideo']);
    await advance(clock, '2028-01-31T12:00:00Z');

    const invoices = await invoicesOf(created.subscriptionId);
    expect(invoices.map((i) => i.periodStart.slice(0, 10))).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
      '2027-08-31',
      '2027-09-30',
      '2027-10-31',
      '2027-11-30',
      '2027-12-31',
      '2028-01-31',
    ]);
    // 00:00 in Montevideo (UTC−3) is 03:00 UTC.
    expect(new Set(invoices.map((i) => i.periodStart.slice(10)))).toEqual(new Set(['T03:00:00.000Z']));
    expect(invoices.map((i) => [i.status, i.attemptCount])).toEqual(invoices.map(() => ['PAID', 1]));
    for (const invoice of invoices) expect(await intentsOf(invoice.invoiceId)).toEqual([{ status: 'SUCCEEDED', n: 1 }]);
    const events = await eventsOf(created.subscriptionId);
    // The first period began within 3 days of the subscription: announced are the twelve after it.
    expect([count(events, 'invoice.created'), count(events, 'invoice.paid'), count(events, 'invoice.upcoming')]).toEqual([13, 13, 12]);
    expect(events.indexOf('invoice.upcoming')).toBeLessThan(events.indexOf('invoice.created', events.indexOf('invoice.paid')));
    const after = await subscription(created.subscriptionId);
    expect([after.status, after.currentPeriodStart, after.currentPeriodEnd, after.nextChargeAt]).toEqual([
      'ACTIVE',
      '2028-01-31T03:00:00.000Z',
      '2028-02-29T03:00:00.000Z',
      '2028-02-29T03:00:00.000Z',
    ]);
  });

  /** An outcome's count in /metrics (process-wide: read before and after). */
  const counted = async (outcome: string): Promise<number> => {
    const text = (await request(bed.app.getHttpServer()).get('/metrics')).text;
    return Number(new RegExp(`pcs_invoices_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  };

  it('retries a soft decline on the retry days, then leaves the subscription UNPAID and invoices nothing more', async () => {
    const before = { soft: await counted('declined_soft'), uncollectible: await counted('uncollectible') };
    const clock = await clockAt('2027-03-01T12:00:00Z');
    const created = await subscribe({ amount: 990.13, testClockId: clock });
    await advance(clock, '2027-03-05T12:00:00Z');
    const [invoice] = await invoicesOf(created.subscriptionId);
    // Tried on the day, then days 1 and 3: the next on day 5.
    expect([invoice.status, invoice.attemptCount, invoice.lastDecline, invoice.declineKind, invoice.nextAttemptAt]).toEqual([
      'OPEN',
      3,
      'insufficient funds',
      'SOFT',
      '2027-03-06T12:00:00.000Z',
    ]);
    expect((await subscription(created.subscriptionId)).status).toBe('PAST_DUE');
    await advance(clock, '2027-06-15T12:00:00Z');
    const invoices = await invoicesOf(created.subscriptionId);
    expect(invoices.map((i) => [i.periodNumber, i.status, i.attemptCount])).toEqual([[0, 'UNCOLLECTIBLE', 5]]);
    expect(await intentsOf(invoices[0].invoiceId)).toEqual([{ status: 'REQUIRES_PAYMENT_INSTRUMENT', n: 5 }]);
    const after = await subscription(created.subscriptionId);
    expect([after.status, after.nextChargeAt]).toEqual(['UNPAID', null]);
    const events = await eventsOf(created.subscriptionId);
    expect([count(events, 'invoice.payment_failed'), count(events, 'invoice.paid')]).toEqual([5, 0]);
    expect(events.filter((t) => t.startsWith('subscription.'))).toEqual([
      'subscription.created',
      'subscription.updated',
      'subscription.updated',
    ]);
    // /metrics counted each try and the end (without tenants).
    expect([(await counted('declined_soft')) - before.soft, (await counted('uncollectible')) - before.uncollectible]).toEqual([5, 1]);
  });

  it('never retries a hard decline, tries a new instrument at once, and ends with the merchant’s final status', async () => {
    const configured = await merchant.put(`/merchant/${merchantId}/configuration`, {
      dunning: { retryDays: [2, 4], finalStatus: 'CANCELED' },
    });
    expect([configured.status, configured.body.dunning]).toEqual([200, { retryDays: [2, 4], finalStatus: 'CANCELED' }]);
    try {
      const clock = await clockAt('2027-05-10T09:00:00Z');
      const created = await subscribe({ amount: 500.15, interval: 'WEEK', testClockId: clock });
      await advance(clock, '2027-05-12T09:00:00Z');
      let [invoice] = await invoicesOf(created.subscriptionId);
      expect([invoice.attemptCount, invoice.lastDecline, invoice.declineKind, invoice.nextAttemptAt]).toEqual([
        1,
        'card reported stolen',
        'HARD',
        null,
      ]);
      // The payer's new card: tried at the clock's next moment, once.
      // Another card (another method: an instrument per payer and method).
      const replacement = await newInstrument(bed.payerId, 'OCA');
      expect(replacement).not.toBe(instrumentId);
      const updated = await merchant.patch(`/subscription/${created.subscriptionId}`, { paymentInstrumentId: replacement });
      expect([updated.status, updated.body.paymentInstrumentId]).toEqual([200, replacement]);
      await advance(clock, '2027-05-12T09:01:00Z');
      [invoice] = await invoicesOf(created.subscriptionId);
      expect([invoice.attemptCount, invoice.paymentInstrumentId, invoice.declineKind]).toEqual([2, replacement, 'HARD']);
      const second = await merchant.get(`/payment-intent/${invoice.paymentIntentId}`);
      expect(second.body.paymentInstrumentId).toBe(replacement);
      // Day 4 after the invoice's date ends dunning: CANCELED, as configured, and nothing more is invoiced.
      await advance(clock, '2027-06-30T09:00:00Z');
      const invoices = await invoicesOf(created.subscriptionId);
      expect(invoices.map((i) => [i.status, i.attemptCount])).toEqual([['UNCOLLECTIBLE', 2]]);
      const after = await subscription(created.subscriptionId);
      expect([after.status, after.endedAt, after.nextChargeAt]).toEqual(['CANCELED', '2027-05-14T09:00:00.000Z', null]);
      expect((await eventsOf(created.subscriptionId)).slice(-1)).toEqual(['subscription.canceled']);
    } finally {
      await merchant.put(`/merchant/${merchantId}/configuration`, { dunning: { retryDays: [1, 3, 5, 7], finalStatus: 'UNPAID' } });
    }
  });

  it('ends a charge refused before it is made (the card removed) as a hard decline, and pays the invoice with the next card', async () => {
    const clock = await clockAt('2027-09-01T12:00:00Z');
    const card = await newInstrument(bed.payerId, 'MASTER_CARD');
    const created = await subscribe({ amount: 410, paymentInstrumentId: card, testClockId: clock });
    // The card removed (no route deactivates an instrument yet: the state a processor's notice of a closed card leaves).
    await bed.query(`UPDATE payment_instrument SET active = false, status = 'INACTIVE' WHERE payment_instrument_id = $1`, [card]);
    await advance(clock, '2027-09-01T13:00:00Z');
    let [invoice] = await invoicesOf(created.subscriptionId);
    expect([invoice.status, invoice.attemptCount, invoice.declineKind, invoice.nextAttemptAt]).toEqual(['OPEN', 1, 'HARD', null]);
    expect(invoice.lastDecline).toMatch(/^PAYMENT_INSTRUMENT_NOT_FOUND: /);
    // Refused before anything was written: no payment intent.
    expect(await intentsOf(invoice.invoiceId)).toEqual([]);
    expect((await subscription(created.subscriptionId)).status).toBe('PAST_DUE');
    expect((await merchant.patch(`/subscription/${created.subscriptionId}`, { paymentInstrumentId: instrumentId })).status).toBe(200);
    await advance(clock, '2027-09-02T13:00:00Z');
    [invoice] = await invoicesOf(created.subscriptionId);
    expect([invoice.status, invoice.attemptCount, invoice.paymentInstrumentId]).toEqual(['PAID', 2, instrumentId]);
    expect(await intentsOf(invoice.invoiceId)).toEqual([{ status: 'SUCCEEDED', n: 1 }]);
    expect((await subscription(created.subscriptionId)).status).toBe('ACTIVE');
    const events = await eventsOf(created.subscriptionId);
    expect(events.filter((t) => t.startsWith('invoice.'))).toEqual(['invoice.created', 'invoice.payment_failed', 'invoice.paid']);
  });

  it('pauses (the periods paused through are not billed), resumes, changes the amount from the next period, and cancels', async () => {
    const clock = await clockAt('2027-01-10T15:00:00Z');
    const created = await subscribe({ amount: 300, interval: 'DAY', intervalCount: 10, trialDays: 5, testClockId: clock });
    expect([created.status, created.trialEnd]).toEqual(['TRIALING', '2027-01-15T15:00:00.000Z']);
    await advance(clock, '2027-01-16T00:00:00Z');
    expect((await subscription(created.subscriptionId)).status).toBe('ACTIVE');
    expect((await merchant.post(`/subscription/${created.subscriptionId}/pause`)).body.status).toBe('PAUSED');
    await advance(clock, '2027-02-20T00:00:00Z');
    const resumed = await merchant.post(`/subscription/${created.subscriptionId}/resume`);
    // Periods start on Jan 15, 25, Feb 4, 14, 24: the first from Feb 20 is Feb 24's.
    expect([resumed.status, resumed.body.status, resumed.body.nextChargeAt]).toEqual([200, 'ACTIVE', '2027-02-24T15:00:00.000Z']);
    expect((await merchant.patch(`/subscription/${created.subscriptionId}`, { amount: 350 })).status).toBe(200);
    await advance(clock, '2027-02-25T00:00:00Z');
    const invoices = await invoicesOf(created.subscriptionId);
    expect(invoices.map((i) => [i.periodNumber, i.periodStart.slice(0, 10), i.status])).toEqual([
      [0, '2027-01-15', 'PAID'],
      [4, '2027-02-24', 'PAID'],
    ]);
    const amounts = await bed.query<{ amount: number }>(
      `SELECT amount::int FROM payment_intent WHERE external_reference = ANY($1) ORDER BY created_at`,
      [invoices.map((i) => i.invoiceId)],
    );
    expect(amounts.map((a) => a.amount)).toEqual([300_00, 350_00]);

    const atEnd = await merchant.post(`/subscription/${created.subscriptionId}/cancel`, { atPeriodEnd: true });
    expect([atEnd.body.status, atEnd.body.cancelAtPeriodEnd]).toEqual(['ACTIVE', true]);
    await advance(clock, '2027-03-20T00:00:00Z');
    const ended = await subscription(created.subscriptionId);
    expect([ended.status, ended.endedAt]).toEqual(['CANCELED', '2027-03-06T15:00:00.000Z']);
    expect(await invoicesOf(created.subscriptionId)).toHaveLength(2);
    const again = await merchant.post(`/subscription/${created.subscriptionId}/cancel`, {});
    expect([again.status, again.body]).toEqual([409, errorShape('Payins:SUBSCRIPTION_INVALID_STATE')]);
  });

  it('charges each invoice once when schedulers race over the same moment', async () => {
    const clock = await clockAt('2027-08-01T12:00:00Z');
    const subscriptions = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => subscribe({ amount: 100 + n, interval: 'DAY', testClockId: clock })),
    );
    const scheduler = bed.app.get(BillingScheduler);
    await bed.query(`UPDATE test_clock SET frozen_time = '2027-08-04T12:00:00Z' WHERE test_clock_id = $1`, [clock]);
    await Promise.all([1, 2, 3].map(() => scheduler.runDue(clock, new Date('2027-08-04T12:00:00Z'))));
    for (const s of subscriptions) {
      const invoices = await invoicesOf(s.subscriptionId);
      expect(invoices.map((i) => [i.periodNumber, i.status, i.attemptCount])).toEqual([
        [0, 'PAID', 1],
        [1, 'PAID', 1],
        [2, 'PAID', 1],
        [3, 'PAID', 1],
      ]);
      for (const invoice of invoices) expect(await intentsOf(invoice.invoiceId)).toEqual([{ status: 'SUCCEEDED', n: 1 }]);
    }
  });

  it('refuses what cannot be charged, another tenant’s or payer’s resources, and clocks that move back or too far', async () => {
    const other = (await merchant.post('/payer', { firstName: 'Otra', lastName: 'Persona' })).body.payerId as string;
    const othersCard = await newInstrument(other);
    const refused = await merchant.post('/subscription', {
      merchantId,
      payerId: bed.payerId,
      paymentInstrumentId: othersCard,
      amount: 100,
      currency: 'UYU',
      interval: 'MONTH',
      intervalCount: 1,
      description: 'Not hers',
    });
    expect([refused.status, refused.body]).toEqual([404, errorShape('Payins:PAYMENT_INSTRUMENT_NOT_FOUND')]);
    const base = {
      merchantId,
      payerId: bed.payerId,
      paymentInstrumentId: instrumentId,
      amount: 100,
      currency: 'UYU',
      interval: 'MONTH',
      intervalCount: 1,
      description: 'x',
    };
    for (const [body, field] of [
      [{ ...base, interval: 'FORTNIGHT' }, 'interval'],
      [{ ...base, intervalCount: 0 }, 'intervalCount'],
      [{ ...base, amount: 'cien' }, 'amount'],
      [{ ...base, startDate: '2027-02-30' }, 'startDate'],
      [{ ...base, startDate: '2020-01-01' }, 'startDate'],
      [{ ...base, extra: true }, 'extra'],
      [{ ...base, description: null }, 'description'],
    ] as const) {
      const answer = await merchant.post('/subscription', body);
      expect([field, answer.status, answer.body.errorId]).toEqual([field, 400, expect.stringMatching(/^Validation:|^Payins:/)]);
    }
    // Below the processor's minimum: a fixed fee of 50 UYU (and 3 %, with its VAT) nets nothing under 63.33.
    const relations = (await merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Row[];
    const oca = relations.find((r) => ((r.countryProcessor as Row).paymentMethod as Row).paymentMethodName === 'OCA')!;
    await bed.app.get(PricingService).set(asMerchantId(merchantId), oca.merchantCountryProcessorId as string, {
      percentage: 3,
      fixed: { currency: Currency.UYU, amount: 50 },
      settlementDelayDays: 0,
    });
    const small = await merchant.post('/subscription', {
      ...base,
      paymentInstrumentId: await newInstrument(bed.payerId, 'OCA'),
      amount: 60,
    });
    expect([small.status, small.body.errorId, small.body.minimumAmount]).toEqual([400, 'Payins:AMOUNT_BELOW_MINIMUM', 63.33]);
    const stranger = await bed.newTenant({ name: 'Stranger gym' });
    const theirs = bed.client(stranger.merchants[0]);
    const mine = await subscribe({ amount: 120 });
    expect((await theirs.get(`/subscription/${mine.subscriptionId}`)).status).toBe(404);
    expect((await theirs.post(`/subscription/${mine.subscriptionId}/cancel`, {})).status).toBe(404);
    const notTheirs = await theirs.post('/subscription', { ...base, merchantId: stranger.merchants[0].merchantId });
    expect(notTheirs.status).toBe(404);
    expect((await merchant.post(`/subscription/${mine.subscriptionId}/cancel`, {})).body.status).toBe('CANCELED');

    const clock = await clockAt('2027-01-01T00:00:00Z');
    for (const to of ['2026-12-31T00:00:00Z', '2027-01-01T00:00:00Z', '2029-01-03T00:00:00Z']) {
      const answer = await merchant.post(`/test-clock/${clock}/advance`, { to });
      expect([to, answer.status, answer.body]).toEqual([to, 400, errorShape('Payins:TEST_CLOCK_INVALID_ADVANCE')]);
    }
    expect((await theirs.get(`/test-clock/${clock}`)).status).toBe(404);
    const deleted = await merchant.delete(`/test-clock/${clock}`);
    expect([deleted.status, deleted.body.status]).toEqual([200, 'DELETED']);
    const late = await merchant.post(`/test-clock/${clock}/advance`, { to: '2027-02-01T00:00:00Z' });
    expect([late.status, late.body]).toEqual([409, errorShape('Payins:TEST_CLOCK_DELETED')]);
    const onDeleted = await merchant.post('/subscription', { ...base, testClockId: clock });
    expect([onDeleted.status, onDeleted.body]).toEqual([409, errorShape('Payins:TEST_CLOCK_DELETED')]);
  });
});
