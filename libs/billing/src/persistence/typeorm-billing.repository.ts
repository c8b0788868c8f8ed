import { Injectable } from '@nestjs/common';
import { managerOf } from '@pcs/database';
import {
  asBusinessId,
  asMerchantId,
  asPayerId,
  asPaymentInstrumentId,
  Currency,
  Page,
  pageOffset,
  PageRequest,
  TenantScope,
  Transaction,
} from '@pcs/kernel';
import type { DeclineKind } from '@pcs/gateways';
import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { BillingRepository, ClockId, InvoiceFilters, SubscriptionFilters } from '../billing.repository';
import { BillingInterval } from '../domain/billing-calendar';
import { Invoice, InvoiceStatus } from '../domain/invoice';
import { CARD_EXPIRY_NOTICE_MS, Subscription, SubscriptionStatus, UPCOMING_NOTICE_MS } from '../domain/subscription';
import { TestClock, TestClockStatus } from '../domain/test-clock';
import { InvoiceOrmEntity, SubscriptionOrmEntity, TestClockOrmEntity } from './billing.orm-entity';

function subscriptionFromRow(row: SubscriptionOrmEntity): Subscription {
  return Subscription.restore({
    subscriptionId: row.subscriptionId,
    businessId: asBusinessId(row.businessId),
    merchantId: asMerchantId(row.merchantId),
    payerId: asPayerId(row.payerId),
    paymentInstrumentId: asPaymentInstrumentId(row.paymentInstrumentId),
    country: row.country,
    amount: row.amount,
    currency: row.currency as Currency,
    cycle: {
      interval: row.interval as BillingInterval,
      intervalCount: row.intervalCount,
      anchorDate: row.anchorDate,
      anchorTime: row.anchorTime,
      timeZone: row.timeZone,
    },
    trialEnd: row.trialEnd,
    description: row.description,
    metadata: row.metadata as Record<string, unknown> | null,
    status: row.status as SubscriptionStatus,
    testClockId: row.testClockId,
    nextPeriod: row.nextPeriod,
    nextPeriodAt: row.nextPeriodAt,
    announcedPeriod: row.announcedPeriod,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    cardExpiresAt: row.cardExpiresAt,
    cardExpiryNoticed: row.cardExpiryNoticed,
    chargeLeadSeconds: row.chargeLeadSeconds,
    canceledAt: row.canceledAt,
    endedAt: row.endedAt,
    pausedAt: row.pausedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  });
}

function subscriptionRow(subscription: Subscription): SubscriptionOrmEntity {
  const { cycle, ...props } = subscription.snapshot();
  return Object.assign(new SubscriptionOrmEntity(), {
    ...props,
    interval: cycle.interval,
    intervalCount: cycle.intervalCount,
    anchorDate: cycle.anchorDate,
    anchorTime: cycle.anchorTime,
    timeZone: cycle.timeZone,
  });
}

function invoiceFromRow(row: InvoiceOrmEntity): Invoice {
  return Invoice.restore({
    ...row,
    businessId: asBusinessId(row.businessId),
    merchantId: asMerchantId(row.merchantId),
    payerId: asPayerId(row.payerId),
    paymentInstrumentId: asPaymentInstrumentId(row.paymentInstrumentId),
    currency: row.currency as Currency,
    status: row.status as InvoiceStatus,
    declineKind: row.declineKind as DeclineKind | null,
  });
}

function clockFromRow(row: TestClockOrmEntity): TestClock {
  return TestClock.restore({
    ...row,
    businessId: asBusinessId(row.businessId),
    merchantId: asMerchantId(row.merchantId),
    status: row.status as TestClockStatus,
  });
}

function scoped<T extends ObjectLiteral>(query: SelectQueryBuilder<T>, alias: string, scope: TenantScope | null): SelectQueryBuilder<T> {
  if (!scope) return query;
  query.andWhere(`${alias}.business_id = :businessId`, { businessId: scope.businessId });
  if (scope.merchantId) query.andWhere(`${alias}.merchant_id = :merchantId`, { merchantId: scope.merchantId });
  return query;
}

