/*
 * Why one file: every creation of an intent (operations 17, 18, 24, fast payments, off-session charges) under
 * one set of rules and the one statement that writes an intent with its events.
 */
import { Injectable } from '@nestjs/common';
import { ChargesOffSession, chargesOffSession, GatewayRouting, PaymentGateway, savesCards } from '@pcs/gateways';
import { CatalogService, Country } from '@pcs/catalog';
import {
  Caller,
  DomainError,
  InvalidRequestError,
  MerchantId,
  Money,
  PayerId,
  PayinType,
  PaymentInstrumentId,
  PaymentIntentId,
  Transaction,
  UnitOfWork,
} from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { PayerRequest, PayerService } from '@pcs/payers';
import { Payin } from '../domain/payin';
import { PaymentInstrumentService } from '@pcs/payment-instruments';
import type { PaymentInstrumentProps, PixMandateTerms } from '@pcs/payment-instruments';
import { PricingService } from '@pcs/settlement';
import * as crypto from 'node:crypto';
import { PaymentIntent } from '../domain/payment-intent';
import { AvailableProcessorsService } from '../available-processors.service';
import { PaymentAttemptParties } from '../attempts/payment-attempt-parties';
import { PaymentAttemptsService } from '../attempts/payment-attempts.service';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { CreationRules } from './creation-rules';
import { apiIntent } from '../domain/payment-intent-origins';
import { PayinRepository } from '../ledger/payin.repository';
import { InstallmentQuotesService } from '../installments/installment-quotes.service';

export interface PaymentInstrumentData {
  paymentInstrumentTypeName?: string;
  paymentMethodName: string;
  /** Country ids (uuid) where the instrument may be used. */
  countries?: string[];
  metadata?: Record<string, unknown>;
  merchantId?: MerchantId;
}

/** Operation 17's request, syntax checked and amounts read at the edge (Money, in the request's currency). */
/**
 * A charge asked for ahead of its billing date (Pix Automático, contract §31): the date, and for a retry the intent
 * whose charge's attempt failed (the processor retries that payment). Kept in the intent's metadata: a charge sent again
 * (a lost answer, a crash) asks the same.
 */
export interface ScheduledCharge {
  readonly date: string;
  readonly retryOfPaymentIntentId: string | null;
}

export interface CreatePaymentIntentCommand {
  /** Gross, VAT included, tip excluded. */
  amount: Money;
  payinType: PayinType;
  externalReference: string;
  payerId?: PayerId;
  offSession: boolean;
  invoiceNumber: number;
  country: string;
  merchantId?: MerchantId;
  paymentInstrumentId?: PaymentInstrumentId;
  paymentInstrumentData?: PaymentInstrumentData;
  confirm?: boolean;
  /** With confirm: the installments the saved instrument is charged in (contract §25). */
  installments?: number;
  /** With confirm, the payer present: the processor's token of the saved card with its security code (contract §31). */
  cardToken?: string;
  payerData?: PayerRequest;
  setupFutureUsage?: boolean;
  metadata?: { limitIssuers?: string[]; scheduledCharge?: ScheduledCharge };
  description?: string;
  tipAmount?: Money;
  vatPercentage?: number;
}

/** What a creation resolved before the intent is built: its id, merchant, country and VAT, the tip, the payer and the instrument. */
interface ResolvedCreation {
  readonly paymentIntentId: PaymentIntentId;
  readonly merchantId: MerchantId;
  readonly country: Country;
  readonly vatRateBp: number;
  readonly tip: Money;
  readonly payer: { readonly payerId: PayerId; readonly email: string | null };
  readonly paymentInstrumentId: PaymentInstrumentId | null;
  readonly now: Date;
}

