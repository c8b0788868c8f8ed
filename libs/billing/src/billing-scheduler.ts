/*
 * Why one file: the scheduler's one loop over what is due (periods, charges, dunning's steps and end), whose steps
 * share the order it locks subscriptions and invoices in; split, that order would be spread over files.
 */
import { Injectable, Logger } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { GatewayRegistry } from '@pcs/gateways';
import {
  asMerchantId,
  asPayerId,
  addDays,
  asPaymentIntentId,
  Caller,
  DomainError,
  Money,
  PayinType,
  localDateOf,
  Transaction,
  UnitOfWork,
  uuidFrom,
} from '@pcs/kernel';
import { DunningSettings, MerchantConfigurationService } from '@pcs/merchants';
import { CHARGE_NEVER_SENT, PaymentIntentCreationService, PaymentIntentQueriesService } from '@pcs/payments';
import { BillingChanges } from './billing-changes';
import { BillingRepository, ClockId } from './billing.repository';
import { Invoice } from './domain/invoice';
import { Subscription } from './domain/subscription';
import { pixDunning, PIX_MIN_DAYS_AHEAD } from './domain/pix-automatico';

/** Pix Automático's dates are Brasília's (Banco Central's scheme). */
const BRASILIA = 'America/Sao_Paulo';

/** How many subscriptions or invoices one transaction of the scheduler takes. */
const BATCH = 20;
/**
 * A test clock's charge left pending at the sandbox is looked at again a day of the clock later (its time jumps
 * ahead in an advance; two minutes of it would be thousands of steps for one pending charge).
 */
const CLOCK_CHARGE_LEASE_MS = 86_400_000;

/** A charge the scheduler claimed: the invoice as claimed and the id of the intent that makes it. */
interface ClaimedCharge {
  readonly invoice: Invoice;
  readonly paymentIntentId: string;
}

/**
 * What falls due in billing (contract §31), for the real clock's subscriptions or one test clock's, run up to a
 * moment: a period's announcement 3 days before it (`invoice.upcoming`), its invoice on its date (one per
 * subscription and period: the database's unique key), the invoice's charge off-session, dunning's retries and
 * its end. Safe with any number of processes and after a kill -9 at any point: subscriptions and invoices are
 * taken with SKIP LOCKED; a charge's payment intent id is fixed (derived from the invoice and the charge's number)
 * and written before the processor is asked, and the payments context resumes an intent already made under that id
 * instead of making another; a charge whose outcome was not applied is taken up again when its lease ends (the
 * wait before a charge's gateway is asked about it: RECONCILE_AFTER_SECONDS).
 */
/** What a charge's intent says of the invoice: paid, declined (soft or hard), or never sent (our crash: no decline). */
type ChargeOutcomeOfInvoice =
  | { readonly paid: true }
  | { readonly paid: false; readonly notSent: true }
  | { readonly paid: false; readonly error: string; readonly kind: 'SOFT' | 'HARD' };