/** What an open invoice waits for, in SQL: the running charge's lease, or the next charge or the end of dunning. */
const INVOICE_DUE = `(CASE WHEN i.charging THEN i.next_attempt_at ELSE LEAST(i.next_attempt_at, i.final_at) END)`;
/** When a subscription next needs the scheduler: its next period, or 3 days before it while that period is not announced. */
const NOTICE = `interval '${UPCOMING_NOTICE_MS / 1000} seconds'`;
const EXPIRY_NOTICE = `interval '${CARD_EXPIRY_NOTICE_MS / 1000} seconds'`;
/** …or a month before its card expires, until the payer is told (LEAST ignores the NULL of a card without expiry). */
const SUBSCRIPTION_DUE = `LEAST(
  CASE WHEN s.announced_period < s.next_period THEN s.next_period_at - ${NOTICE}
    ELSE s.next_period_at - s.charge_lead_seconds * interval '1 second' END,
  CASE WHEN NOT s.card_expiry_noticed THEN s.card_expires_at - ${EXPIRY_NOTICE} END)`;

@Injectable()
export class TypeOrmBillingRepository extends BillingRepository {
  async insertSubscription(tx: Transaction, subscription: Subscription): Promise<void> {
    await managerOf(tx).insert(SubscriptionOrmEntity, subscriptionRow(subscription));
  }

  async saveSubscription(tx: Transaction, subscription: Subscription): Promise<void> {
    const { subscriptionId, ...row } = subscriptionRow(subscription);
    await managerOf(tx).update(SubscriptionOrmEntity, { subscriptionId }, { ...row, version: row.version + 1 });
  }

  async findSubscription(tx: Transaction, subscriptionId: string, scope: TenantScope | null, lock = false): Promise<Subscription | null> {
    const query = scoped(
      managerOf(tx).createQueryBuilder(SubscriptionOrmEntity, 's').where('s.subscription_id = :subscriptionId', { subscriptionId }),
      's',
      scope,
    );
    if (lock) query.setLock('pessimistic_write');
    const row = await query.getOne();
    return row ? subscriptionFromRow(row) : null;
  }

  async listSubscriptions(
    tx: Transaction,
    scope: TenantScope,
    filters: SubscriptionFilters,
    page: PageRequest,
  ): Promise<Page<Subscription>> {
    const query = scoped(managerOf(tx).createQueryBuilder(SubscriptionOrmEntity, 's').where('true'), 's', scope);
    if (filters.payerId) query.andWhere('s.payer_id = :payerId', { payerId: filters.payerId });
    if (filters.status) query.andWhere('s.status = :status', { status: filters.status });
    const [rows, total] = await query
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.subscription_id', 'DESC')
      .skip(pageOffset(page))
      .take(page.limit)
      .getManyAndCount();
    return { items: rows.map(subscriptionFromRow), page: page.page, limit: page.limit, total };
  }

  async insertInvoice(tx: Transaction, invoice: Invoice): Promise<boolean> {
    const result = await managerOf(tx)
      .createQueryBuilder()
      .insert()
      .into(InvoiceOrmEntity)
      .values(Object.assign(new InvoiceOrmEntity(), invoice.snapshot()))
      .orIgnore()
      .returning('invoice_id')
      .execute();
    return (result.raw as unknown[]).length === 1;
  }

  async saveInvoice(tx: Transaction, invoice: Invoice): Promise<void> {
    const { invoiceId, ...row } = invoice.snapshot();
    await managerOf(tx).update(InvoiceOrmEntity, { invoiceId }, row);
  }

  async findInvoice(tx: Transaction, invoiceId: string, scope: TenantScope | null, lock = false): Promise<Invoice | null> {
    const query = scoped(
      managerOf(tx).createQueryBuilder(InvoiceOrmEntity, 'i').where('i.invoice_id = :invoiceId', { invoiceId }),
      'i',
      scope,
    );
    if (lock) query.setLock('pessimistic_write');
    const row = await query.getOne();
    return row ? invoiceFromRow(row) : null;
  }

  async listInvoices(tx: Transaction, scope: TenantScope, filters: InvoiceFilters, page: PageRequest): Promise<Page<Invoice>> {
    const query = scoped(managerOf(tx).createQueryBuilder(InvoiceOrmEntity, 'i').where('true'), 'i', scope);
    if (filters.subscriptionId) query.andWhere('i.subscription_id = :subscriptionId', { subscriptionId: filters.subscriptionId });
    if (filters.status) query.andWhere('i.status = :status', { status: filters.status });
    const [rows, total] = await query
      .orderBy('i.created_at', 'DESC')
      .addOrderBy('i.period_number', 'DESC')
      .addOrderBy('i.invoice_id', 'DESC')
      .skip(pageOffset(page))
      .take(page.limit)
      .getManyAndCount();
    return { items: rows.map(invoiceFromRow), page: page.page, limit: page.limit, total };
  }

