import { Injectable } from '@nestjs/common';
import { EventRecorder, EventType } from '@pcs/events';
import { Transaction } from '@pcs/kernel';
import { BillingRepository } from './billing.repository';
import { invoiceRepresentation, subscriptionRepresentation, upcomingRepresentation } from './billing.representation';
import { Invoice } from './domain/invoice';
import { Subscription } from './domain/subscription';

/**
 * Every write of a subscription or an invoice with the events it causes (contract §31), in the caller's
 * transaction: the one place the billing context records events. An event's `sequence` counts per subscription
 * (its invoices' events included), so a subscription's history reads in order.
 */
@Injectable()
export class BillingChanges {
  constructor(
    private readonly billing: BillingRepository,
    private readonly events: EventRecorder,
  ) {}

  async created(tx: Transaction, subscription: Subscription): Promise<void> {
    await this.billing.insertSubscription(tx, subscription);
    await this.record(tx, subscription, 'subscription.created', subscriptionRepresentation(subscription));
  }

  /** The subscription saved; `event` when its change is news (an update, a status, its end). */
  async subscription(
    tx: Transaction,
    subscription: Subscription,
    event: 'subscription.updated' | 'subscription.canceled' | null,
  ): Promise<void> {
    await this.billing.saveSubscription(tx, subscription);
    if (event) await this.record(tx, subscription, event, subscriptionRepresentation(subscription));
  }

  async announced(tx: Transaction, subscription: Subscription, period: number): Promise<void> {
    await this.billing.saveSubscription(tx, subscription);
    await this.record(tx, subscription, 'invoice.upcoming', upcomingRepresentation(subscription, period));
  }

  /** A period's invoice; false (nothing written, no event) when another got there first. */
  async issued(tx: Transaction, subscription: Subscription, invoice: Invoice): Promise<boolean> {
    if (!(await this.billing.insertInvoice(tx, invoice))) return false;
    await this.record(tx, subscription, 'invoice.created', invoiceRepresentation(invoice));
    return true;
  }

  async invoice(
    tx: Transaction,
    subscription: Subscription,
    invoice: Invoice,
    event: 'invoice.paid' | 'invoice.payment_failed' | null,
  ): Promise<void> {
    await this.billing.saveInvoice(tx, invoice);
    if (event) await this.record(tx, subscription, event, invoiceRepresentation(invoice));
  }

  private async record(tx: Transaction, subscription: Subscription, type: EventType, object: object): Promise<void> {
    // Events carry the real moment they are recorded; a test clock's time is in their objects.
    const s = subscription.snapshot();
    await this.events.record(tx, { type, businessId: s.businessId, merchantId: s.merchantId, subjectId: s.subscriptionId, object });
  }
}
