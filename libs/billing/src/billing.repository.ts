import { Page, PageRequest, TenantScope, Transaction } from '@pcs/kernel';
import { Invoice, InvoiceStatus } from './domain/invoice';
import { Subscription, SubscriptionStatus } from './domain/subscription';
import { TestClock } from './domain/test-clock';

export interface SubscriptionFilters {
  readonly payerId?: string;
  readonly status?: SubscriptionStatus;
}

export interface InvoiceFilters {
  readonly subscriptionId?: string;
  readonly status?: InvoiceStatus;
}

/** Whose time the scheduler works in: the real clock's subscriptions (null), or one test clock's. */
export type ClockId = string | null;

/** Where subscriptions, invoices and test clocks are kept (port; the TypeORM adapter is in persistence/). */
export abstract class BillingRepository {
  abstract insertSubscription(tx: Transaction, subscription: Subscription): Promise<void>;
  abstract saveSubscription(tx: Transaction, subscription: Subscription): Promise<void>;
  /** Within the scope (null: any, for the scheduler); with `lock`, taken for update. */
  abstract findSubscription(
    tx: Transaction,
    subscriptionId: string,
    scope: TenantScope | null,
    lock?: boolean,
  ): Promise<Subscription | null>;
  abstract listSubscriptions(
    tx: Transaction,
    scope: TenantScope,
    filters: SubscriptionFilters,
    page: PageRequest,
  ): Promise<Page<Subscription>>;

  /** A period's invoice; false (nothing written) when that period is invoiced already. */
  abstract insertInvoice(tx: Transaction, invoice: Invoice): Promise<boolean>;
  abstract saveInvoice(tx: Transaction, invoice: Invoice): Promise<void>;
  abstract findInvoice(tx: Transaction, invoiceId: string, scope: TenantScope | null, lock?: boolean): Promise<Invoice | null>;
  abstract listInvoices(tx: Transaction, scope: TenantScope, filters: InvoiceFilters, page: PageRequest): Promise<Page<Invoice>>;
  /** The subscription's open invoices, oldest period first, taken for update. */
  abstract openInvoices(tx: Transaction, subscriptionId: string): Promise<Invoice[]>;

  /** Subscriptions of the clock with something due by `now` (an announcement or a period), locked, skipping those others hold. */
  abstract dueSubscriptions(tx: Transaction, clock: ClockId, now: Date, limit: number, merchantId?: string): Promise<Subscription[]>;
  /** Open invoices of the clock with something due by `now`, oldest first, locked, skipping those others hold. */
  abstract dueInvoices(tx: Transaction, clock: ClockId, now: Date, limit: number, merchantId?: string): Promise<Invoice[]>;
  /** The earliest moment anything of the clock's falls due (null: nothing will). */
  abstract nextDueOfClock(tx: Transaction, testClockId: string): Promise<Date | null>;

  abstract insertClock(tx: Transaction, clock: TestClock): Promise<void>;
  abstract saveClock(tx: Transaction, clock: TestClock): Promise<void>;
  abstract findClock(tx: Transaction, testClockId: string, scope: TenantScope | null, lock?: boolean): Promise<TestClock | null>;
  /** The ids of the clock's subscriptions not yet canceled. */
  abstract liveSubscriptionsOfClock(tx: Transaction, testClockId: string): Promise<string[]>;
}
