import { Injectable, OnModuleInit } from '@nestjs/common';
import { asPaymentInstrumentId, Transaction } from '@pcs/kernel';
import { PaymentInstrumentService } from '@pcs/payment-instruments';
import { CardSetup, CardSetupService } from '@pcs/payments';
import { BillingChanges } from './billing-changes';
import { BillingRepository } from './billing.repository';

/**
 * Dunning's new card (contract §31): when the payer saves a card on the page a declined charge's mail links to,
 * in the same transaction, the card becomes the subscription's and its open invoices waiting for a try are tried
 * with it at once (the scheduler's next pass; a test clock's next advance).
 */
@Injectable()
export class BillingSetups implements OnModuleInit {
  constructor(
    private readonly setups: CardSetupService,
    private readonly billing: BillingRepository,
    private readonly changes: BillingChanges,
    private readonly instruments: PaymentInstrumentService,
  ) {}

  onModuleInit(): void {
    this.setups.onCompleted((tx, setup, paymentInstrumentId, now) => this.completed(tx, setup, paymentInstrumentId, now));
  }

  private async completed(tx: Transaction, setup: CardSetup, paymentInstrumentId: string, now: Date): Promise<void> {
    const s = setup.snapshot();
    if (!s.subscriptionId) return;
    const subscription = await this.billing.findSubscription(tx, s.subscriptionId, null, true);
    if (!subscription || subscription.snapshot().status === 'CANCELED' || subscription.snapshot().payerId !== s.payerId) return;
    const clockId = subscription.snapshot().testClockId;
    const at = (clockId && (await this.billing.findClock(tx, clockId, null))?.snapshot().frozenTime) || now;
    const instrument = asPaymentInstrumentId(paymentInstrumentId);
    const caller = { credentialId: 'card-setup', businessId: s.businessId, merchantId: s.merchantId };
    subscription.cardExpires((await this.instruments.loadVisible(caller, instrument, tx)).cardExpiresAt);
    subscription.change({ paymentInstrumentId: instrument }, at);
    for (const invoice of await this.billing.openInvoices(tx, subscription.id)) {
      if (invoice.retryWith(instrument, at)) await this.changes.invoice(tx, subscription, invoice, null);
    }
    await this.changes.subscription(tx, subscription, 'subscription.updated');
  }
}
