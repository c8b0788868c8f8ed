import { Injectable } from '@nestjs/common';
import { inTransaction, isUniqueViolation } from '@pcs/database';
import { InjectDataSource } from '@nestjs/typeorm';
import { CatalogService, Country } from '@pcs/catalog';
import {
  basisPointsToVatPercentage,
  Caller,
  Currency,
  DomainError,
  InvalidRequestError,
  Money,
  MoneyError,
  PayinType,
  vatPercentageToBasisPoints,
} from '@pcs/kernel';
import { MerchantConfigurationService, MerchantService } from '@pcs/merchants';
import { PayerRequest, PayerService } from '@pcs/payers';
import { PayinLedgerService } from '@pcs/payins';
import { PaymentInstrumentService } from '@pcs/payment-instruments';
import * as crypto from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { PaymentIntent } from '../domain/payment-intent';
import { AvailableProcessorsService } from '../available-processors.service';
import { PaymentAttemptParties } from '../attempts/payment-attempt-parties';
import { PaymentAttemptsService } from '../attempts/payment-attempts.service';
import { PaymentIntentRepository } from '../payment-intent.repository';

export interface PaymentInstrumentData {
  paymentInstrumentTypeName?: string;
  paymentMethodName: string;
  /** Country ids (uuid) where the instrument may be used. */
  countries?: string[];
  metadata?: Record<string, unknown>;
  merchantId?: string;
}

/** Operation 17's request, syntax already checked. Amounts are wire numbers (major units). */
export interface CreatePaymentIntentCommand {
  currency: Currency;
  amount: number;
  payinType: PayinType;
  externalReference: string;
  payerId?: string;
  offSession: boolean;
  invoiceNumber: number;
  country: string;
  merchantId?: string;
  paymentInstrumentId?: string;
  paymentInstrumentData?: PaymentInstrumentData;
  confirm?: boolean;
  payerData?: PayerRequest;
  setupFutureUsage?: boolean;
  metadata?: { limitIssuers?: string[] };
  description?: string;
  tipAmount?: number;
  vatPercentage?: number;
}

export interface FastPaymentIntentCommand {
  amount: number;
  currency: Currency;
  comment?: string;
  paymentInstrumentTypeName?: string;
  paymentMethodName?: string;
  merchantShortName: string;
  countryCode: string;
  paymentIntentAdditionalInfo?: Record<string, unknown>;
}

function money(field: string, value: number, currency: Currency): Money {
  try {
    return Money.fromWire(value, currency);
  } catch (error) {
    if (error instanceof MoneyError) throw new InvalidRequestError([field], `${field}: ${error.message}`);
    throw error;
  }
}

