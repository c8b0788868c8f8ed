import { Injectable } from '@nestjs/common';
import {
  afterCommit,
  ChangeFeed,
  EntityColumns,
  InvalidatedCache,
  isUniqueViolation,
  managerOf,
  queryPrepared,
  Requirement,
  scopeNamedCondition,
  scopeWhere,
} from '@pcs/database';
import { BusinessId, Page, pageOffset, PageRequest, PayerId, TenantScope, Transaction } from '@pcs/kernel';
import { EntityManager, In, IsNull } from 'typeorm';
import { Payer } from '../domain/payer';
import { DuplicateDocumentError, PayerLock, PayerRepository } from '../payer.repository';
import { payerFromRow, payerToRow } from './payer.mapper';
import { PayerOrmEntity } from './payer.orm-entity';

/**
 * Payers in PostgreSQL. The unlocked read of a live payer is the read of
 * nearly every payment intent's creation, and a payer changes rarely, so the
 * live ones are kept in memory by id (at most 10,000, ten minutes at most)
 * and forgotten when their row changes (change feed, and at once after this
 * process commits a change). Locked reads always go to the database, and so
 * does every write's requirement that the payer is still there
 * (`whileLive`), so a deletion is never missed where it matters.
 */
@Injectable()
export class TypeOrmPayerRepository extends PayerRepository {
  private readonly live: InvalidatedCache<PayerOrmEntity>;

  constructor(changes: ChangeFeed) {
    super();
    this.live = new InvalidatedCache(changes, 'payer', { maxEntries: 10_000, ttlMs: 10 * 60_000 });
  }

  whileLive(payerId: PayerId): Requirement {
    return Requirement.of(
      'EXISTS (SELECT 1 FROM payer WHERE payer_id = $1 AND deleted_at IS NULL FOR KEY SHARE)',
      [payerId],
      'the payer is gone',
    );
  }

  async findVisible(tx: Transaction, scope: TenantScope, payerId: PayerId, lock: PayerLock = 'none'): Promise<Payer | null> {
    const manager = managerOf(tx);
    if (lock === 'none') {
      // The read of nearly every creation: from memory, else a prepared statement (TypeORM builds and sends its text anew each time).
      const read = async () => {
        const columns = new EntityColumns(manager, PayerOrmEntity, 'p_');
        const [row] = await queryPrepared<Record<string, unknown>>(
          manager,
          `SELECT ${columns.select('p')} FROM payer p WHERE p.payer_id = $1 AND p.deleted_at IS NULL`,
          [payerId],
        );
        return (row && columns.from(row)) ?? null;
      };
      // Inside a transaction the database answers: the transaction may have changed the payer itself.
      const live = manager.queryRunner?.isTransactionActive ? await read() : await this.live.get(payerId, read);
      if (!live || live.businessId !== scope.businessId || (scope.merchantId !== null && live.merchantId !== scope.merchantId)) return null;
      // A copy: the kept row (its dates, its metadata) is never handed to a caller that may change it.
      return payerFromRow(structuredClone(live));
    }
    const mode = lock === 'share' ? ('for_key_share' as const) : ('pessimistic_write' as const);
    const row = await manager.findOne(PayerOrmEntity, {
      where: {
        payerId,
        ...scopeWhere(scope),
        deletedAt: IsNull(),
      },
      lock: { mode },
    });
    return row ? payerFromRow(row) : null;
  }

  async findById(tx: Transaction, payerId: PayerId): Promise<Payer | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(PayerOrmEntity, { where: { payerId } });
    return row ? payerFromRow(row) : null;
  }

  async liveIds(tx: Transaction, businessId: BusinessId, payerIds: readonly PayerId[]): Promise<Set<string>> {
    const manager = managerOf(tx);
    if (payerIds.length === 0) return new Set();
    const rows = await manager.find(PayerOrmEntity, {
      where: { payerId: In([...new Set(payerIds)]), businessId, deletedAt: IsNull() },
      select: { payerId: true },
    });
    return new Set(rows.map((r) => r.payerId));
  }

  async list(tx: Transaction, scope: TenantScope, searchTerm: string | undefined, page: PageRequest): Promise<Page<Payer>> {
    const manager = managerOf(tx);
    const inScope = scopeNamedCondition(scope, 'p');
    const builder = manager.createQueryBuilder(PayerOrmEntity, 'p').where(`${inScope.sql} AND p.deleted_at IS NULL`, inScope.parameters);
    const term = searchTerm?.trim();
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

  async insert(tx: Transaction, payer: Payer): Promise<void> {
    const manager = managerOf(tx);
    // A savepoint keeps the caller's transaction usable when the insert fails.
    try {
      await manager.transaction((inner) => inner.insert(PayerOrmEntity, payerToRow(payer)));
    } catch (error) {
      throw await this.duplicateOr(error, manager, payer);
    }
  }

  async save(tx: Transaction, payer: Payer): Promise<void> {
    const manager = managerOf(tx);
    try {
      await manager.save(payerToRow(payer));
      afterCommit(manager, () => this.live.invalidate(payer.id));
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
