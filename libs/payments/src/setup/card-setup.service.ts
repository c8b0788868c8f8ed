/*
 * Why one file: a card setup from its start to the kept card (the methods a page offers at each processor, the
 * sandbox's fields or a processor's token, the instrument and the completion hooks in one transaction).
 */
import { Injectable } from '@nestjs/common';
import { CatalogService, CountryProcessor } from '@pcs/catalog';
import {
  AuthorizesRecurringPix,
  authorizesRecurringPix,
  CardFields,
  CardHolder,
  CardNotSavedError,
  GatewayRouting,
  PaymentGateway,
  SANDBOX,
  sandboxSavedCardToken,
  savesCards,
} from '@pcs/gateways';
import { asPayerId, Caller, DomainError, MerchantId, PayerId, tenantScope, Transaction, UnitOfWork } from '@pcs/kernel';
import { MerchantAccess, MerchantCountryProcessorService, MerchantService } from '@pcs/merchants';
import { PayerService } from '@pcs/payers';
import { PaymentInstrumentService, paymentInstrumentRepresentation, PixAuthorisationKept, PixMandateTerms } from '@pcs/payment-instruments';
import * as crypto from 'node:crypto';
import { CardSetup } from './card-setup';
import { CardSetupRepository } from './card-setup.repository';

/** The instrument types a setup saves. */
const CARD_TYPES = new Set(['CREDIT_CARD', 'DEBIT_CARD']);

export interface StartSetup {
  readonly merchantId: MerchantId;
  readonly payerId: PayerId;
  readonly countryProcessorId?: string;
  readonly returnUrl: string;
  readonly subscriptionId?: string;
  /** A Pix Automático authorisation of these terms instead of a card (contract §31). */
  readonly pixAutomatico?: PixMandateTerms;
}

/** What the payer typed in the card fields: the parts a processor's fields answer, never the whole number or the code. */
export interface SetupCard {
  readonly countryProcessorId: string;
  readonly bin: string;
  readonly last4: string;
  readonly expMonth: number;
  readonly expYear: number;
}

/** A method the setup page offers: a card method of the merchant whose processor saves cards here. */
export interface SetupMethod {
  readonly countryProcessorId: string;
  readonly paymentMethod: string;
  readonly instrumentType: string;
  /** The processor's card fields (Mercado Pago's, dLocal's); null: the sandbox's own fields on our page. */
  readonly fields: CardFields | null;
}

/** What the processor's fields gave: its token for the card, for the processor whose fields made it. */
export interface SetupToken {
  readonly processor: string;
  readonly token: string;
}

/** Why a card the payer gave was not saved: the processor would not keep it, or it is a brand the merchant does not take. */
export type SetupRefusal = { readonly refused: 'cardNotSaved' | 'cardNotOffered' };

/** The card a setup keeps: where it is kept and what charges it, and the parts we may show. */
interface KeptCard {
  readonly processor: string;
  readonly externalId: string;
  readonly bin: string | null;
  readonly last4: string;
  readonly expMonth: number;
  readonly expYear: number;
}

export type SetupPage =
  | { readonly kind: 'GONE' }
  | { readonly kind: 'DONE'; readonly setup: CardSetup; readonly merchantName: string }
  | { readonly kind: 'FORM'; readonly setup: CardSetup; readonly merchantName: string; readonly methods: readonly SetupMethod[] }
  /** A Pix Automático authorisation to give (contract §31): its terms, and whether one asked for is waiting for the payer. */
  | { readonly kind: 'PIX'; readonly setup: CardSetup; readonly merchantName: string; readonly mandate: PixMandateTerms };

/** Run in the completing transaction (dunning's: the new card becomes the subscription's and pays its open invoices). */
export type SetupCompletion = (tx: Transaction, setup: CardSetup, paymentInstrumentId: string, now: Date) => Promise<void>;

/**
 * Saving a card without charging it (contract §31): a setup is a hosted page of ours where the payer's card goes to
 * the processor's own fields and comes back as the processor's token with the parts that may be kept (brand, BIN,
 * last four, expiry): the sandbox's own fields, or the fields of the processor that keeps the card (SavesCards: Mercado
 * Pago's Secure Fields), which tokenize it in the payer's browser. Completing it makes a new instrument of the payer,
 * validated, and records `payment_instrument.created`, in one transaction with whatever a completion hook adds.
 */