@Injectable()
export class PaymentIntentCreationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly merchants: MerchantService,
    private readonly configurations: MerchantConfigurationService,
    private readonly catalog: CatalogService,
    private readonly payers: PayerService,
    private readonly instruments: PaymentInstrumentService,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinLedgerService,
    private readonly attempts: PaymentAttemptsService,
    private readonly parties: PaymentAttemptParties,
    private readonly available: AvailableProcessorsService,
  ) {}

  /**
   * Operation 17. In one transaction: the payer (created from payerData when
   * no payerId), the instrument (created from paymentInstrumentData when no
   * paymentInstrumentId), the intent; with `confirm` and an instrument, a
   * PENDING payin too. The off-session charge itself happens after commit.
   * `operationId` (derived from the request's Idempotency-Key, when it has
   * one) becomes the intent's id: if an intent was already committed under
   * it, that one is carried on and answered.
   */
  async create(caller: Caller, command: CreatePaymentIntentCommand, operationId?: string): Promise<PaymentIntent> {
    if (!command.payerId && !command.payerData)
      throw new InvalidRequestError(['payerId'], 'payerId is required unless payerData describes a new payer');
    const earlier = operationId && (await this.resume(caller, operationId));
    if (earlier) return earlier;
    const paymentIntentId = operationId ?? crypto.randomUUID();
    const country = await this.countryAccepting(command.country, command.currency);
    const amount = money('amount', command.amount, command.currency);
    const tip = command.tipAmount ? money('tipAmount', command.tipAmount, command.currency) : Money.zero(command.currency);
    if (amount.plus(tip).minor > 999_999_999_999) throw new InvalidRequestError(['tipAmount'], 'amount plus tipAmount exceeds the maximum');

    const created = await inTransaction(this.dataSource, async (manager) => {
      const merchant = await this.merchants.resolve(caller, command.merchantId ?? command.paymentInstrumentData?.merchantId, manager);
      const merchantId = merchant.id;
      merchant.assertCanCollect();
      const vatRateBp = await this.vatRate(merchantId, country, command.vatPercentage, manager);

      const payer = command.payerId
        ? command.payerData
          ? await this.payers.completeWithin(manager, caller, command.payerId, command.payerData)
          : // Creating an instrument takes the payer for update; taking it for key share first and
            // upgrading later would deadlock two such creations for one payer. So: update at once.
            await this.payers.loadVisible(
              caller,
              command.payerId,
              manager,
              command.paymentInstrumentData && !command.paymentInstrumentId ? 'update' : 'share',
            )
        : await this.payers.createWithin(manager, caller, { ...command.payerData, merchantId });
      if (payer.snapshot().merchantId !== merchantId) throw new DomainError('PAYER_NOT_FOUND');

      const paymentInstrumentId = await this.instrumentFor(manager, caller, command, payer.id, country);
      const now = new Date();
      const intent = PaymentIntent.create({
        paymentIntentId,
        businessId: caller.businessId,
        merchantId,
        payerId: payer.id,
        paymentInstrumentId,
        countryId: country.countryId,
        origin: 'API',
        payinType: command.payinType,
        currency: command.currency,
        amount: amount.minor,
        tipAmount: tip.minor,
        vatRateBp,
        externalReference: command.externalReference,
        externalInvoiceId: String(command.invoiceNumber),
        invoiceNumber: command.invoiceNumber,
        invoiceEmail: payer.snapshot().email,
        description: command.description ?? null,
        receiptEmail: payer.snapshot().email,
        setupFutureUsage: command.setupFutureUsage ?? false,
        offSession: command.offSession,
        confirmationMethod: command.confirm ? 'AUTOMATIC' : 'MANUAL',
        metadata: command.metadata ?? null,
        linkId: null,
        preferredPaymentMethod: null,
        preferredInstrumentType: null,
        additionalInfo: null,
        createdAt: now,
      });
      let payinId: string | null = null;
      if (command.confirm && paymentInstrumentId) {
        const processor = await this.processorForInstrument(manager, intent, paymentInstrumentId, caller);
        intent.startOffSessionCharge(now);
        await this.intents.insert(manager, intent);
        payinId = crypto.randomUUID();
        const payin = await this.parties.newAttempt(manager, intent, processor, 'MERCHANT', payinId, now);
        await this.ledger.insert(manager, payin);
      } else {
        await this.intents.insert(manager, intent);
      }
      return { intent, payinId };
    }).catch(async (error: unknown) => {
      // The same operation committed meanwhile (a retry racing its own first attempt).
      if (isUniqueViolation(error, 'payment_intent_pkey')) return { intent: (await this.resume(caller, paymentIntentId))!, payinId: null };
      throw error;
    });
    if (!created.payinId) return created.intent;
    await this.attempts.chargeOffSession(created.payinId);
    return (await this.intents.findById(this.dataSource.manager, created.intent.id)) ?? created.intent;
  }

  /**
   * An intent this operation already committed, carried on: an off-session
   * charge whose answer was never recorded is sent again (the gateway answers
   * a repeated charge with its first outcome).
   */
  private async resume(caller: Caller, paymentIntentId: string): Promise<PaymentIntent | null> {
    if (!(await this.intents.findById(this.dataSource.manager, paymentIntentId))) return null;
    const intent = await this.intents.getVisible(this.dataSource.manager, caller, paymentIntentId);
    const charge = await this.ledger.openOffSessionCharge(this.dataSource.manager, intent.id);
    if (!charge) return intent;
    await this.attempts.chargeOffSession(charge.id);
    return (await this.intents.findById(this.dataSource.manager, intent.id)) ?? intent;
  }

  /**
   * Operation 18. The merchant is the one whose configuration has this
   * shortName with fast payments enabled (and that the caller may act for);
   * VAT is the merchant's configured rate for the country, else the country's
   * default (specification, rule 2).
   */
  async createFast(caller: Caller, command: FastPaymentIntentCommand, operationId?: string): Promise<PaymentIntent> {
    const earlier = operationId && (await this.resume(caller, operationId));
    if (earlier) return earlier;
    const paymentIntentId = operationId ?? crypto.randomUUID();
    const merchantId = await this.configurations.fastPaymentMerchantId(command.merchantShortName);
    if (!merchantId) throw new DomainError('FAST_PAYMENTS_NOT_ENABLED');
    const merchant = await this.merchants.load(caller, merchantId).catch((error: unknown) => {
      throw error instanceof DomainError && error.code === 'MERCHANT_NOT_FOUND' ? new DomainError('FAST_PAYMENTS_NOT_ENABLED') : error;
    });
    merchant.assertCanCollect();
    const country = await this.countryAccepting(command.countryCode, command.currency);
    const amount = money('amount', command.amount, command.currency);
    const vatRateBp = await this.vatRate(merchantId, country, undefined);
    const intent = PaymentIntent.create({
      paymentIntentId,
      businessId: caller.businessId,
      merchantId,
      payerId: null,
      paymentInstrumentId: null,
      countryId: country.countryId,
      origin: 'FAST',
      payinType: PayinType.DEFAULT,
      currency: command.currency,
      amount: amount.minor,
      tipAmount: 0,
      vatRateBp,
      externalReference: null,
      externalInvoiceId: null,
      invoiceNumber: null,
      invoiceEmail: null,
      description: command.comment ?? null,
      receiptEmail: (command.paymentIntentAdditionalInfo?.payerInfo as { email?: string } | undefined)?.email ?? null,
      setupFutureUsage: false,
      offSession: false,
      confirmationMethod: 'MANUAL',
      metadata: null,
      linkId: null,
      preferredPaymentMethod: command.paymentMethodName ?? null,
      preferredInstrumentType: command.paymentInstrumentTypeName ?? null,
      additionalInfo: command.paymentIntentAdditionalInfo ?? null,
      createdAt: new Date(),
    });
    if ((command.paymentMethodName || command.paymentInstrumentTypeName) && (await this.available.of(intent)).length === 0) {
      const method = [command.paymentMethodName, command.paymentInstrumentTypeName].filter(Boolean).join(' ');
      throw new DomainError('PAYMENT_METHOD_NOT_AVAILABLE', `the merchant has no active processor for ${method} in ${country.iso3}`, {
        method,
        country: country.iso3,
      });
    }
    try {
      await this.intents.insert(this.dataSource.manager, intent);
    } catch (error) {
      if (isUniqueViolation(error, 'payment_intent_pkey')) return (await this.resume(caller, paymentIntentId))!;
      throw error;
    }
    return intent;
  }

  private async countryAccepting(iso3: string, currency: Currency): Promise<Country> {
    const country = await this.catalog.findCountryByIso3(iso3);
    if (!country) throw new InvalidRequestError(['country'], `${iso3} is not a supported country`);
    if (!country.currencies.includes(currency))
      throw new DomainError('CURRENCY_NOT_ACCEPTED', undefined, { currency, country: country.iso3 });
    return country;
  }

  /** The request's VAT if given, else the merchant's for the country, else the country's default; always one the country allows. */
  private async vatRate(merchantId: string, country: Country, requested: number | undefined, manager?: EntityManager): Promise<number> {
    let rate: number | null;
    if (requested !== undefined) {
      rate = vatPercentageToBasisPoints(requested);
    } else {
      rate = (await this.configurations.vatRateFor(merchantId, country.countryId, manager)) ?? country.defaultVatRateBp;
    }
    if (rate === null || !country.vatRatesBp.includes(rate)) {
      throw new DomainError('VAT_RATE_NOT_ALLOWED', undefined, {
        vat: String(requested ?? ''),
        country: country.iso3,
        allowed: country.vatRatesBp.map(basisPointsToVatPercentage).join(', '),
      });
    }
    return rate;
  }

  private async instrumentFor(
    manager: EntityManager,
    caller: Caller,
    command: CreatePaymentIntentCommand,
    payerId: string,
    country: Country,
  ): Promise<string | null> {
    if (command.paymentInstrumentId) {
      const instrument = await this.instruments.loadVisible(caller, command.paymentInstrumentId, manager);
      const i = instrument.snapshot();
      if (i.payerId !== payerId || !i.active) throw new DomainError('PAYMENT_INSTRUMENT_NOT_FOUND');
      return instrument.id;
    }
    const data = command.paymentInstrumentData;
    if (!data) return null;
    const countries: string[] = [];
    for (const id of data.countries ?? []) {
      const c = await this.catalog.findCountryById(id);
      if (!c)
        throw new InvalidRequestError(
          ['paymentInstrumentData.countries'],
          `paymentInstrumentData.countries: ${id} is not a known country id`,
        );
      countries.push(c.iso3);
    }
    const view = await this.instruments.createWithin(manager, caller, {
      payerId,
      paymentMethodName: data.paymentMethodName,
      paymentInstrumentTypeName: data.paymentInstrumentTypeName,
      countries: countries.length ? countries : undefined,
      metadata: data.metadata,
      country: country.iso3,
    });
    return view.instrument.id;
  }

  private async processorForInstrument(manager: EntityManager, intent: PaymentIntent, paymentInstrumentId: string, caller: Caller) {
    const instrument = (await this.instruments.loadVisible(caller, paymentInstrumentId, manager)).snapshot();
    const processor = (await this.available.of(intent, manager)).find(
      (p) =>
        p.paymentMethod.paymentMethodId === instrument.paymentMethodId &&
        (!instrument.paymentInstrumentTypeId || p.paymentInstrumentType.paymentInstrumentTypeId === instrument.paymentInstrumentTypeId),
    );
    if (!processor) {
      throw new DomainError(
        'PAYMENT_METHOD_NOT_AVAILABLE',
        `the merchant has no active processor for this instrument in ${intent.snapshot().currency}`,
        {
          method: 'the instrument',
          country: 'this country',
        },
      );
    }
    return processor;
  }
}
