import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CatalogService } from '@pcs/catalog';
import { inTransaction, isUniqueViolation } from '@pcs/database';
import { Caller, DocumentType, DomainError, InvalidRequestError, isMerchantCaller, Page, PageRequest, pageOffset } from '@pcs/kernel';
import { MerchantAccess } from '@pcs/merchants';
import * as crypto from 'node:crypto';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { checkIdentityDocument } from './domain/identity-document';
import { Payer, PayerAddress, PayerChanges, PayerDetails, PayerProps } from './domain/payer';
import { PayerPaymentActivity } from './payer-payment-activity';
import { payerFromRow, payerToRow } from './persistence/payer.mapper';
import { PayerOrmEntity } from './persistence/payer.orm-entity';

/** The payer creation request (also `payerData` inside other requests), after syntax validation. */
export interface PayerRequest {
  firstName?: string;
  lastName?: string;
  documentType?: DocumentType;
  document?: string;
  email?: string;
  merchantId?: string;
  address?: PayerAddress;
  phone?: string;
  country?: string;
  deviceFingerprint?: string;
}

export interface PayerListQuery {
  searchTerm?: string;
  merchantId?: string;
}

@Injectable()
export class PayerService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: MerchantAccess,
    private readonly catalog: CatalogService,
    private readonly activity: PayerPaymentActivity,
  ) {}

  /** Operation 12. */
  async create(caller: Caller, request: PayerRequest): Promise<Readonly<PayerProps>> {
    return inTransaction(this.dataSource, async (manager) => (await this.createWithin(manager, caller, request)).snapshot());
  }

  /** Creates a payer inside the caller's transaction (payerData of a payment intent). */
  async createWithin(manager: EntityManager, caller: Caller, request: PayerRequest): Promise<Payer> {
    const merchantId = await this.access.resolveMerchantId(caller, request.merchantId, manager);
    const merchant = await this.access.loadVisible(caller, merchantId, manager);
    const details = await this.details(request, merchant.snapshot().countryId);
    const payer = Payer.create({ payerId: crypto.randomUUID(), businessId: caller.businessId, merchantId }, details, new Date());
    await this.insertUnique(manager, payer);
    return payer;
  }

  /** Operation 13. */
  async get(caller: Caller, payerId: string): Promise<Readonly<PayerProps>> {
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
    payerId: string,
    manager: EntityManager = this.dataSource.manager,
    lock: boolean | 'update' | 'share' = false,
  ): Promise<Payer> {
    const mode = lock === 'share' ? ('for_key_share' as const) : lock ? ('pessimistic_write' as const) : null;
    const row = await manager.findOne(PayerOrmEntity, {
      where: {
        payerId,
        businessId: caller.businessId,
        deletedAt: IsNull(),
        ...(isMerchantCaller(caller) ? { merchantId: caller.merchantId } : {}),
      },
      ...(mode ? { lock: { mode } } : {}),
    });
    if (!row) throw new DomainError('PAYER_NOT_FOUND');
    return payerFromRow(row);
  }

  /** A payer by id for the service's own flows, which act for no caller (deleted payers included: records keep their names). */
  async findById(payerId: string, manager: EntityManager = this.dataSource.manager): Promise<Readonly<PayerProps> | null> {
    const row = await manager.findOne(PayerOrmEntity, { where: { payerId } });
    return row ? payerFromRow(row).snapshot() : null;
  }

  /** Which of these payers still exist (not deleted) for the caller. */
  async liveIds(caller: Caller, payerIds: readonly string[], manager: EntityManager = this.dataSource.manager): Promise<Set<string>> {
    if (payerIds.length === 0) return new Set();
    const rows = await manager.find(PayerOrmEntity, {
      where: { payerId: In([...new Set(payerIds)]), businessId: caller.businessId, deletedAt: IsNull() },
      select: { payerId: true },
    });
    return new Set(rows.map((r) => r.payerId));
  }

  /** Operation 14. */
  async update(caller: Caller, payerId: string, changes: PayerChanges): Promise<Readonly<PayerProps>> {
    if (changes.address) await this.assertKnownCountry(changes.address);
    return inTransaction(this.dataSource, async (manager) => {
      const payer = await this.loadVisible(caller, payerId, manager, true);
      payer.update({ ...changes, email: changes.email?.trim().toLowerCase() }, new Date());
      await manager.save(payerToRow(payer));
      return payer.snapshot();
    });
  }

  /**
   * Completes a payer with `payerData` sent along another request: fills what
   * is missing, never overwrites. Runs inside the caller's transaction.
   */
  async completeWithin(manager: EntityManager, caller: Caller, payerId: string, request: PayerRequest): Promise<Payer> {
    const payer = await this.loadVisible(caller, payerId, manager, true);
    const merchant = await this.access.loadVisible(caller, payer.snapshot().merchantId, manager);
    payer.complete(await this.details(request, merchant.snapshot().countryId), new Date());
    try {
      await manager.save(payerToRow(payer));
    } catch (error) {
      throw await this.duplicateOr(error, manager, payer);
    }
    return payer;
  }

  /** Operation 11: newest first; searchTerm matches names, email and document, ignoring case and accents. */
  async list(caller: Caller, query: PayerListQuery, page: PageRequest): Promise<Page<Readonly<PayerProps>>> {
    const builder = this.dataSource.manager
      .createQueryBuilder(PayerOrmEntity, 'p')
      .where('p.business_id = :businessId AND p.deleted_at IS NULL', { businessId: caller.businessId });
    const merchantId = isMerchantCaller(caller) ? caller.merchantId : query.merchantId;
    if (query.merchantId) await this.access.loadVisible(caller, query.merchantId);
    if (merchantId) builder.andWhere('p.merchant_id = :merchantId', { merchantId });
    const term = query.searchTerm?.trim();
    if (term) {
      // Served by payer_search_trgm_idx (gin_trgm_ops supports LIKE).
      builder.andWhere(`p.search_text LIKE '%' || pcs_search_text(:term) || '%'`, { term: term.replace(/[\\%_]/g, (c) => `\\${c}`) });
    }
    const [rows, total] = await builder
      .orderBy('p.created_at', 'DESC')
      .addOrderBy('p.payer_id', 'ASC')
      .skip(pageOffset(page))
      .take(page.limit)
      .getManyAndCount();
    return { items: rows.map((r) => payerFromRow(r).snapshot()), page: page.page, limit: page.limit, total };
  }

  /**
   * Operation 15: a soft delete, refused while the payer has payment intents
   * that are not final. The payer row stays locked while checking, so no
   * intent can be created for it meanwhile (intent creation locks it too).
   */
  async delete(caller: Caller, payerId: string): Promise<void> {
    await inTransaction(this.dataSource, async (manager) => {
      const payer = await this.loadVisible(caller, payerId, manager, true);
      if (await this.activity.hasOpenPaymentIntents(payer.id, manager)) {
        const reason = 'the payer has payment intents that are not final';
        throw new DomainError('ERROR_IN_DELETE_PAYER', reason, {
          reason,
          reasonEs: 'el pagador tiene intenciones de pago que no han finalizado',
        });
      }
      payer.delete(new Date());
      await manager.save(payerToRow(payer));
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

  private async insertUnique(manager: EntityManager, payer: Payer): Promise<void> {
    // A savepoint keeps the caller's transaction usable when the insert fails.
    try {
      await manager.transaction((inner) => inner.insert(PayerOrmEntity, payerToRow(payer)));
    } catch (error) {
      throw await this.duplicateOr(error, manager, payer);
    }
  }

  /** A clash on the document index becomes a 409 that names the payer already holding it. */
  private async duplicateOr(error: unknown, manager: EntityManager, payer: Payer): Promise<unknown> {
    if (!isUniqueViolation(error, 'payer_document_unique')) return error;
    const p = payer.snapshot();
    const existing = await manager.findOne(PayerOrmEntity, {
      where: {
        merchantId: p.merchantId,
        documentType: p.documentType ?? undefined,
        documentNumber: p.documentNumber ?? undefined,
        deletedAt: IsNull(),
      },
      select: { payerId: true },
    });
    const payerId = existing?.payerId ?? 'unknown';
    return new DomainError('PAYER_ALREADY_EXISTS', `a payer with this document already exists for the merchant: ${payerId}`, { payerId });
  }
}
