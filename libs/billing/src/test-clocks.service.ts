import { Injectable, Logger } from '@nestjs/common';
import { Caller, DomainError, InvalidRequestError, MerchantId, tenantScope, Transaction, UnitOfWork } from '@pcs/kernel';
import { MerchantAccess } from '@pcs/merchants';
import * as crypto from 'node:crypto';
import { BillingChanges } from './billing-changes';
import { BillingScheduler } from './billing-scheduler';
import { BillingRepository } from './billing.repository';
import { TestClock } from './domain/test-clock';

/** How long an advance holds its clock before another may take it over (renewed at each step). */
const ADVANCE_HOLD_MS = 5 * 60_000;
/** The most steps one advance takes (a guard: two years of daily subscriptions with every retry fit well within it). */
const MAX_STEPS = 20_000;

/**
 * Test clocks (contract §31, as Stripe's): a merchant's own time for its sandbox subscriptions. An advance runs,
 * in order, everything of the clock's subscriptions that falls due up to its target (announcements, invoices,
 * charges, retries, status changes, events), moving the clock to each moment in turn, and answers when it has.
 */
@Injectable()
export class TestClocksService {
  private readonly logger = new Logger('TestClocks');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly billing: BillingRepository,
    private readonly changes: BillingChanges,
    private readonly scheduler: BillingScheduler,
    private readonly access: MerchantAccess,
  ) {}

  async create(caller: Caller, merchantId: MerchantId, frozenTime: Date, operationId?: string): Promise<TestClock> {
    if (operationId) {
      const earlier = await this.billing.findClock(this.unitOfWork.outside, operationId, tenantScope(caller));
      if (earlier) return earlier;
    }
    const merchant = await this.access.loadVisible(caller, merchantId);
    if (!(frozenTime.getUTCFullYear() >= 2000 && frozenTime.getUTCFullYear() < 2100))
      throw new InvalidRequestError(['frozenTime'], 'frozenTime must be an instant between the years 2000 and 2099');
    const clock = TestClock.create({
      testClockId: operationId ?? crypto.randomUUID(),
      businessId: caller.businessId,
      merchantId: merchant.id,
      frozenTime,
      createdAt: new Date(),
    });
    await this.unitOfWork.run((tx) => this.billing.insertClock(tx, clock));
    return clock;
  }

  async get(caller: Caller, testClockId: string): Promise<TestClock> {
    return this.visible(this.unitOfWork.outside, caller, testClockId);
  }

  async advance(caller: Caller, testClockId: string, to: Date): Promise<TestClock> {
    await this.unitOfWork.run(async (tx) => {
      const clock = await this.visible(tx, caller, testClockId, true);
      const now = new Date();
      clock.startAdvance(to, now, new Date(now.getTime() + ADVANCE_HOLD_MS));
      await this.billing.saveClock(tx, clock);
    });
    let steps = 0;
    for (;;) {
      const next = await this.billing.nextDueOfClock(this.unitOfWork.outside, testClockId);
      if (!next || next > to) break;
      const at = await this.moveTo(testClockId, next);
      steps += Math.max(1, await this.scheduler.runDue(testClockId, at));
      if (steps > MAX_STEPS) {
        this.logger.warn(`test clock ${testClockId}: stopped after ${MAX_STEPS} steps short of ${to.toISOString()}`);
        break;
      }
    }
    return this.unitOfWork.run(async (tx) => {
      const clock = await this.visible(tx, caller, testClockId, true);
      clock.finishAdvance(to);
      await this.billing.saveClock(tx, clock);
      return clock;
    });
  }

  /** Cancels the clock's subscriptions (their open invoices void) and retires it. */
  async delete(caller: Caller, testClockId: string): Promise<TestClock> {
    return this.unitOfWork.run(async (tx) => {
      const clock = await this.visible(tx, caller, testClockId, true);
      const now = clock.snapshot().frozenTime;
      for (const subscriptionId of await this.billing.liveSubscriptionsOfClock(tx, testClockId)) {
        const subscription = await this.billing.findSubscription(tx, subscriptionId, null, true);
        if (!subscription) continue;
        subscription.cancel(false, now);
        for (const invoice of await this.billing.openInvoices(tx, subscriptionId)) {
          if (invoice.void(now)) await this.changes.invoice(tx, subscription, invoice, null);
        }
        await this.changes.subscription(tx, subscription, 'subscription.canceled');
      }
      clock.delete(new Date());
      await this.billing.saveClock(tx, clock);
      return clock;
    });
  }

  /** The clock moves to `at` (never back), its hold renewed; answers its time. */
  private async moveTo(testClockId: string, at: Date): Promise<Date> {
    return this.unitOfWork.run(async (tx) => {
      const clock = await this.billing.findClock(tx, testClockId, null, true);
      if (!clock) throw new DomainError('TEST_CLOCK_NOT_FOUND');
      clock.reach(at, new Date(Date.now() + ADVANCE_HOLD_MS));
      await this.billing.saveClock(tx, clock);
      return clock.snapshot().frozenTime;
    });
  }

  private async visible(tx: Transaction, caller: Caller, testClockId: string, lock = false): Promise<TestClock> {
    const clock = await this.billing.findClock(tx, testClockId, tenantScope(caller), lock);
    if (!clock) throw new DomainError('TEST_CLOCK_NOT_FOUND');
    return clock;
  }
}
