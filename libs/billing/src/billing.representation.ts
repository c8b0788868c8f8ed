import { wireAmount } from '@pcs/kernel';
import type { Invoice } from './domain/invoice';
import type { Subscription } from './domain/subscription';
import type { TestClock } from './domain/test-clock';

/** A subscription as the payins API shows it (contract §31), and the object of its events. */
export function subscriptionRepresentation(subscription: Subscription) {
  const s = subscription.snapshot();
  const current = s.nextPeriod > 0 ? subscription.period(s.nextPeriod - 1) : null;
  return {
    subscriptionId: s.subscriptionId,
    merchantId: s.merchantId,
    payerId: s.payerId,
    paymentInstrumentId: s.paymentInstrumentId,
    amount: wireAmount(s.amount, s.currency),
    currency: s.currency,
    interval: s.cycle.interval,
    intervalCount: s.cycle.intervalCount,
    timeZone: s.cycle.timeZone,
    status: s.status,
    description: s.description,
    metadata: s.metadata,
    testClockId: s.testClockId,
    trialEnd: s.trialEnd?.toISOString() ?? null,
    currentPeriodStart: current?.start.toISOString() ?? null,
    currentPeriodEnd: current?.end.toISOString() ?? null,
    nextChargeAt: s.nextPeriodAt?.toISOString() ?? null,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    canceledAt: s.canceledAt?.toISOString() ?? null,
    endedAt: s.endedAt?.toISOString() ?? null,
    pausedAt: s.pausedAt?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** An invoice as the payins API shows it (contract §31), and the object of its events. */
export function invoiceRepresentation(invoice: Invoice) {
  const i = invoice.snapshot();
  return {
    invoiceId: i.invoiceId,
    subscriptionId: i.subscriptionId,
    merchantId: i.merchantId,
    payerId: i.payerId,
    paymentInstrumentId: i.paymentInstrumentId,
    periodNumber: i.periodNumber,
    periodStart: i.periodStart.toISOString(),
    periodEnd: i.periodEnd.toISOString(),
    amount: wireAmount(i.amount, i.currency),
    currency: i.currency,
    description: i.description,
    status: i.status,
    attemptCount: i.attemptCount,
    nextAttemptAt: i.status === 'OPEN' && !i.charging ? (i.nextAttemptAt?.toISOString() ?? null) : null,
    paymentIntentId: i.paymentIntentId,
    lastDecline: i.lastDecline,
    declineKind: i.declineKind,
    paidAt: i.paidAt?.toISOString() ?? null,
    closedAt: i.closedAt?.toISOString() ?? null,
    createdAt: i.createdAt.toISOString(),
  };
}

/** An upcoming period (event `invoice.upcoming`): what will be charged, when, to which instrument. */
export function upcomingRepresentation(subscription: Subscription, period: number) {
  const s = subscription.snapshot();
  const { start, end } = subscription.period(period);
  return {
    subscriptionId: s.subscriptionId,
    merchantId: s.merchantId,
    payerId: s.payerId,
    paymentInstrumentId: s.paymentInstrumentId,
    periodNumber: period,
    periodStart: start.toISOString(),
    periodEnd: end.toISOString(),
    amount: wireAmount(s.amount, s.currency),
    currency: s.currency,
    description: s.description,
  };
}

export function testClockRepresentation(clock: TestClock) {
  const c = clock.snapshot();
  return {
    testClockId: c.testClockId,
    merchantId: c.merchantId,
    frozenTime: c.frozenTime.toISOString(),
    status: c.status,
    createdAt: c.createdAt.toISOString(),
    deletedAt: c.deletedAt?.toISOString() ?? null,
  };
}

export type SubscriptionRepresentation = ReturnType<typeof subscriptionRepresentation>;
export type InvoiceRepresentation = ReturnType<typeof invoiceRepresentation>;
export type TestClockRepresentation = ReturnType<typeof testClockRepresentation>;