@Injectable()
export class PaymentIntentCreationService {
  constructor(
    private readonly routing: GatewayRouting,
    private readonly unitOfWork: UnitOfWork,
    private readonly merchants: MerchantService,
    private readonly catalog: CatalogService,
    private readonly payers: PayerService,
    private readonly instruments: PaymentInstrumentService,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinRepository,
    private readonly attempts: PaymentAttemptsService,
    private readonly parties: PaymentAttemptParties,
    private readonly available: AvailableProcessorsService,
    private readonly rules: CreationRules,
    private readonly pricing: PricingService,
    private readonly installments: InstallmentQuotesService,
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
    if (command.installments !== undefined && command.installments > 1 && !command.confirm)
      throw new InvalidRequestError(['installments'], 'installments go with confirm: the saved instrument is charged in them');
    if (command.cardToken !== undefined && (!command.confirm || !command.paymentInstrumentId || command.offSession))
      throw new InvalidRequestError(
        ['cardToken'],
        'cardToken goes with confirm, a paymentInstrumentId and offSession false: the payer present gives the saved card’s code',
      );
    return this.rules.once(
      operationId,
      (paymentIntentId) => this.rules.resume(caller, paymentIntentId),
      (paymentIntentId) => this.write(caller, command, paymentIntentId),
    );
  }

  private async write(caller: Caller, command: CreatePaymentIntentCommand, paymentIntentId: PaymentIntentId): Promise<PaymentIntent> {
    const { amount } = command;
    const tip = command.tipAmount ?? Money.zero(amount.currency);
    const country = await this.rules.countryAccepting(command.country, amount.currency);
    PaymentIntent.assertWithinLimit(amount, tip, 'tipAmount');

    if (command.payerId && !command.payerData && !command.paymentInstrumentId && !command.paymentInstrumentData && !command.confirm) {
      return this.createForExistingPayer(caller, command, command.payerId, paymentIntentId, country, tip);
    }
    // The merchant and its VAT rates from memory (the change feed keeps them fresh), before the transaction: read inside
    // it they could not be kept (what a transaction reads may be its own), and a status changing meanwhile races either way.
    const merchant = await this.merchants.resolve(caller, command.merchantId ?? command.paymentInstrumentData?.merchantId);
    const merchantId = merchant.id;
    merchant.assertCanCollect();
    const vatRateBp = await this.rules.vatRate(merchantId, country, command.vatPercentage);
    if (command.confirm && command.paymentInstrumentId && command.payerId && !command.payerData) {
      const charged = await this.chargeSavedInstrument(caller, command, command.payerId, command.paymentInstrumentId, {
        paymentIntentId,
        merchantId,
        country,
        vatRateBp,
        tip,
      });
      if (charged) return charged;
    }
    const created = await this.unitOfWork.run(async (tx) => {
      const payer = command.payerId
        ? command.payerData
          ? await this.payers.completeWithin(tx, caller, command.payerId, command.payerData)
          : // Creating an instrument takes the payer for update; taking it for key share first and
            // upgrading later would deadlock two such creations for one payer. So: update at once.
            await this.payers.loadVisible(
              caller,
              command.payerId,
              tx,
              command.paymentInstrumentData && !command.paymentInstrumentId ? 'update' : 'share',
            )
        : await this.payers.createWithin(tx, caller, { ...command.payerData, merchantId });
      if (payer.snapshot().merchantId !== merchantId) throw new DomainError('PAYER_NOT_FOUND');

      const instrument = await this.instrumentFor(tx, caller, command, payer.id, country);
      const paymentInstrumentId = instrument?.paymentInstrumentId ?? null;
      const now = new Date();
      const intent = this.newIntent(caller, command, {
        paymentIntentId,
        merchantId,
        country,
        vatRateBp,
        tip,
        payer: { payerId: payer.id, email: payer.snapshot().email },
        paymentInstrumentId,
        now,
      });
      const attempt = command.confirm && instrument ? await this.openCharge(tx, command, intent, instrument, payer.snapshot(), now) : null;
      await this.intents.insert(tx, intent);
      if (attempt) await this.ledger.insert(tx, attempt);
      return { intent, attempt, instrumentToken: instrument?.externalId ?? null, storedAt: instrument?.processor ?? null };
    });
    if (!created.attempt) return created.intent;
    const charged = await this.attempts.chargeOffSession(created.attempt.id, {
      payin: created.attempt,
      instrumentToken: created.instrumentToken,
      storedAt: created.storedAt,
      cardToken: command.cardToken,
    });
    // The intent as the charge's outcome left it; read only when no outcome was applied here (no answer, or another got there first).
    return charged ?? (await this.intents.findById(this.unitOfWork.outside, created.intent.id)) ?? created.intent;
  }

