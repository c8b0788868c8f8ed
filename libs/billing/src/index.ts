/*
 * The billing context's public API (contract §31): subscriptions, invoices and test clocks, the services the
 * payins API and the dashboard use, the views they answer, the modules to import.
 */
export { BillingModule, BillingSweeps, BillingWorkersModule } from './billing.module';
export { BillingScheduler } from './billing-scheduler';
export { SubscriptionsService } from './subscriptions.service';
export type { CreateSubscriptionCommand, UpdateSubscriptionCommand } from './subscriptions.service';
export { TestClocksService } from './test-clocks.service';
export {
  invoiceRepresentation,
  subscriptionRepresentation,
  testClockRepresentation,
  upcomingRepresentation,
} from './billing.representation';
export type { InvoiceRepresentation, SubscriptionRepresentation, TestClockRepresentation } from './billing.representation';
export { BILLING_INTERVALS } from './domain/billing-calendar';
export type { BillingInterval } from './domain/billing-calendar';
export { INVOICE_STATUSES } from './domain/invoice';
export type { InvoiceStatus } from './domain/invoice';
export { SUBSCRIPTION_STATUSES } from './domain/subscription';
export type { SubscriptionStatus } from './domain/subscription';
export { Invoice } from './domain/invoice';
export { Subscription } from './domain/subscription';
export { TestClock } from './domain/test-clock';
