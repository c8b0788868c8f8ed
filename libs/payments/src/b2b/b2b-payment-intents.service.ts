import { Injectable } from '@nestjs/common';
import { CatalogService, CountryProcessor } from '@pcs/catalog';
import { RuntimeSettings } from '@pcs/config';
import {
  Caller,
  DomainError,
  InvalidRequestError,
  MerchantId,
  Money,
  Page,
  PageRequest,
  PaymentIntentId,
  tenantScope,
  Transaction,
  UnitOfWork,
} from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import * as crypto from 'node:crypto';
import { AvailableProcessorsService } from '../available-processors.service';
import { CreationRules } from '../creation/creation-rules';
import { B2bCheckout, InvoiceDetails } from '../domain/b2b-checkout';
import { B2bStatusCode, b2bStatusCondition } from '../domain/b2b-status';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { B2bCheckoutRepository } from './b2b-checkout.repository';
import { b2bIntent } from '../domain/payment-intent-origins';
import { PayinRepository } from '../ledger/payin.repository';

/** B6's request, syntax checked and amounts read at the edge. */
export interface CreateB2bPaymentIntentCommand {
  readonly merchantId?: MerchantId;
  readonly externalReference?: string;
  readonly description?: string;
  readonly countryCode: string;
  /** Gross, VAT included, tip excluded. */
  readonly amount: Money;
  readonly tip?: Money;
  /** The VAT the client states, recorded as the tax amount; otherwise computed from the merchant's rate. */
  readonly vatAmount?: Money;
  readonly invoiceDetails?: InvoiceDetails;
  readonly includeAllPaymentMethods?: boolean;
  /** One instrument type, optionally narrowed to some networks (payment method names). */
  readonly paymentMethods?: { readonly name: string; readonly networks?: readonly string[] };
  readonly redirectUrl: string;
}

export interface B2bPaymentIntentListFilters {
  readonly merchantId?: MerchantId;
  readonly status?: B2bStatusCode;
  readonly externalReference?: string;
  readonly dateFrom?: Date;
  readonly dateUntil?: Date;
}

/** A B2B payment intent as the B2B API shows it: the intent, its checkout, and what the payer can use. */
export interface B2bPaymentIntentView {
  readonly intent: PaymentIntent;
  readonly checkout: B2bCheckout;
  readonly merchantName: string;
  /** The processors the payer may choose among now. */
  readonly available: readonly CountryProcessor[];
  /** The processor of the latest attempt, if the payer chose one. */
  readonly chosen: CountryProcessor | null;
  readonly checkoutUrl: string;
}

/**
 * B2B payment intents (operations B5–B7, contract §13): the payment intent
 * of the payins API, created with a hosted checkout that the payer is sent
 * to, listed and read in the B2B shape.
 */