@Injectable()
export class BillingScheduler {
  private readonly logger = new Logger('Billing');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly billing: BillingRepository,
    private readonly changes: BillingChanges,
    private readonly charges: PaymentIntentCreationService,
    private readonly intents: PaymentIntentQueriesService,
    private readonly gateways: GatewayRegistry,
    private readonly configurations: MerchantConfigurationService,
    private readonly settings: RuntimeSettings,
  ) {}

  /**
   * Everything of the clock due by `now`: the subscriptions' periods first (their invoices are then charged in the
   * same run), then the invoices. A charge still pending at its processor is left to its lease. Answers the steps done.
   * With `merchantId`, that merchant's only (an operator's run for one merchant; a test that moves one merchant's time
   * while other merchants' subscriptions share the database).
   */
  async runDue(clock: ClockId, now: Date, merchantId?: string): Promise<number> {
    let done = 0;
    // Until nothing is due: a subscription behind by several periods (a stop, a clock's jump) comes back once per period.
    for (let acted = 1; acted > 0;) {
      acted = await this.subscriptionsDue(clock, now, merchantId);
      done += acted;
    }
    // An invoice is claimed once per run: one whose charge is still pending waits for its lease, not this loop.
    const claimed = new Set<string>();
    for (let taken = 1; taken > 0;) {
      const { charges, ended } = await this.claimInvoices(clock, now, claimed, merchantId);
      taken = charges.length + ended.length;
      done += taken;
      for (const id of ended) await this.endDunning(id, now);
      for (const charge of charges) await this.charge(charge, now);
    }
    return done;
  }

  private async subscriptionsDue(clock: ClockId, now: Date, merchantId?: string): Promise<number> {
    return this.unitOfWork.run(async (tx) => {
      let acted = 0;
      for (const subscription of await this.billing.dueSubscriptions(tx, clock, now, BATCH, merchantId))
        if (await this.step(tx, subscription, now)) acted += 1;
      return acted;
    });
  }

  /** One subscription's due step, in the transaction that holds it; false when nothing was due after all. */
  private async step(tx: Transaction, subscription: Subscription, now: Date): Promise<boolean> {
    const due = subscription.dueAt(now);
    if (!due) return false;
    if (due.kind === 'ANNOUNCE') {
      subscription.announced(due.period, now);
      await this.changes.announced(tx, subscription, due.period);
      return true;
    }
    if (due.kind === 'CARD_EXPIRY') {
      subscription.cardExpiryTold(now);
      await this.changes.cardExpiring(tx, subscription);
      return true;
    }
    const s = subscription.snapshot();
    const period = subscription.period(due.period);
    // Pix Automático's charge is requested ahead (contract §31), with the payer's notice of it; dLocal's retries are its own.
    const ahead = subscription.leadMs > 0;
    const dunning = await this.dunningFor(tx, subscription);
    if (ahead && s.announcedPeriod < due.period && period.start.getTime() - now.getTime() > 0) {
      subscription.announced(due.period, now);
      await this.changes.announced(tx, subscription, due.period);
    }
    const { invoiced, statusChanged } = subscription.advance(now);
    if (invoiced) {
      const invoice = Invoice.issue(
        {
          invoiceId: uuidFrom(`pcs subscription ${s.subscriptionId} period ${due.period}`),
          subscriptionId: s.subscriptionId,
          businessId: s.businessId,
          merchantId: s.merchantId,
          payerId: s.payerId,
          paymentInstrumentId: s.paymentInstrumentId,
          testClockId: s.testClockId,
          periodNumber: due.period,
          periodStart: period.start,
          periodEnd: period.end,
          amount: s.amount,
          currency: s.currency,
          description: s.description,
          createdAt: now,
          ...(ahead ? { chargeFrom: now } : {}),
        },
        dunning,
      );
      await this.changes.issued(tx, subscription, invoice);
    }
    const ended = subscription.snapshot().status === 'CANCELED';
    await this.changes.subscription(tx, subscription, ended ? 'subscription.canceled' : statusChanged ? 'subscription.updated' : null);
    return true;
  }

  private async claimInvoices(
    clock: ClockId,
    now: Date,
    claimed: Set<string>,
    merchantId?: string,
  ): Promise<{ charges: ClaimedCharge[]; ended: string[] }> {
    return this.unitOfWork.run(async (tx) => {
      const charges: ClaimedCharge[] = [];
      const ended: string[] = [];
      for (const invoice of await this.billing.dueInvoices(tx, clock, now, BATCH + claimed.size, merchantId)) {
        if (claimed.has(invoice.id) || charges.length + ended.length === BATCH) continue;
        claimed.add(invoice.id);
        const claim = invoice.claim(now, clock ? CLOCK_CHARGE_LEASE_MS : this.settings.gateway.reconcileAfterSeconds * 1000);
        if (claim?.kind === 'CHARGE') {
          await this.billing.saveInvoice(tx, invoice);
          charges.push({ invoice, paymentIntentId: claim.paymentIntentId });
        } else if (claim?.kind === 'END') ended.push(invoice.id);
      }
      return { charges, ended };
    });
  }

  /**
   * Makes (or resumes) the claimed charge through the payments context, then applies its outcome with the
   * subscription and the invoice locked in that order (the order every writer of both takes them in).
   */
  private async charge({ invoice, paymentIntentId }: ClaimedCharge, now: Date): Promise<void> {
    const i = invoice.snapshot();
    const subscription = await this.billing.findSubscription(this.unitOfWork.outside, i.subscriptionId, null);
    if (!subscription) return;
    const s = subscription.snapshot();
    const caller: Caller = { credentialId: 'billing', businessId: s.businessId, merchantId: s.merchantId };
    // Pix Automático (contract §31): scheduled for the period's date (Brasília), at least the scheme's 2 days after the
    // request; a later charge of the invoice is dLocal's retry of the one before (a charge before it that never reached
    // dLocal has no payment to retry: the adapter then asks for a new scheduled payment, which the scheme's date rules).
    const billingDate = localDateOf(i.periodStart, BRASILIA);
    const earliest = addDays(localDateOf(now, BRASILIA), PIX_MIN_DAYS_AHEAD);
    const retry = i.attemptCount > 1;
    const scheduledCharge =
      subscription.leadMs > 0
        ? {
            date: billingDate >= earliest ? billingDate : earliest,
            retryOfPaymentIntentId: retry ? Invoice.intentIdOf(i.invoiceId, i.attemptCount - 1) : null,
          }
        : null;
    let outcome: ChargeOutcomeOfInvoice | null;
    try {
      const intent = await this.charges.create(
        caller,
        {
          amount: Money.ofMinor(i.amount, i.currency),
          payinType: PayinType.DEFAULT,
          externalReference: i.invoiceId,
          payerId: asPayerId(i.payerId),
          offSession: true,
          invoiceNumber: i.periodNumber + 1,
          country: s.country,
          merchantId: s.merchantId,
          paymentInstrumentId: i.paymentInstrumentId,
          confirm: true,
          description: i.description,
          ...(scheduledCharge ? { metadata: { scheduledCharge } } : {}),
        },
        paymentIntentId,
      );
      const p = intent.snapshot();
      outcome =
        p.status === 'SUCCEEDED'
          ? { paid: true }
          : p.status === 'REQUIRES_PAYMENT_INSTRUMENT' && p.lastPaymentError === CHARGE_NEVER_SENT
            ? { paid: false, notSent: true }
            : p.status === 'REQUIRES_PAYMENT_INSTRUMENT' && p.lastPaymentError
              ? { paid: false, error: p.lastPaymentError, kind: this.gateways.declineKindOf(p.lastPaymentError) }
              : null;
    } catch (error) {
      // A refusal before anything was written (the instrument removed, the merchant unable to collect, an amount now
      // below the minimum) is this charge's end: a hard decline, which waits for a change. Anything else — a failure
      // that may come after the intent was written and the processor asked, a database away — leaves the charge
      // running: the same intent is taken up again when its lease ends, so a charge that happened is never made twice.
      // (A processor that cannot be reached leaves the intent processing; reconciliation ends it, and its decline is soft.)
      const refused =
        error instanceof DomainError &&
        error.definition.kind !== 'UNAVAILABLE' &&
        error.definition.kind !== 'INTERNAL' &&
        !(await this.intentExists(caller, paymentIntentId));
      if (!refused) {
        this.logger.warn(`invoice ${i.invoiceId}: its charge failed (${(error as Error).message}); taken up again when its lease ends`);
        return;
      }
      outcome = { paid: false, error: `${error.definition.code}: ${error.message}`, kind: 'HARD' };
    }
    if (!outcome) return; // pending at the processor: the lease brings it back
    await this.apply(i.invoiceId, paymentIntentId, outcome, now);
  }

  private async apply(invoiceId: string, paymentIntentId: string, outcome: ChargeOutcomeOfInvoice, now: Date): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const known = await this.billing.findInvoice(tx, invoiceId, null);
      if (!known) return;
      const subscription = await this.billing.findSubscription(tx, known.snapshot().subscriptionId, null, true);
      const invoice = await this.billing.findInvoice(tx, invoiceId, null, true);
      if (!subscription || !invoice) return;
      const i = invoice.snapshot();
      // Applied once: only to the charge that is still the invoice's running one.
      if (i.status !== 'OPEN' || !i.charging || i.paymentIntentId !== paymentIntentId) return;
      if (outcome.paid) {
        invoice.paid(now);
        await this.changes.invoice(tx, subscription, invoice, 'invoice.paid');
        const failing = (await this.billing.openInvoices(tx, i.subscriptionId)).some((open) => open.snapshot().lastDecline !== null);
        if (!failing && subscription.recovered(now)) await this.changes.subscription(tx, subscription, 'subscription.updated');
        return;
      }
      // A charge our crash kept from its processor: no decline, no mail; charged again at once (the next run).
      if ('notSent' in outcome) {
        invoice.notSent(now);
        await this.billing.saveInvoice(tx, invoice);
        return;
      }
      const dunning = await this.dunningFor(tx, subscription);
      const over = invoice.declined(outcome.error, outcome.kind, dunning, now);
      // A subscription canceled while its charge ran charges nothing more.
      if (subscription.snapshot().status === 'CANCELED') invoice.void(now);
      await this.changes.invoice(tx, subscription, invoice, 'invoice.payment_failed');
      if (invoice.snapshot().status !== 'OPEN') return;
      if (over) await this.finish(tx, subscription, invoice, dunning, now);
      else if (subscription.pastDue(now)) await this.changes.subscription(tx, subscription, 'subscription.updated');
    });
  }

  /** Dunning's end for an invoice whose retries are spent (or whose hard decline waited in vain for a new card). */
  private async endDunning(invoiceId: string, now: Date): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const known = await this.billing.findInvoice(tx, invoiceId, null);
      if (!known) return;
      const subscription = await this.billing.findSubscription(tx, known.snapshot().subscriptionId, null, true);
      const invoice = await this.billing.findInvoice(tx, invoiceId, null, true);
      if (!subscription || !invoice || invoice.claim(now, 0)?.kind !== 'END') return;
      await this.finish(tx, subscription, invoice, await this.dunningFor(tx, subscription), now);
    });
  }

  /** The invoice is uncollectible; the subscription becomes the merchant's final status, and a canceled one voids its other open invoices. */
  private async finish(tx: Transaction, subscription: Subscription, invoice: Invoice, dunning: DunningSettings, now: Date): Promise<void> {
    invoice.uncollectible(now);
    await this.changes.invoice(tx, subscription, invoice, null);
    if (!subscription.endDunning(dunning.finalStatus, now)) return;
    if (dunning.finalStatus === 'CANCELED') {
      for (const open of await this.billing.openInvoices(tx, subscription.id)) {
        if (open.void(now)) await this.changes.invoice(tx, subscription, open, null);
      }
    }
    await this.changes.subscription(
      tx,
      subscription,
      dunning.finalStatus === 'CANCELED' ? 'subscription.canceled' : 'subscription.updated',
    );
  }

  /** Whether the charge's intent was written (then its outcome, not a refusal, decides). */
  private async intentExists(caller: Caller, paymentIntentId: string): Promise<boolean> {
    try {
      await this.intents.get(caller, asPaymentIntentId(paymentIntentId));
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.definition.code === 'PAYMENT_INTENT_NOT_FOUND') return false;
      throw error;
    }
  }

  /** The subscription's dunning: the merchant's, or for Pix Automático dLocal's retry days with the merchant's end. */
  private async dunningFor(tx: Transaction, subscription: Subscription): Promise<DunningSettings> {
    const merchant = await this.dunningOf(tx, subscription.snapshot().merchantId);
    return subscription.leadMs > 0 ? pixDunning(merchant) : merchant;
  }

  private dunningOf(tx: Transaction, merchantId: string): Promise<DunningSettings> {
    return this.configurations.dunningFor(asMerchantId(merchantId), tx);
  }
}
