import { Injectable } from '@nestjs/common';
import { CatalogService } from '@pcs/catalog';
import { SANDBOX } from '@pcs/gateways';
import {
  asPaymentInstrumentId,
  Caller,
  DomainError,
  InvalidRequestError,
  LocalDate,
  localDateOf,
  MerchantId,
  Money,
  Page,
  PageRequest,
  PayerId,
  PaymentInstrumentId,
  tenantScope,
  Transaction,
  UnitOfWork,
} from '@pcs/kernel';
import { MerchantAccess } from '@pcs/merchants';
import { PayerService } from '@pcs/payers';
import { PaymentIntentCreationService } from '@pcs/payments';
import * as crypto from 'node:crypto';
import { BillingChanges } from './billing-changes';
import { BillingRepository, InvoiceFilters, SubscriptionFilters } from './billing.repository';
import { BillingInterval, cycleFrom, periodDate, periodStart } from './domain/billing-calendar';
import { Invoice } from './domain/invoice';
import { Subscription } from './domain/subscription';
import { assertPixTerms, PIX_CHARGE_LEAD_MS } from './domain/pix-automatico';

export interface CreateSubscriptionCommand {
  readonly merchantId: MerchantId;
  readonly payerId: PayerId;
  readonly paymentInstrumentId: PaymentInstrumentId;
  readonly amount: Money;
  readonly interval: BillingInterval;
  readonly intervalCount: number;
  readonly startDate?: LocalDate;
  readonly trialDays?: number;
  readonly description: string;
  readonly metadata?: Record<string, unknown>;
  readonly testClockId?: string;
}

export interface UpdateSubscriptionCommand {
  readonly amount?: Money;
  readonly paymentInstrumentId?: PaymentInstrumentId;
  readonly description?: string;
}

