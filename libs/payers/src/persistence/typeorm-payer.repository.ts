import { Injectable } from '@nestjs/common';
import { EntityColumns, isUniqueViolation, queryPrepared } from '@pcs/database';
import { BusinessId, Caller, isMerchantCaller, MerchantId, Page, pageOffset, PageRequest, PayerId } from '@pcs/kernel';
import { EntityManager, In, IsNull } from 'typeorm';
import { Payer } from '../domain/payer';
import { DuplicateDocumentError, PayerLock, PayerRepository } from '../payer.repository';
import { payerFromRow, payerToRow } from './payer.mapper';
import { PayerOrmEntity } from './payer.orm-entity';

@Injectable()
export class TypeOrmPayerRepository extends PayerRepository {
  liveCondition(parameter: string): string {
    return `EXISTS (SELECT 1 FROM payer WHERE payer_id = ${parameter} AND deleted_at IS NULL FOR KEY SHARE)`;
  }

  async findVisible(manager: EntityManager, caller: Caller, payerId: PayerId, lock: PayerLock = 'none'): Promise<Payer | null> {
    if (lock === 'none') {
      // The read of nearly every creation: a prepared statement (TypeORM builds and sends its text anew each time).
      const columns = new EntityColumns(manager, PayerOrmEntity, 'p_');
      const values: unknown[] = [payerId, caller.businessId];
      const merchant = isMerchantCaller(caller) ? `AND p.merchant_id = $${values.push(caller.merchantId)}` : '';
      const [row] = await queryPrepared<Record<string, unknown>>(
        manager,
        `SELECT ${columns.select('p')} FROM payer p WHERE p.payer_id = $1 AND p.business_id = $2 AND p.deleted_at IS NULL ${merchant}`,
        values,
      );
      const entity = row && columns.from(row);
      return entity ? payerFromRow(entity) : null;
    }
    const mode = lock === 'share' ? ('for_key_share' as const) : ('pessimistic_write' as const);
    const row = await manager.findOne(PayerOrmEntity, {
      where: {
        payerId,
        businessId: caller.businessId,
        deletedAt: IsNull(),
        ...(isMerchantCaller(caller) ? { merchantId: caller.merchantId } : {}),
      },
      lock: { mode },
    });
    return row ? payerFromRow(row) : null;
  }

  async findById(manager: EntityManager, payerId: PayerId): Promise<Payer | null> {
    const row = await manager.findOne(PayerOrmEntity, { where: { payerId } });
    return row ? payerFromRow(row) : null;
  }

  async liveIds(manager: EntityManager, businessId: BusinessId, payerIds: readonly PayerId[]): Promise<Set<string>> {
    if (payerIds.length === 0) return new Set();
    const rows = await manager.find(PayerOrmEntity, {
      where: { payerId: In([...new Set(payerIds)]), businessId, deletedAt: IsNull() },
      select: { payerId: true },
    });
    return new Set(rows.map((r) => r.payerId));
  }

  async list(
    manager: EntityManager,
    businessId: BusinessId,
    filter: { merchantId?: MerchantId; searchTerm?: string },
    page: PageRequest,
  ): Promise<Page<Payer>> {
    const builder = manager
      .createQueryBuilder(PayerOrmEntity, 'p')
      .where('p.business_id = :businessId AND p.deleted_at IS NULL', { businessId });
    if (filter.merchantId) builder.andWhere('p.merchant_id = :merchantId', { merchantId: filter.merchantId });
    const term = filter.searchTerm?.trim();
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
    return { items: rows.map(payerFromRow), page: page.page, limit: page.limit, total };
  }

  async insert(manager: EntityManager, payer: Payer): Promise<void> {
    // A savepoint keeps the caller's transaction usable when the insert fails.
    try {
      await manager.transaction((inner) => inner.insert(PayerOrmEntity, payerToRow(payer)));
    } catch (error) {
      throw await this.duplicateOr(error, manager, payer);
    }
  }

  async save(manager: EntityManager, payer: Payer): Promise<void> {
    try {
      await manager.save(payerToRow(payer));
    } catch (error) {
      throw await this.duplicateOr(error, manager, payer);
    }
  }

  /** A clash on the document index names the payer already holding the document. */
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
    return new DuplicateDocumentError(existing?.payerId ?? null);
  }
}