  /**
   * A confirmed creation that charges a saved instrument of an existing payer
   * (the path repeat payments take) without a transaction around its reads:
   * the payer and the instrument are read as any creation reads them; one
   * statement writes the intent, its attempt and their events only if the
   * payer is still there and the instrument still the payer's and active
   * (both taken for key share in it, as the general path's transaction holds
   * them); after the processor's answer, one statement applies it while
   * neither row has changed (chargeOffSession). The rules are the general
   * path's (openCharge). Null when the requirement failed (nothing written):
   * the general path then runs and says precisely what changed.
   */
  private async chargeSavedInstrument(
    caller: Caller,
    command: CreatePaymentIntentCommand,
    payerId: PayerId,
    paymentInstrumentId: PaymentInstrumentId,
    resolved: Omit<ResolvedCreation, 'payer' | 'paymentInstrumentId' | 'now'>,
  ): Promise<PaymentIntent | null> {
    const outside = this.unitOfWork.outside;
    // Both read at once; the payer's refusal comes first, as in the general path.
    const [payerRead, instrumentRead] = await Promise.allSettled([
      this.payers.loadVisible(caller, payerId),
      this.instruments.loadOfHeldPayer(caller, paymentInstrumentId, payerId, outside),
    ]);
    if (payerRead.status === 'rejected') throw payerRead.reason;
    const payer = payerRead.value.snapshot();
    if (payer.merchantId !== resolved.merchantId) throw new DomainError('PAYER_NOT_FOUND');
    if (instrumentRead.status === 'rejected') throw instrumentRead.reason;
    const instrument = instrumentRead.value.snapshot();
    if (!instrument.active) throw new DomainError('PAYMENT_INSTRUMENT_NOT_FOUND');
    const now = new Date();
    const intent = this.newIntent(caller, command, { ...resolved, payer: { payerId, email: payer.email }, paymentInstrumentId, now });
    const attempt = await this.openCharge(outside, command, intent, instrument, payer, now);
    const writtenIn = await this.intents.recordCharged(outside, intent, attempt, [
      this.payers.whileLive(payerId),
      this.instruments.whileActive(paymentInstrumentId, payerId),
    ]);
    if (writtenIn === null) return null;
    const charged = await this.attempts.chargeOffSession(attempt.id, {
      payin: attempt,
      instrumentToken: instrument.externalId,
      storedAt: instrument.processor,
      charge: { intent, payin: attempt, writtenIn, instrument },
      cardToken: command.cardToken,
    });
    return charged ?? (await this.intents.findById(outside, intent.id)) ?? intent;
  }

  /**
   * The off-session charge of a confirmed creation, decided before anything
   * is written: the processor that charges the instrument, the merchant's
   * minimum, a gateway that charges saved instruments (Mercado Pago and
   * dLocal do not here), the installment plan of the merchant's offer
   * (contract §25); the intent starts its charge and its PENDING attempt is
   * made (not written).
   */
  private async openCharge(
    tx: Transaction,
    command: CreatePaymentIntentCommand,
    intent: PaymentIntent,
    instrument: Readonly<PaymentInstrumentProps>,
    payer: { readonly firstName: string | null; readonly lastName: string | null },
    now: Date,
  ): Promise<Payin> {
    const { merchantId } = intent.snapshot();
    const processor = await this.processorForInstrument(tx, intent, instrument);
    await this.pricing.assertAboveMinimum(merchantId, processor, intent.total, tx);
    const gateway = await this.chargingGateway(merchantId, processor, instrument, tx, command.cardToken !== undefined);
    if (command.installments !== undefined && command.installments > 1)
      await this.installments.offerFor(merchantId, processor, gateway, intent.total, command.installments, tx);
    intent.startOffSessionCharge(now);
    const fundsFlow = await gateway.fundsFlowOf(merchantId, tx);
    // The attempt is the charging gateway's (a saved instrument's processor, whatever the routing says): its notifications,
    // reconciliation and the books find it there.
    const charging = processor.gateway === gateway.name ? processor : { ...processor, gateway: gateway.name };
    return this.parties.newAttempt(tx, intent, charging, fundsFlow, 'MERCHANT', crypto.randomUUID(), now, payer, command.installments);
  }