/**
 * The merchant's side of subscriptions and their invoices (contract §31), within the caller's tenancy. A
 * subscription is refused at creation what its first charge would be refused: an instrument that is not the
 * payer's or not active, a method without a processor that charges saved instruments, an amount below that
 * processor's minimum; on a test clock, an instrument the sandbox does not charge.
 */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly billing: BillingRepository,
    private readonly changes: BillingChanges,
    private readonly access: MerchantAccess,
    private readonly catalog: CatalogService,
    private readonly payers: PayerService,
    private readonly charges: PaymentIntentCreationService,
  ) {}

  async create(caller: Caller, command: CreateSubscriptionCommand, operationId?: string): Promise<Subscription> {
    const subscriptionId = operationId ?? crypto.randomUUID();
    if (operationId) {
      const earlier = await this.billing.findSubscription(this.unitOfWork.outside, operationId, tenantScope(caller));
      if (earlier) return earlier;
    }
    const merchant = await this.access.loadVisible(caller, command.merchantId);
    merchant.assertCanCollect();
    const country = await this.catalog.findCountryById(merchant.snapshot().countryId);
    if (!country) throw new DomainError('MERCHANT_NOT_FOUND');
    if (!country.currencies.includes(command.amount.currency))
      throw new DomainError('CURRENCY_NOT_ACCEPTED', undefined, { currency: command.amount.currency, country: country.iso3 });
    const payer = (await this.payers.loadVisible(caller, command.payerId)).snapshot();
    if (payer.merchantId !== merchant.id) throw new DomainError('PAYER_NOT_FOUND');
    const charged = await this.charges.assertChargeable(caller, {
      merchantId: merchant.id,
      payerId: command.payerId,
      paymentInstrumentId: command.paymentInstrumentId,
      countryId: country.countryId,
      amount: command.amount,
    });
    return this.unitOfWork.run(async (tx) => {
      let now = new Date();
      if (command.testClockId) {
        const clock = await this.billing.findClock(
          tx,
          command.testClockId,
          { businessId: caller.businessId, merchantId: merchant.id },
          true,
        );
        if (!clock) throw new DomainError('TEST_CLOCK_NOT_FOUND');
        clock.assertUsable();
        if (charged.gateway !== SANDBOX) throw new DomainError('TEST_CLOCK_NEEDS_SANDBOX', undefined, { provider: charged.displayName });
        now = clock.snapshot().frozenTime;
      }
      if (command.startDate !== undefined && command.startDate < localDateOf(now, country.timeZone))
        throw new InvalidRequestError(['startDate'], 'startDate must be today or later in the merchant’s time zone');
      const cycle = cycleFrom({ ...command, now, timeZone: country.timeZone });
      // Pix Automático (contract §31): the charges the payer authorised, requested 3 days ahead of each billing date.
      if (charged.pixMandate)
        assertPixTerms(
          charged.pixMandate,
          { ...command, amount: command.amount.minor, currency: command.amount.currency, firstDate: periodDate(cycle, 0) },
          localDateOf(now, 'America/Sao_Paulo'),
        );
      const subscription = Subscription.start({
        subscriptionId,
        businessId: caller.businessId,
        merchantId: merchant.id,
        payerId: command.payerId,
        paymentInstrumentId: command.paymentInstrumentId,
        country: country.iso3,
        amount: command.amount.minor,
        currency: command.amount.currency,
        cycle,
        trialEnd: command.trialDays ? periodStart(cycle, 0) : null,
        description: command.description,
        metadata: command.metadata ?? null,
        testClockId: command.testClockId ?? null,
        cardExpiresAt: charged.cardExpiresAt,
        chargeLeadSeconds: charged.pixMandate ? PIX_CHARGE_LEAD_MS / 1000 : 0,
        createdAt: now,
      });
      await this.changes.created(tx, subscription);
      return subscription;
    });
  }

  async get(caller: Caller, subscriptionId: string): Promise<Subscription> {
    return this.visible(caller, subscriptionId);
  }

  async list(caller: Caller, filters: SubscriptionFilters & { merchantId?: MerchantId }, page: PageRequest): Promise<Page<Subscription>> {
    return this.billing.listSubscriptions(this.unitOfWork.outside, await this.access.scopeOf(caller, filters.merchantId), filters, page);
  }

  /**
   * Amount, instrument or description from the next period. A new instrument (the payer's, active, chargeable for
   * the amount) is also tried at once on the open invoices that wait for one: those a decline left waiting.
   */
  async update(caller: Caller, subscriptionId: string, command: UpdateSubscriptionCommand): Promise<Subscription> {
    const current = await this.visible(caller, subscriptionId);
    const s = current.snapshot();
    if (command.amount && command.amount.currency !== s.currency)
      throw new InvalidRequestError(['amount'], `amount must be in ${s.currency}, the subscription’s currency`);
    // A new instrument's card expiry (checked with it): the subscription's from now on.
    let cardExpiresAt: Date | null | undefined;
    let chargeLeadSeconds: number | undefined;
    if (command.amount || command.paymentInstrumentId) {
      const merchant = await this.access.loadVisible(caller, s.merchantId);
      const charged = await this.charges.assertChargeable(caller, {
        merchantId: s.merchantId,
        payerId: s.payerId,
        paymentInstrumentId: command.paymentInstrumentId ?? s.paymentInstrumentId,
        countryId: merchant.snapshot().countryId,
        amount: command.amount ?? Money.ofMinor(s.amount, s.currency),
      });
      if (s.testClockId && charged.gateway !== SANDBOX)
        throw new DomainError('TEST_CLOCK_NEEDS_SANDBOX', undefined, { provider: charged.displayName });
      if (command.paymentInstrumentId) cardExpiresAt = charged.cardExpiresAt;
      // A Pix Automático authorisation binds the charges from the next period: its amount, its periodicity, its dates.
      if (charged.pixMandate)
        assertPixTerms(
          charged.pixMandate,
          {
            amount: command.amount?.minor ?? s.amount,
            currency: s.currency,
            interval: s.cycle.interval,
            intervalCount: s.cycle.intervalCount,
            firstDate: periodDate(s.cycle, s.nextPeriod),
          },
          localDateOf(new Date(), 'America/Sao_Paulo'),
        );
      if (command.paymentInstrumentId) chargeLeadSeconds = charged.pixMandate ? PIX_CHARGE_LEAD_MS / 1000 : 0;
    }
    return this.unitOfWork.run(async (tx) => {
      const subscription = await this.locked(caller, subscriptionId, tx);
      const now = await this.nowOf(tx, subscription);
      if (cardExpiresAt !== undefined) subscription.cardExpires(cardExpiresAt);
      subscription.change(
        {
          amount: command.amount?.minor,
          paymentInstrumentId: command.paymentInstrumentId && asPaymentInstrumentId(command.paymentInstrumentId),
          description: command.description,
          chargeLeadSeconds,
        },
        now,
      );
      if (command.paymentInstrumentId) {
        for (const invoice of await this.billing.openInvoices(tx, subscriptionId)) {
          if (invoice.retryWith(command.paymentInstrumentId, now)) await this.changes.invoice(tx, subscription, invoice, null);
        }
      }
      await this.changes.subscription(tx, subscription, 'subscription.updated');
      return subscription;
    });
  }

  /** Now (its open invoices void: nothing more is charged), or at the end of the current period. */
  async cancel(caller: Caller, subscriptionId: string, atPeriodEnd: boolean): Promise<Subscription> {
    return this.unitOfWork.run(async (tx) => {
      const subscription = await this.locked(caller, subscriptionId, tx);
      const now = await this.nowOf(tx, subscription);
      subscription.cancel(atPeriodEnd, now);
      if (subscription.snapshot().status === 'CANCELED') {
        for (const invoice of await this.billing.openInvoices(tx, subscriptionId)) {
          if (invoice.void(now)) await this.changes.invoice(tx, subscription, invoice, null);
        }
        await this.changes.subscription(tx, subscription, 'subscription.canceled');
      } else await this.changes.subscription(tx, subscription, 'subscription.updated');
      return subscription;
    });
  }

  async pause(caller: Caller, subscriptionId: string): Promise<Subscription> {
    return this.unitOfWork.run(async (tx) => {
      const subscription = await this.locked(caller, subscriptionId, tx);
      subscription.pause(await this.nowOf(tx, subscription));
      await this.changes.subscription(tx, subscription, 'subscription.updated');
      return subscription;
    });
  }

  async resume(caller: Caller, subscriptionId: string): Promise<Subscription> {
    return this.unitOfWork.run(async (tx) => {
      const subscription = await this.locked(caller, subscriptionId, tx);
      subscription.resume(await this.nowOf(tx, subscription));
      await this.changes.subscription(tx, subscription, 'subscription.updated');
      return subscription;
    });
  }

  async invoice(caller: Caller, invoiceId: string): Promise<Invoice> {
    const invoice = await this.billing.findInvoice(this.unitOfWork.outside, invoiceId, tenantScope(caller));
    if (!invoice) throw new DomainError('INVOICE_NOT_FOUND');
    return invoice;
  }

  async invoices(caller: Caller, filters: InvoiceFilters & { merchantId?: MerchantId }, page: PageRequest): Promise<Page<Invoice>> {
    return this.billing.listInvoices(this.unitOfWork.outside, await this.access.scopeOf(caller, filters.merchantId), filters, page);
  }

  private async visible(caller: Caller, subscriptionId: string): Promise<Subscription> {
    const subscription = await this.billing.findSubscription(this.unitOfWork.outside, subscriptionId, tenantScope(caller));
    if (!subscription) throw new DomainError('SUBSCRIPTION_NOT_FOUND');
    return subscription;
  }

  private async locked(caller: Caller, subscriptionId: string, tx: Transaction): Promise<Subscription> {
    const subscription = await this.billing.findSubscription(tx, subscriptionId, tenantScope(caller), true);
    if (!subscription) throw new DomainError('SUBSCRIPTION_NOT_FOUND');
    return subscription;
  }

  /** The subscription's time: its test clock's, or the real one. */
  private async nowOf(tx: Transaction, subscription: Subscription): Promise<Date> {
    const clockId = subscription.snapshot().testClockId;
    if (!clockId) return new Date();
    const clock = await this.billing.findClock(tx, clockId, null);
    return clock ? clock.snapshot().frozenTime : new Date();
  }
}
