import { Injectable } from '@nestjs/common';
import { CatalogService } from '@pcs/catalog';
import {
  Caller,
  ChangeAlongside,
  DomainError,
  InvalidRequestError,
  MerchantId,
  narrowScope,
  newId,
  PayerId,
  PaymentInstrumentId,
  Precondition,
  tenantScope,
  Transaction,
  UnitOfWork,
} from '@pcs/kernel';
import { MerchantCountryProcessorService } from '@pcs/merchants';
import { PayerRequest, PayerService } from '@pcs/payers';
import { PaymentInstrument, PaymentInstrumentProps, PixMandateTerms } from './domain/payment-instrument';
import { PaymentInstrumentRepository } from './payment-instrument.repository';

export interface PaymentInstrumentRequest {
  payerId: PayerId;
  payerData?: PayerRequest;
  paymentMethodName: string;
  /** Narrows the processor when a method has several instrument types (VISA credit or debit). */
  paymentInstrumentTypeName?: string;
  /** ISO 3166 alpha-3 codes where the instrument may be used; defaults to `country`. */
  countries?: string[];
  metadata?: Record<string, unknown>;
  country: string;
}

/** A card a processor's fields saved (contract §31): its token there and what may be kept of it. */
export interface SavedCard {
  /** The processor that stores it (its gateway's name). */
  readonly processor: string;
  readonly externalId: string;
  readonly brand: string;
  /** Its first six digits, when the processor told them (dLocal's saved cards: the last four only). */
  readonly bin: string | null;
  readonly last4: string;
  readonly expMonth: number;
  readonly expYear: number;
}

/** A Pix Automático authorisation the payer gave (contract §31): its reference at the processor and its terms. */
export interface PixAuthorisationKept {
  readonly processor: string;
  readonly externalId: string;
  readonly mandate: PixMandateTerms;
}

/** An instrument as shown: the aggregate plus what the catalogue says of it. */
export interface PaymentInstrumentView {
  readonly instrument: PaymentInstrument;
  readonly paymentMethodName: string;
}

const MAX_LISTED = 100;

/** What a payment's outcome teaches an instrument: the gateway's token and masked card data, and whether it is now validated. */
export interface InstrumentLesson {
  readonly gatewayData?: { externalId: string; cardBrand?: string; cardLast4?: string };
  readonly validated: boolean;
}