  /**
   * Whether a saved instrument of the payer can be charged off-session for `amount` in the merchant's country
   * (contract §31: a subscription is refused at creation what its charges would be): the instrument active and the
   * payer's, a processor of the merchant for its method, a gateway that charges saved instruments, the processor's
   * minimum. Answers that gateway's name, how payers know it, and when the instrument's card expires (null: unknown).
   */
  async assertChargeable(
    caller: Caller,
    charge: {
      readonly merchantId: MerchantId;
      readonly payerId: PayerId;
      readonly paymentInstrumentId: PaymentInstrumentId;
      readonly countryId: string;
      readonly amount: Money;
    },
  ): Promise<{
    readonly gateway: string;
    readonly displayName: string;
    readonly cardExpiresAt: Date | null;
    /** A Pix Automático authorisation's terms, which every charge must keep (contract §31); null for any other instrument. */
    readonly pixMandate: PixMandateTerms | null;
  }> {
    const held = await this.instruments.loadOfHeldPayer(caller, charge.paymentInstrumentId, charge.payerId, this.unitOfWork.outside);
    const instrument = held.snapshot();
    if (!instrument.active) throw new DomainError('PAYMENT_INSTRUMENT_NOT_FOUND');
    const processor = await this.available.forInstrument(charge.merchantId, charge.countryId, charge.amount.currency, instrument);
    if (!processor)
      throw new DomainError(
        'PAYMENT_METHOD_NOT_AVAILABLE',
        `the merchant has no active processor for this instrument in ${charge.amount.currency}`,
        {
          method: 'the instrument',
          country: 'this country',
        },
      );
    await this.pricing.assertAboveMinimum(charge.merchantId, processor, charge.amount);
    const gateway = await this.chargingGateway(charge.merchantId, processor, instrument);
    return {
      gateway: gateway.name,
      displayName: gateway.displayName,
      cardExpiresAt: held.cardExpiresAt,
      pixMandate: instrument.pixMandate,
    };
  }

  /**
   * The gateway that charges the instrument off-session, or the refusal: a gateway that charges no saved instrument
   * (400 OFF_SESSION_NOT_SUPPORTED), a processor that keeps cards asked to charge one it does not keep (the same: the
   * payer must pay at its checkout), or a merchant's account that may not charge without the payer (409
   * OFF_SESSION_NOT_AVAILABLE: Mercado Pago without automatic payments) when the payer is not present with the card's
   * code (`payerPresent`: a cardToken).
   */
  private async chargingGateway(
    merchantId: MerchantId,
    processor: Awaited<ReturnType<PaymentIntentCreationService['processorForInstrument']>>,
    instrument: Readonly<PaymentInstrumentProps>,
    tx?: Transaction,
    payerPresent = false,
  ): Promise<PaymentGateway & ChargesOffSession> {
    const gateway = await this.gatewayOfCharge(merchantId, processor, instrument, tx);
    if (!chargesOffSession(gateway) || (savesCards(gateway) && instrument.processor !== gateway.name))
      throw new DomainError('OFF_SESSION_NOT_SUPPORTED', undefined, { provider: gateway.displayName });
    // The payer present with the card's code (cardToken): no automatic payments needed.
    if (!payerPresent && !(await gateway.offSessionAvailable(merchantId, tx)))
      throw new DomainError('OFF_SESSION_NOT_AVAILABLE', undefined, { provider: gateway.displayName });
    return gateway;
  }

  /**
   * The gateway that charges a saved instrument: the processor that stores its card, whatever the merchant's routing
   * says now (contract §31: a saved card is charged only where it is kept); the routing's for any other instrument.
   */
  private async gatewayOfCharge(
    merchantId: MerchantId,
    processor: Awaited<ReturnType<PaymentIntentCreationService['processorForInstrument']>>,
    instrument: Readonly<PaymentInstrumentProps>,
    tx?: Transaction,
  ) {
    if (!instrument.processor) return this.routing.gatewayFor(merchantId, processor, tx);
    const stored = this.routing.gatewayNamed(instrument.processor);
    if (!stored)
      throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE', `no adapter for ${instrument.processor}, where the card is saved`);
    return stored;
  }