@Injectable()
export class B2bPaymentIntentsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly merchants: MerchantService,
    private readonly catalog: CatalogService,
    private readonly intents: PaymentIntentRepository,
    private readonly checkouts: B2bCheckoutRepository,
    private readonly available: AvailableProcessorsService,
    private readonly ledger: PayinRepository,
    private readonly rules: CreationRules,
    private readonly settings: RuntimeSettings,
  ) {}

  /**
   * B6: the intent, its checkout, its event and the event's job in one
   * statement (no explicit transaction). The merchant and its VAT rates come
   * from memory; the processors it offers are read once, before anything is
   * written, and answered with the rest, so creating costs two round trips.
   * `operationId` (from the request's Idempotency-Key) becomes the intent's
   * id, so a retry finds what an earlier run committed.
   */
  async create(caller: Caller, command: CreateB2bPaymentIntentCommand, operationId?: string): Promise<B2bPaymentIntentView> {
    return this.rules.once(
      operationId,
      (paymentIntentId) => this.find(caller, paymentIntentId),
      (paymentIntentId) => this.write(caller, command, paymentIntentId),
    );
  }

  private async write(
    caller: Caller,
    command: CreateB2bPaymentIntentCommand,
    paymentIntentId: PaymentIntentId,
  ): Promise<B2bPaymentIntentView> {
    const { amount } = command;
    const tip = command.tip ?? Money.zero(amount.currency);
    const country = await this.rules.countryAccepting(command.countryCode, amount.currency);
    PaymentIntent.assertWithinLimit(amount, tip, 'amountDetails.tip');
    if (command.vatAmount && !amount.isGreaterThan(command.vatAmount))
      throw new InvalidRequestError(['amountDetails.vatAmount'], 'amountDetails.vatAmount must be below amount');
    const narrowing = command.includeAllPaymentMethods ? undefined : command.paymentMethods;
    const networks = narrowing?.networks?.length ? [...new Set(narrowing.networks)] : null;

    const merchant = await this.merchants.resolve(caller, command.merchantId);
    merchant.assertCanCollect();
    const vatRateBp = await this.rules.vatRate(merchant.id, country, undefined);
    const now = new Date();
    const intent = b2bIntent(
      {
        paymentIntentId,
        businessId: caller.businessId,
        merchantId: merchant.id,
        countryId: country.countryId,
        amount,
        vatRateBp,
        createdAt: now,
      },
      {
        tip,
        ...(command.vatAmount ? { tax: command.vatAmount } : {}),
        externalReference: command.externalReference ?? null,
        invoiceReference: command.invoiceDetails?.reference ?? null,
        invoiceNumber: command.invoiceDetails?.number ?? null,
        description: command.description ?? null,
        instrumentType: narrowing?.name ?? null,
        networks,
      },
    );
    // Nothing to pay with is refused before anything is written.
    const available = await this.available.of(intent);
    if (available.length === 0) {
      const method = narrowing ? [narrowing.name, ...(networks ?? [])].join(' ') : 'any payment method';
      throw new DomainError('PAYMENT_METHOD_NOT_AVAILABLE', `the merchant offers no ${method} in ${country.iso3} for ${amount.currency}`, {
        method,
        country: country.iso3,
      });
    }
    const checkout: B2bCheckout = {
      paymentIntentId,
      reference: `chk_${crypto.randomBytes(18).toString('base64url')}`,
      credentialId: caller.credentialId,
      redirectUrl: command.redirectUrl,
      // Whether every method the merchant offers there is available: true unless paymentMethods narrowed it.
      includeAllPaymentMethods: !narrowing,
      invoiceDetails: command.invoiceDetails ?? null,
      expiresAt: new Date(now.getTime() + this.settings.gateway.checkoutMinutes * 60_000),
      createdAt: now,
    };
    await this.intents.recordWith(this.unitOfWork.outside, intent, { alongside: [this.checkouts.recordedAlongside(checkout)], events: [] });
    return {
      intent,
      checkout,
      merchantName: merchant.snapshot().merchantName,
      available,
      chosen: null,
      checkoutUrl: this.checkoutUrl(checkout),
    };
  }

  /** B7: a B2B intent the caller may see; any other is a 404. */
  async get(caller: Caller, paymentIntentId: PaymentIntentId): Promise<B2bPaymentIntentView> {
    const view = await this.find(caller, paymentIntentId);
    if (!view) throw new DomainError('PAYMENT_INTENT_NOT_FOUND');
    return view;
  }

  /** B5, newest first. */
  async list(caller: Caller, filters: B2bPaymentIntentListFilters, page: PageRequest): Promise<Page<B2bPaymentIntentView>> {
    const { merchantId, ...rest } = filters;
    const found = await this.checkouts.list(
      this.unitOfWork.outside,
      await this.merchants.scopeOf(caller, merchantId),
      { ...rest, status: filters.status ? b2bStatusCondition(filters.status) : undefined },
      page,
    );
    const items: B2bPaymentIntentView[] = [];
    for (const { intent, checkout } of found.items) items.push(await this.viewOf(intent, checkout));
    return { ...found, items };
  }

  /** The checkout URL handed to the payer (opaque to clients: they follow it, never build it). */
  checkoutUrl(checkout: B2bCheckout): string {
    return `${this.settings.publicBaseUrl}/checkout/${checkout.reference}`;
  }

  async viewOf(intent: PaymentIntent, checkout: B2bCheckout, tx: Transaction = this.unitOfWork.outside): Promise<B2bPaymentIntentView> {
    const p = intent.snapshot();
    const merchant = await this.merchants.findById(p.merchantId, tx);
    const latest = await this.ledger.latestCharge(tx, intent.id);
    const chosenId = latest?.snapshot().countryProcessorId;
    const chosen = chosenId ? ((await this.catalog.findCountryProcessors([chosenId]))[0] ?? null) : null;
    return {
      intent,
      checkout,
      merchantName: merchant?.merchantName ?? '',
      available: await this.available.of(intent, tx),
      chosen,
      checkoutUrl: this.checkoutUrl(checkout),
    };
  }

  private async find(caller: Caller, paymentIntentId: PaymentIntentId): Promise<B2bPaymentIntentView | null> {
    const tx = this.unitOfWork.outside;
    const intent = await this.intents.findVisible(tx, tenantScope(caller), paymentIntentId);
    if (!intent || intent.snapshot().origin !== 'B2B') return null;
    const checkout = await this.checkouts.findByPaymentIntent(tx, intent.id);
    return checkout ? this.viewOf(intent, checkout, tx) : null;
  }
}
