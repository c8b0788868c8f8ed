import { Injectable } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { EventRecorder, EventType } from '@pcs/events';
import { metrics } from '@pcs/observability';
import { asMerchantId, asPayerId, Transaction, UnitOfWork } from '@pcs/kernel';
import { MailMessage, MailOutbox } from '@pcs/mail';
import { MerchantService } from '@pcs/merchants';
import { PayerService } from '@pcs/payers';
import { CardSetupService } from '@pcs/payments';
import * as crypto from 'node:crypto';
import { cardExpiringEmail, chargeDeclinedEmail, upcomingChargeEmail } from './billing-emails';
import { BillingRepository } from './billing.repository';
import { invoiceRepresentation, subscriptionRepresentation, upcomingRepresentation } from './billing.representation';
import { Invoice } from './domain/invoice';
import { Subscription } from './domain/subscription';

/**
 * Every write of a subscription or an invoice with the events and the payer's mails it causes (contract §31), in
 * the caller's transaction (a kill -9 loses neither): the one place the billing context records events. An event's
 * `sequence` counts per subscription (its invoices' events included), so a subscription's history reads in order.
 */
@Injectable()
export class BillingChanges {
  constructor(
    private readonly billing: BillingRepository,
    private readonly events: EventRecorder,
    private readonly payers: PayerService,
    private readonly merchants: MerchantService,
    private readonly mail: MailOutbox,
    private readonly setups: CardSetupService,
    private readonly settings: RuntimeSettings,
    private readonly unitOfWork: UnitOfWork,
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
    const s = subscription.snapshot();
    await this.mailPayer(tx, subscription, (base) =>
      upcomingChargeEmail({ ...base, amount: s.amount, description: s.description, chargeAt: subscription.period(period).start }),
    );
  }

  /** A month before the card expires (contract §31): the payer is told, with a page to save another. */
  async cardExpiring(tx: Transaction, subscription: Subscription): Promise<void> {
    await this.billing.saveSubscription(tx, subscription);
    const { amount, description, cardExpiresAt } = subscription.snapshot();
    if (!cardExpiresAt) return;
    await this.mailPayer(tx, subscription, async (base) =>
      cardExpiringEmail({ ...base, amount, description, expiresAt: cardExpiresAt, setupUrl: await this.newCardPage(tx, subscription) }),
    );
  }

  /** A period's invoice; false (nothing written, no event) when another got there first. */
  async issued(tx: Transaction, subscription: Subscription, invoice: Invoice): Promise<boolean> {
    if (!(await this.billing.insertInvoice(tx, invoice))) return false;
    await this.record(tx, subscription, 'invoice.created', invoiceRepresentation(invoice));
    this.count(tx, 'issued');
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
    const i = invoice.snapshot();
    if (event === 'invoice.paid') this.count(tx, 'paid');
    if (event === 'invoice.payment_failed') this.count(tx, i.declineKind === 'HARD' ? 'declined_hard' : 'declined_soft');
    // Closed here (not paid): dunning's end, or its subscription's.
    if (i.status === 'UNCOLLECTIBLE' || i.status === 'VOID') this.count(tx, i.status === 'VOID' ? 'void' : 'uncollectible');
    if (event === 'invoice.payment_failed') {
      await this.mailPayer(tx, subscription, async (base) =>
        chargeDeclinedEmail({
          ...base,
          amount: i.amount,
          description: i.description,
          retryAt: i.status === 'OPEN' ? i.nextAttemptAt : null,
          setupUrl: i.status === 'OPEN' ? await this.newCardPage(tx, subscription) : null,
        }),
      );
    }
  }

  /**
   * Dunning's page (contract §31): a card setup of the payer's, named for the subscription, whose new card becomes
   * the subscription's and pays its open invoices at once (BillingSetups); null when the merchant's card methods are
   * charged where cards cannot be saved here yet. Made only for a mail that goes (mailPayer's writer).
   */
  private async newCardPage(tx: Transaction, subscription: Subscription): Promise<string | null> {
    const s = subscription.snapshot();
    if (!(await this.setups.savesCards(asMerchantId(s.merchantId), tx))) return null;
    const setupId = crypto.randomUUID();
    const setupUrl = `${this.settings.publicBaseUrl}/setup/${setupId}`;
    // Once saved, the payer lands on the page's own confirmation.
    await this.setups.openWithin(
      tx,
      { businessId: s.businessId },
      { merchantId: asMerchantId(s.merchantId), payerId: asPayerId(s.payerId), returnUrl: setupUrl, subscriptionId: s.subscriptionId },
      setupId,
    );
    return setupUrl;
  }

  /** A mail to the subscription's payer, queued in the transaction (nothing when the payer has no e-mail address). */
  private async mailPayer(
    tx: Transaction,
    subscription: Subscription,
    write: (base: { to: string; merchantName: string; currency: string; timeZone: string }) => MailMessage | Promise<MailMessage>,
  ): Promise<void> {
    const s = subscription.snapshot();
    const payer = await this.payers.findById(asPayerId(s.payerId), tx);
    if (!payer?.email) return;
    const merchant = await this.merchants.findById(asMerchantId(s.merchantId), tx);
    await this.mail.enqueue(
      tx,
      await write({ to: payer.email, merchantName: merchant?.merchantName ?? '', currency: s.currency, timeZone: s.cycle.timeZone }),
    );
  }

  /** Counted in /metrics once the transaction commits (a rolled-back change counts nothing). */
  private count(tx: Transaction, outcome: 'issued' | 'paid' | 'declined_soft' | 'declined_hard' | 'uncollectible' | 'void'): void {
    this.unitOfWork.afterCommit(tx, () => metrics.invoices.inc({ outcome }));
  }

  private async record(tx: Transaction, subscription: Subscription, type: EventType, object: object): Promise<void> {
    // Events carry the real moment they are recorded; a test clock's time is in their objects.
    const s = subscription.snapshot();
    await this.events.record(tx, { type, businessId: s.businessId, merchantId: s.merchantId, subjectId: s.subscriptionId, object });
  }
}