  async openInvoices(tx: Transaction, subscriptionId: string): Promise<Invoice[]> {
    const rows = await managerOf(tx)
      .createQueryBuilder(InvoiceOrmEntity, 'i')
      .where("i.subscription_id = :subscriptionId AND i.status = 'OPEN'", { subscriptionId })
      .orderBy('i.period_number', 'ASC')
      .setLock('pessimistic_write')
      .getMany();
    return rows.map(invoiceFromRow);
  }

  async dueSubscriptions(tx: Transaction, clock: ClockId, now: Date, limit: number, merchantId?: string): Promise<Subscription[]> {
    const query = managerOf(tx)
      .createQueryBuilder(SubscriptionOrmEntity, 's')
      .where('s.next_period_at IS NOT NULL')
      .andWhere(clock ? 's.test_clock_id = :clock' : 's.test_clock_id IS NULL', { clock })
      .andWhere(merchantId ? 's.merchant_id = :merchantId' : 'true', { merchantId })
      // The index's column first (next_period_at within the notice), then the precise moment.
      .andWhere(
        `(s.next_period_at <= :horizon OR (s.card_expires_at <= :expiring AND NOT s.card_expiry_noticed)) AND ${SUBSCRIPTION_DUE} <= :now`,
        {
          horizon: new Date(now.getTime() + UPCOMING_NOTICE_MS),
          expiring: new Date(now.getTime() + CARD_EXPIRY_NOTICE_MS),
          now,
        },
      )
      .orderBy(SUBSCRIPTION_DUE, 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked');
    return (await query.getMany()).map(subscriptionFromRow);
  }

  async dueInvoices(tx: Transaction, clock: ClockId, now: Date, limit: number, merchantId?: string): Promise<Invoice[]> {
    const query = managerOf(tx)
      .createQueryBuilder(InvoiceOrmEntity, 'i')
      .where("i.status = 'OPEN'")
      .andWhere(clock ? 'i.test_clock_id = :clock' : 'i.test_clock_id IS NULL', { clock })
      .andWhere(merchantId ? 'i.merchant_id = :merchantId' : 'true', { merchantId })
      .andWhere(`${INVOICE_DUE} <= :now`, { now })
      .orderBy(INVOICE_DUE, 'ASC')
      .addOrderBy('i.period_number', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked');
    return (await query.getMany()).map(invoiceFromRow);
  }

  async nextDueOfClock(tx: Transaction, testClockId: string): Promise<Date | null> {
    const [row] = await managerOf(tx).query<{ at: Date | null }[]>(
      `SELECT LEAST(
         (SELECT min(${SUBSCRIPTION_DUE}) FROM subscription s WHERE s.test_clock_id = $1 AND s.next_period_at IS NOT NULL),
         (SELECT min(${INVOICE_DUE}) FROM invoice i WHERE i.test_clock_id = $1 AND i.status = 'OPEN')
       ) AS at`,
      [testClockId],
    );
    return row?.at ?? null;
  }

  async insertClock(tx: Transaction, clock: TestClock): Promise<void> {
    await managerOf(tx).insert(TestClockOrmEntity, Object.assign(new TestClockOrmEntity(), clock.snapshot()));
  }

  async saveClock(tx: Transaction, clock: TestClock): Promise<void> {
    const { testClockId, ...row } = clock.snapshot();
    await managerOf(tx).update(TestClockOrmEntity, { testClockId }, row);
  }

  async findClock(tx: Transaction, testClockId: string, scope: TenantScope | null, lock = false): Promise<TestClock | null> {
    const query = scoped(
      managerOf(tx).createQueryBuilder(TestClockOrmEntity, 'c').where('c.test_clock_id = :testClockId', { testClockId }),
      'c',
      scope,
    );
    if (lock) query.setLock('pessimistic_write');
    const row = await query.getOne();
    return row ? clockFromRow(row) : null;
  }

  async liveSubscriptionsOfClock(tx: Transaction, testClockId: string): Promise<string[]> {
    const rows = await managerOf(tx)
      .createQueryBuilder(SubscriptionOrmEntity, 's')
      .select('s.subscription_id', 'id')
      .where("s.test_clock_id = :testClockId AND s.status <> 'CANCELED'", { testClockId })
      .getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }
}