  /**
   * The common creation (an existing payer, no instrument, no charge) in two
   * round trips and no explicit transaction: the payer is read, then one
   * statement inserts the intent, its event and the event's dispatch job only
   * if the payer is still there, taking it for key share as the general path
   * does (a deletion of the payer waits for it, or it sees the payer gone).
   * The merchant and its VAT rates come from memory.
   */
  private async createForExistingPayer(
    caller: Caller,
    command: CreatePaymentIntentCommand,
    payerId: PayerId,
    paymentIntentId: PaymentIntentId,
    country: Country,
    tip: Money,
  ): Promise<PaymentIntent> {
    const merchant = await this.merchants.resolve(caller, command.merchantId);
    merchant.assertCanCollect();
    const vatRateBp = await this.rules.vatRate(merchant.id, country, command.vatPercentage);
    const payer = (await this.payers.loadVisible(caller, payerId)).snapshot();
    if (payer.merchantId !== merchant.id) throw new DomainError('PAYER_NOT_FOUND');
    const intent = this.newIntent(caller, command, {
      paymentIntentId,
      merchantId: merchant.id,
      country,
      vatRateBp,
      tip,
      payer: { payerId, email: payer.email },
      paymentInstrumentId: null,
      now: new Date(),
    });
    const written = await this.intents.recordWhile(this.unitOfWork.outside, intent, this.payers.whileLive(payerId));
    if (!written) throw new DomainError('PAYER_NOT_FOUND');
    return intent;
  }

  /** Operation 17's intent from the request and what the creation resolved for it. */
  private newIntent(caller: Caller, command: CreatePaymentIntentCommand, resolved: ResolvedCreation): PaymentIntent {
    const { paymentIntentId, merchantId, country, vatRateBp, tip, payer, paymentInstrumentId, now } = resolved;
    return apiIntent(
      {
        paymentIntentId,
        businessId: caller.businessId,
        merchantId,
        countryId: country.countryId,
        amount: command.amount,
        vatRateBp,
        createdAt: now,
      },
      {
        payinType: command.payinType,
        tip,
        payerId: payer.payerId,
        payerEmail: payer.email,
        paymentInstrumentId,
        externalReference: command.externalReference,
        invoiceNumber: command.invoiceNumber,
        description: command.description ?? null,
        setupFutureUsage: command.setupFutureUsage ?? false,
        offSession: command.offSession,
        confirm: command.confirm ?? false,
        metadata: command.metadata ?? null,
      },
    );
  }

  private async instrumentFor(
    tx: Transaction,
    caller: Caller,
    command: CreatePaymentIntentCommand,
    payerId: PayerId,
    country: Country,
  ): Promise<Readonly<PaymentInstrumentProps> | null> {
    if (command.paymentInstrumentId) {
      // The payer was loaded (visible, locked) in this transaction just before: not read again.
      const instrument = await this.instruments.loadOfHeldPayer(caller, command.paymentInstrumentId, payerId, tx);
      const i = instrument.snapshot();
      if (!i.active) throw new DomainError('PAYMENT_INSTRUMENT_NOT_FOUND');
      return i;
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
    const view = await this.instruments.createWithin(tx, caller, {
      payerId,
      paymentMethodName: data.paymentMethodName,
      paymentInstrumentTypeName: data.paymentInstrumentTypeName,
      countries: countries.length ? countries : undefined,
      metadata: data.metadata,
      country: country.iso3,
    });
    return view.instrument.snapshot();
  }

  /** The processor that charges the instrument (loaded by this creation, visible to the caller) for the intent. */
  private async processorForInstrument(tx: Transaction, intent: PaymentIntent, instrument: Readonly<PaymentInstrumentProps>) {
    const processor = (await this.available.of(intent, tx)).find(
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