@Injectable()
export class CardSetupService {
  private readonly completions: SetupCompletion[] = [];

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly setups: CardSetupRepository,
    private readonly access: MerchantAccess,
    private readonly merchants: MerchantService,
    private readonly processors: MerchantCountryProcessorService,
    private readonly catalog: CatalogService,
    private readonly routing: GatewayRouting,
    private readonly payers: PayerService,
    private readonly instruments: PaymentInstrumentService,
  ) {}

  /** Another context's step in every completion (registered once, at start-up). */
  onCompleted(completion: SetupCompletion): void {
    this.completions.push(completion);
  }

  async start(caller: Caller, request: StartSetup, operationId?: string): Promise<CardSetup> {
    if (operationId) {
      const earlier = await this.setups.find(this.unitOfWork.outside, operationId, tenantScope(caller));
      if (earlier) return earlier;
    }
    const merchant = await this.access.loadVisible(caller, request.merchantId);
    merchant.assertCanCollect();
    const payer = (await this.payers.loadVisible(caller, request.payerId)).snapshot();
    if (payer.merchantId !== merchant.id) throw new DomainError('PAYER_NOT_FOUND');
    if (request.pixAutomatico) await this.pixMethodOrRefuse(merchant.id, request.countryProcessorId ?? null);
    else await this.methodsOrRefuse(merchant.id, request.countryProcessorId ?? null);
    return this.unitOfWork.run((tx) => this.openWithin(tx, caller, request, operationId));
  }

  /** A setup opened in the caller's transaction (dunning's, by the billing context), its checks made by the caller. */
  async openWithin(tx: Transaction, caller: Pick<Caller, 'businessId'>, request: StartSetup, setupId?: string): Promise<CardSetup> {
    const setup = CardSetup.open({
      setupId: setupId ?? crypto.randomUUID(),
      businessId: caller.businessId,
      merchantId: request.merchantId,
      payerId: request.payerId,
      countryProcessorId: request.countryProcessorId ?? null,
      returnUrl: request.returnUrl,
      subscriptionId: request.subscriptionId ?? null,
      pixMandate: request.pixAutomatico ?? null,
      createdAt: new Date(),
    });
    await this.setups.insert(tx, setup);
    return setup;
  }

  async get(caller: Caller, setupId: string): Promise<CardSetup> {
    const setup = await this.setups.find(this.unitOfWork.outside, setupId, tenantScope(caller));
    if (!setup) throw new DomainError('CARD_SETUP_NOT_FOUND');
    return setup;
  }

  /** The payer's page: its form while open, its end once completed, nothing once expired or unknown. */
  async page(setupId: string): Promise<SetupPage> {
    const setup = await this.setups.find(this.unitOfWork.outside, setupId, null);
    const state = setup?.stateAt(new Date());
    if (!setup || state === 'EXPIRED') return { kind: 'GONE' };
    const s = setup.snapshot();
    const merchantName = (await this.merchants.findById(s.merchantId))?.merchantName ?? '';
    if (state === 'COMPLETED') return { kind: 'DONE', setup, merchantName };
    if (s.pixMandate) return { kind: 'PIX', setup, merchantName, mandate: s.pixMandate };
    return { kind: 'FORM', setup, merchantName, methods: await this.methods(s.merchantId, s.countryProcessorId) };
  }

  /**
   * The card the payer's fields gave: a new instrument of the payer, the setup completed, the event and the
   * completion hooks, in one transaction with the setup locked (a second submission finds it completed).
   */
  async complete(setupId: string, card: SetupCard): Promise<CardSetup | null> {
    const pending = await this.openSetup(setupId);
    if (!pending) return null;
    const s = pending.snapshot();
    const method = (await this.methods(s.merchantId, s.countryProcessorId)).find(
      (m) => m.countryProcessorId === card.countryProcessorId && m.fields === null,
    );
    if (!method) return null;
    // The sandbox's token for the card, as its fields answer it.
    return this.keep(pending, method, { processor: SANDBOX, externalId: sandboxSavedCardToken(card.last4), ...card });
  }

  /**
   * The token a processor's fields gave (contract §31): the processor saves the card for the payer (its customer of
   * the payer's e-mail) and answers its parts; the card becomes the payer's instrument of the method its brand is, at
   * that processor. Refused: the processor would not keep it, or the merchant takes no such card there.
   */
  async completeWithToken(setupId: string, given: SetupToken): Promise<CardSetup | SetupRefusal | null> {
    const pending = await this.openSetup(setupId);
    if (!pending) return null;
    const s = pending.snapshot();
    const methods = (await this.methods(s.merchantId, s.countryProcessorId)).filter((m) => m.fields?.processor === given.processor);
    const gateway = methods.length > 0 ? this.routing.gatewayNamed(given.processor) : null;
    if (!gateway || !savesCards(gateway)) return null;
    const holder = await this.holderOf(pending);
    if (!holder) return null;
    let saved;
    try {
      saved = await gateway.saveCard(s.merchantId, holder, given.token);
    } catch (error) {
      if (error instanceof CardNotSavedError) return { refused: 'cardNotSaved' };
      throw error;
    }
    const method =
      methods.find((m) => m.paymentMethod === saved.paymentMethod && m.instrumentType === saved.instrumentType) ??
      methods.find((m) => m.paymentMethod === saved.paymentMethod);
    if (!method) return { refused: 'cardNotOffered' };
    return this.keep(pending, method, { processor: gateway.name, externalId: saved.reference, ...saved });
  }

  /** The setup while it is open (a completed or expired one takes no card). */
  private async openSetup(setupId: string): Promise<CardSetup | null> {
    const pending = await this.setups.find(this.unitOfWork.outside, setupId, null);
    return pending && pending.stateAt(new Date()) === 'OPEN' ? pending : null;
  }

  /**
   * The card kept as a new instrument of the payer, the setup completed, the event and the completion hooks, in one
   * transaction with the setup locked (a second submission finds it completed).
   */
  async keep(
    pending: CardSetup,
    method: Pick<SetupMethod, 'paymentMethod' | 'instrumentType'>,
    card: KeptCard | PixAuthorisationKept,
  ): Promise<CardSetup | null> {
    const s = pending.snapshot();
    const setupId = pending.id;
    const country = await this.merchantCountry(s.merchantId);
    const caller: Caller = { credentialId: 'card-setup', businessId: s.businessId, merchantId: s.merchantId };
    return this.unitOfWork.run(async (tx) => {
      const setup = await this.setups.find(tx, setupId, null, true);
      const now = new Date();
      if (!setup || setup.stateAt(now) !== 'OPEN') return null;
      const view = await this.instruments.createWithin(
        tx,
        caller,
        {
          payerId: asPayerId(s.payerId),
          paymentMethodName: method.paymentMethod,
          paymentInstrumentTypeName: method.instrumentType,
          country: country.iso3,
        },
        'mandate' in card
          ? card
          : {
              processor: card.processor,
              externalId: card.externalId,
              brand: method.paymentMethod,
              bin: card.bin,
              last4: card.last4,
              expMonth: card.expMonth,
              expYear: card.expYear,
            },
      );
      const paymentInstrumentId = view.instrument.id;
      setup.complete(paymentInstrumentId, now);
      await this.setups.completed(tx, setup, paymentInstrumentRepresentation(view));
      for (const completion of this.completions) await completion(tx, setup, paymentInstrumentId, now);
      return setup;
    });
  }

  /** Whether a setup page of the merchant would offer a method (a dunning mail links to one only then). */
  async savesCards(merchantId: MerchantId, tx?: Transaction): Promise<boolean> {
    return (await this.methods(merchantId, null, tx)).length > 0;
  }

  /** The methods a setup offers, refused at its start when there is none (or the one named is not one). */
  private async methodsOrRefuse(merchantId: MerchantId, countryProcessorId: string | null): Promise<void> {
    if (countryProcessorId) {
      const offered = (await this.processors.offeredCountryProcessors(merchantId)).find((p) => p.countryProcessorId === countryProcessorId);
      if (!offered) throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE');
      const gateway = await this.routing.gatewayFor(merchantId, offered);
      const fields = CARD_TYPES.has(offered.paymentInstrumentType.name)
        ? await this.fieldsOf(merchantId, offered.country.iso3, gateway)
        : undefined;
      if (fields === undefined) throw new DomainError('OFF_SESSION_NOT_SUPPORTED', undefined, { provider: gateway.displayName });
      return;
    }
    if ((await this.methods(merchantId, null)).length === 0)
      throw new DomainError('PAYMENT_METHOD_NOT_AVAILABLE', 'the merchant has no card method whose processor saves cards here', {
        method: 'a card',
        country: 'the merchant’s country',
      });
  }

  /**
   * The merchant's Pix Automático method (contract §31): a PIX method in its country (Brazil) whose processor takes
   * recurring PIX authorisations; the one named, when one is. Null when there is none.
   */
  async pixMethod(
    merchantId: MerchantId,
    countryProcessorId: string | null,
    tx?: Transaction,
  ): Promise<{ readonly method: SetupMethod; readonly gateway: PaymentGateway & AuthorizesRecurringPix } | null> {
    const country = await this.merchantCountry(merchantId, tx);
    for (const p of await this.processors.offeredCountryProcessors(merchantId, tx)) {
      if (p.country.countryId !== country.countryId || p.paymentInstrumentType.name !== 'PIX') continue;
      if (countryProcessorId && p.countryProcessorId !== countryProcessorId) continue;
      const gateway = await this.routing.gatewayFor(merchantId, p, tx);
      if (!authorizesRecurringPix(gateway)) continue;
      return {
        method: { countryProcessorId: p.countryProcessorId, paymentMethod: p.paymentMethod.name, instrumentType: 'PIX', fields: null },
        gateway,
      };
    }
    return null;
  }

  private async pixMethodOrRefuse(merchantId: MerchantId, countryProcessorId: string | null): Promise<void> {
    if (!(await this.pixMethod(merchantId, countryProcessorId)))
      throw new DomainError('PAYMENT_METHOD_NOT_AVAILABLE', 'the merchant has no PIX method whose processor takes Pix Automático', {
        method: 'Pix Automático',
        country: 'the merchant’s country',
      });
  }

  /** The payer a card or an authorisation is kept for, as a processor names them. */
  async holderOf(setup: CardSetup): Promise<CardHolder | null> {
    const s = setup.snapshot();
    const payer = await this.payers.findById(s.payerId);
    if (!payer) return null;
    const country = await this.merchantCountry(s.merchantId);
    const name = [payer.firstName, payer.lastName].filter((part) => part && part.trim()).join(' ');
    return {
      payerId: s.payerId,
      email: payer.email ?? null,
      name: name || null,
      document: payer.documentNumber ?? null,
      documentType: payer.documentType ?? null,
      country: country.iso3,
    };
  }

  /** Inside a transaction, pass it (a second connection taken while one is held starves the pool). */
  private async methods(merchantId: MerchantId, countryProcessorId: string | null, tx?: Transaction): Promise<SetupMethod[]> {
    const country = await this.merchantCountry(merchantId, tx);
    const offered = (await this.processors.offeredCountryProcessors(merchantId, tx)).filter(
      (p: CountryProcessor) =>
        p.country.countryId === country.countryId &&
        CARD_TYPES.has(p.paymentInstrumentType.name) &&
        (!countryProcessorId || p.countryProcessorId === countryProcessorId),
    );
    const methods: SetupMethod[] = [];
    for (const p of offered) {
      const fields = await this.fieldsOf(merchantId, country.iso3, await this.routing.gatewayFor(merchantId, p, tx), tx);
      if (fields === undefined) continue;
      methods.push({
        countryProcessorId: p.countryProcessorId,
        paymentMethod: p.paymentMethod.name,
        instrumentType: p.paymentInstrumentType.name,
        fields,
      });
    }
    return methods;
  }

  /** The fields a gateway saves cards with for the merchant: the sandbox's own (null), a processor's, or none (undefined). */
  private async fieldsOf(
    merchantId: MerchantId,
    country: string,
    gateway: PaymentGateway,
    tx?: Transaction,
  ): Promise<CardFields | null | undefined> {
    if (gateway.name === SANDBOX) return null;
    if (!savesCards(gateway)) return undefined;
    return (await gateway.cardFields(merchantId, country, tx)) ?? undefined;
  }

  private async merchantCountry(merchantId: MerchantId, tx?: Transaction) {
    const merchant = await this.merchants.findById(merchantId, tx);
    const country = merchant && (await this.catalog.findCountryById(merchant.countryId));
    if (!country) throw new DomainError('MERCHANT_NOT_FOUND');
    return country;
  }
}