@Injectable()
export class PaymentInstrumentService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly payers: PayerService,
    private readonly processors: MerchantCountryProcessorService,
    private readonly catalog: CatalogService,
    private readonly instruments: PaymentInstrumentRepository,
  ) {}

  /**
   * Operation 27. The payer's ACTIVE instrument for the same method, type and
   * country is used when there is one; otherwise one is created. Only for a
   * method the merchant offers (an ACTIVE, active country processor) there.
   */
  async create(caller: Caller, request: PaymentInstrumentRequest): Promise<PaymentInstrumentView> {
    return this.unitOfWork.run((tx) => this.createWithin(tx, caller, request));
  }

  /**
   * With `card` (a setup page saved it, contract §31) the instrument is always a new one — a payer may hold two
   * cards of one brand — and holds the card as saved; likewise a Pix Automático authorisation (one per subscription's terms).
   */
  async createWithin(
    tx: Transaction,
    caller: Caller,
    request: PaymentInstrumentRequest,
    card?: SavedCard | PixAuthorisationKept,
  ): Promise<PaymentInstrumentView> {
    const payer = request.payerData
      ? await this.payers.completeWithin(tx, caller, request.payerId, this.payerDataFor(request))
      : await this.payers.loadVisible(caller, request.payerId, tx, true);
    const { merchantId, payerId } = payer.snapshot();

    const country = await this.catalog.findCountryByIso3(request.country);
    if (!country) throw new InvalidRequestError(['country'], 'country is not a supported country');
    const countries = [...new Set(request.countries ?? [country.iso3])];
    for (const code of countries) {
      if (!(await this.catalog.findCountryByIso3(code)))
        throw new InvalidRequestError(['countries'], `countries: ${code} is not a supported country`);
    }

    const candidates = (await this.processors.offeredCountryProcessors(merchantId, tx)).filter(
      (p) =>
        p.country.iso3 === country.iso3 &&
        p.paymentMethod.name === request.paymentMethodName &&
        (!request.paymentInstrumentTypeName || p.paymentInstrumentType.name === request.paymentInstrumentTypeName),
    );
    if (candidates.length === 0) {
      const method = [request.paymentMethodName, request.paymentInstrumentTypeName].filter(Boolean).join(' ');
      throw new DomainError('PAYMENT_METHOD_NOT_AVAILABLE', `the merchant has no active processor for ${method} in ${country.iso3}`, {
        method,
        country: country.iso3,
      });
    }
    const types = [...new Set(candidates.map((p) => p.paymentInstrumentType.paymentInstrumentTypeId))];
    const paymentInstrumentTypeId = types.length === 1 ? types[0] : null;
    const paymentMethodId = candidates[0].paymentMethod.paymentMethodId;

    const existing = card
      ? null
      : await this.instruments.findActive(tx, {
          payerId,
          paymentMethodId,
          countryId: country.countryId,
          paymentInstrumentTypeId,
        });
    if (existing) return { instrument: existing, paymentMethodName: request.paymentMethodName };

    const instrument = PaymentInstrument.create({
      paymentInstrumentId: newId<PaymentInstrumentId>(),
      businessId: caller.businessId,
      merchantId,
      payerId,
      paymentMethodId,
      paymentInstrumentTypeId,
      countryId: country.countryId,
      countries,
      metadata: request.metadata ?? null,
      createdAt: new Date(),
    });
    if (card && 'mandate' in card) instrument.recordPixAuthorisation(card, instrument.snapshot().createdAt);
    else if (card) instrument.recordSavedCard(card, instrument.snapshot().createdAt);
    await this.instruments.save(tx, instrument);
    return { instrument, paymentMethodName: request.paymentMethodName };
  }

  /**
   * An instrument whose processor no longer holds it for charges (a Pix Automático authorisation the payer cancelled in
   * the bank's app, contract §31): INACTIVE, so nothing charges it again. False when it already was.
   */
  async deactivateHeldElsewhere(paymentInstrumentId: PaymentInstrumentId): Promise<boolean> {
    return this.unitOfWork.run(async (tx) => {
      const instrument = await this.instruments.findById(tx, paymentInstrumentId, true);
      if (!instrument || !instrument.snapshot().active) return false;
      instrument.deactivate(new Date());
      await this.instruments.save(tx, instrument);
      return true;
    });
  }

  /** Operation 28. */
  async get(caller: Caller, paymentInstrumentId: PaymentInstrumentId): Promise<PaymentInstrumentView> {
    return (await this.views([await this.loadVisible(caller, paymentInstrumentId)]))[0];
  }

  /** An instrument the caller may see, whose payer still exists; PAYMENT_INSTRUMENT_NOT_FOUND otherwise. */
  async loadVisible(
    caller: Caller,
    paymentInstrumentId: PaymentInstrumentId,
    tx: Transaction = this.unitOfWork.outside,
  ): Promise<PaymentInstrument> {
    const instrument = await this.instruments.findVisible(tx, tenantScope(caller), paymentInstrumentId);
    const payerId = instrument?.snapshot().payerId;
    if (!instrument || !payerId || !(await this.payers.liveIds(caller, [payerId], tx)).has(payerId))
      throw new DomainError('PAYMENT_INSTRUMENT_NOT_FOUND');
    return instrument;
  }

  /**
   * An instrument of a payer the caller already holds (loaded as visible and
   * locked in `tx`): the same answer as loadVisible, without reading that
   * payer again. Another payer's instrument is not found.
   */
  async loadOfHeldPayer(
    caller: Caller,
    paymentInstrumentId: PaymentInstrumentId,
    payerId: PayerId,
    tx: Transaction,
  ): Promise<PaymentInstrument> {
    const instrument = await this.instruments.findVisible(tx, tenantScope(caller), paymentInstrumentId);
    if (!instrument || instrument.snapshot().payerId !== payerId) throw new DomainError('PAYMENT_INSTRUMENT_NOT_FOUND');
    return instrument;
  }

  /** Operations 16 and 25: a payer's instruments, newest first. */
  async listOfPayer(caller: Caller, payerId: PayerId): Promise<PaymentInstrumentView[]> {
    await this.payers.loadVisible(caller, payerId);
    return this.views(await this.instruments.ofPayer(this.unitOfWork.outside, payerId));
  }

  /** Operation 26: the caller's instruments (optionally one merchant's), newest first, at most 100. */
  async list(caller: Caller, merchantId?: MerchantId): Promise<PaymentInstrumentView[]> {
    const scope = narrowScope(tenantScope(caller), merchantId);
    if (!scope) return [];
    const instruments = await this.instruments.newest(this.unitOfWork.outside, scope, MAX_LISTED);
    const live = await this.payers.liveIds(
      caller,
      instruments.map((i) => i.snapshot().payerId),
    );
    return this.views(instruments.filter((i) => live.has(i.snapshot().payerId)));
  }

  /** The gateway's token for an instrument, if it has one. */
  async tokenOf(paymentInstrumentId: PaymentInstrumentId): Promise<string | null> {
    return (await this.chargedAs(paymentInstrumentId)).token;
  }

  /** What charges the instrument: its token at the gateway, and the processor that keeps its card (null: routing decides). */
  async chargedAs(paymentInstrumentId: PaymentInstrumentId): Promise<{ token: string | null; processor: string | null }> {
    const instrument = (await this.instruments.findById(this.unitOfWork.outside, paymentInstrumentId))?.snapshot();
    return { token: instrument?.externalId ?? null, processor: instrument?.processor ?? null };
  }

  /**
   * What a payment's outcome teaches the instrument, in one read and at most
   * one write: the gateway's token and masked card data, and (the first
   * approved payment) that it is validated. Nothing is written when nothing
   * changed.
   */
  async recordOutcome(tx: Transaction, paymentInstrumentId: PaymentInstrumentId, outcome: InstrumentLesson): Promise<void> {
    const instrument = await this.instruments.findById(tx, paymentInstrumentId, true);
    if (!instrument) return;
    const now = new Date();
    const recorded = outcome.gatewayData ? instrument.recordGatewayData(outcome.gatewayData, now) : false;
    const validated = outcome.validated ? instrument.markValidated(now) : false;
    if (recorded || validated) await this.instruments.save(tx, instrument);
  }

  /** That the instrument is still the payer's and active when the statement that charges it runs. */
  whileActive(paymentInstrumentId: PaymentInstrumentId, payerId: PayerId): Precondition {
    return this.instruments.whileActive(paymentInstrumentId, payerId);
  }

  /**
   * recordOutcome for an instrument the caller read (`held`), without reading
   * it again: the write to run in the caller's statement, or null when the
   * outcome teaches it nothing it did not hold.
   */
  lessonAlongside(held: Readonly<PaymentInstrumentProps>, outcome: InstrumentLesson): ChangeAlongside | null {
    const instrument = PaymentInstrument.restore({ ...held, countries: [...held.countries] });
    const now = new Date();
    const recorded = outcome.gatewayData ? instrument.recordGatewayData(outcome.gatewayData, now) : false;
    const validated = outcome.validated ? instrument.markValidated(now) : false;
    return recorded || validated ? this.instruments.lessonAlongside(instrument) : null;
  }

  private payerDataFor(request: PaymentInstrumentRequest): PayerRequest {
    const { merchantId: _merchantId, ...rest } = request.payerData ?? {};
    return rest;
  }

  private async views(instruments: PaymentInstrument[]): Promise<PaymentInstrumentView[]> {
    const methods = new Map((await this.catalog.listPaymentMethods()).map((m) => [m.paymentMethodId, m.name]));
    return instruments.map((instrument) => ({ instrument, paymentMethodName: methods.get(instrument.snapshot().paymentMethodId) ?? '' }));
  }
}
