import { Injectable } from '@nestjs/common';
import { CatalogService } from '@pcs/catalog';
import {
  Caller,
  DocumentType,
  DomainError,
  InvalidRequestError,
  MerchantId,
  newId,
  Page,
  PageRequest,
  PayerId,
  Precondition,
  tenantScope,
  Transaction,
  UnitOfWork,
} from '@pcs/kernel';
import { MerchantAccess } from '@pcs/merchants';
import { checkIdentityDocument } from './domain/identity-document';
import { Payer, PayerAddress, PayerChanges, PayerDetails, PayerProps } from './domain/payer';
import { PayerPaymentActivity } from './payer-payment-activity';
import { DuplicateDocumentError, PayerRepository } from './payer.repository';

/** The payer creation request (also `payerData` inside other requests), after syntax validation. */
export interface PayerRequest {
  firstName?: string;
  lastName?: string;
  documentType?: DocumentType;
  document?: string;
  email?: string;
  merchantId?: MerchantId;
  address?: PayerAddress;
  phone?: string;
  country?: string;
  deviceFingerprint?: string;
}

export interface PayerListQuery {
  searchTerm?: string;
  merchantId?: MerchantId;
}

@Injectable()
export class PayerService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly access: MerchantAccess,
    private readonly catalog: CatalogService,
    private readonly activity: PayerPaymentActivity,
    private readonly payers: PayerRepository,
  ) {}

  /** Operation 12. */
  async create(caller: Caller, request: PayerRequest): Promise<Readonly<PayerProps>> {
    return this.unitOfWork.run(async (tx) => (await this.createWithin(tx, caller, request)).snapshot());
  }

  /** Creates a payer inside the caller's transaction (payerData of a payment intent). */
  async createWithin(tx: Transaction, caller: Caller, request: PayerRequest): Promise<Payer> {
    const merchantId = await this.access.resolveMerchantId(caller, request.merchantId, tx);
    const merchant = await this.access.loadVisible(caller, merchantId, tx);
    const details = await this.details(request, merchant.snapshot().countryId);
    const payer = Payer.create({ payerId: newId<PayerId>(), businessId: caller.businessId, merchantId }, details, new Date());
    await this.payers.insert(tx, payer).catch(asConflict);
    return payer;
  }

  /** Operation 13. */
  async get(caller: Caller, payerId: PayerId): Promise<Readonly<PayerProps>> {
    return (await this.loadVisible(caller, payerId)).snapshot();
  }

  /** A payer the caller may see (other contexts use it too); PAYER_NOT_FOUND otherwise. */
  /**
   * `lock`: true (or 'update') to change the payer; 'share' to pay with it —
   * many payments may share a payer, while deletion (which takes it for
   * update) waits for them and they for it.
   */
  async loadVisible(
    caller: Caller,
    payerId: PayerId,
    tx: Transaction = this.unitOfWork.outside,
    lock: boolean | 'update' | 'share' = false,
  ): Promise<Payer> {
    const payer = await this.payers.findVisible(tx, tenantScope(caller), payerId, lock === 'share' ? 'share' : lock ? 'update' : 'none');
    if (!payer) throw new DomainError('PAYER_NOT_FOUND');
    return payer;
  }

  /**
   * For another context that writes in a single statement what depends on a
   * payer (a payment intent's fast creation): the requirement that the
   * payer exists and is not deleted, which takes the payer as `loadVisible(...,
   * 'share')` does, so the payer's deletion waits for that write or the write
   * sees the payer gone.
   */
  whileLive(payerId: PayerId): Precondition {
    return this.payers.whileLive(payerId);
  }

  /** A payer by id for the service's own flows, which act for no caller (deleted payers included: records keep their names). */
  async findById(payerId: PayerId, tx: Transaction = this.unitOfWork.outside): Promise<Readonly<PayerProps> | null> {
    return (await this.payers.findById(tx, payerId))?.snapshot() ?? null;
  }

  /** Which of these payers still exist (not deleted) for the caller. */
  async liveIds(caller: Caller, payerIds: readonly PayerId[], tx: Transaction = this.unitOfWork.outside): Promise<Set<string>> {
    return this.payers.liveIds(tx, caller.businessId, payerIds);
  }

  /** Operation 14. */
  async update(caller: Caller, payerId: PayerId, changes: PayerChanges): Promise<Readonly<PayerProps>> {
    if (changes.address) await this.assertKnownCountry(changes.address);
    return this.unitOfWork.run(async (tx) => {
      const payer = await this.loadVisible(caller, payerId, tx, true);
      payer.update({ ...changes, email: changes.email?.trim().toLowerCase() }, new Date());
      await this.payers.save(tx, payer);
      return payer.snapshot();
    });
  }

  /**
   * Completes a payer with `payerData` sent along another request: fills what
   * is missing, never overwrites. Runs inside the caller's transaction.
   */
  async completeWithin(tx: Transaction, caller: Caller, payerId: PayerId, request: PayerRequest): Promise<Payer> {
    const payer = await this.loadVisible(caller, payerId, tx, true);
    const merchant = await this.access.loadVisible(caller, payer.snapshot().merchantId, tx);
    payer.complete(await this.details(request, merchant.snapshot().countryId), new Date());
    await this.payers.save(tx, payer).catch(asConflict);
    return payer;
  }

  /** Operation 11: newest first; searchTerm matches names, email and document, ignoring case and accents. */
  async list(caller: Caller, query: PayerListQuery, page: PageRequest): Promise<Page<Readonly<PayerProps>>> {
    const scope = await this.access.scopeOf(caller, query.merchantId);
    const found = await this.payers.list(this.unitOfWork.outside, scope, query.searchTerm, page);
    return { ...found, items: found.items.map((p) => p.snapshot()) };
  }

  /**
   * Operation 15: a soft delete, refused while the payer has payment intents
   * that are not final. The payer row stays locked while checking, so no
   * intent can be created for it meanwhile (intent creation locks it too).
   */
  async delete(caller: Caller, payerId: PayerId): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const payer = await this.loadVisible(caller, payerId, tx, true);
      if (await this.activity.hasOpenPaymentIntents(payer.id, tx)) {
        const reason = 'the payer has payment intents that are not final';
        throw new DomainError('ERROR_IN_DELETE_PAYER', reason, {
          reason,
          reasonEs: 'el pagador tiene intenciones de pago que no han finalizado',
        });
      }
      payer.delete(new Date());
      await this.payers.save(tx, payer);
    });
  }

  private async details(request: PayerRequest, merchantCountryId: string): Promise<PayerDetails> {
    const country = request.country
      ? await this.catalog.findCountryByIso3(request.country)
      : await this.catalog.findCountryById(merchantCountryId);
    if (!country) throw new InvalidRequestError(['country'], 'country is not a supported country');
    if ((request.documentType === undefined) !== (request.document === undefined)) {
      const missing = request.documentType === undefined ? 'documentType' : 'document';
      throw new InvalidRequestError(
        [missing],
        `${missing} is required when ${missing === 'document' ? 'documentType' : 'document'} is sent`,
      );
    }
    let documentNumber: string | undefined;
    if (request.documentType && request.document !== undefined) {
      const check = checkIdentityDocument(request.documentType, request.document, country.iso3);
      if (!check.ok) throw new InvalidRequestError(['document'], `document: ${check.reason}`);
      documentNumber = check.number;
    }
    if (request.address) await this.assertKnownCountry(request.address);
    return {
      firstName: request.firstName?.trim(),
      lastName: request.lastName?.trim(),
      documentType: request.documentType,
      documentNumber,
      countryId: country.countryId,
      email: request.email?.trim().toLowerCase(),
      phone: request.phone,
      address: request.address,
      deviceFingerprint: request.deviceFingerprint,
    };
  }

  private async assertKnownCountry(address: PayerAddress): Promise<void> {
    if (address.country !== undefined && !(await this.catalog.findCountryById(address.country))) {
      throw new InvalidRequestError(['address.country'], 'address.country is not a known country id');
    }
  }
}

/** A document another live payer of the merchant holds: a 409 that names that payer. */
function asConflict(error: unknown): never {
  if (error instanceof DuplicateDocumentError) {
    const payerId = error.existingPayerId ?? 'unknown';
    throw new DomainError('PAYER_ALREADY_EXISTS', `a payer with this document already exists for the merchant: ${payerId}`, { payerId });
  }
  throw error;
}
