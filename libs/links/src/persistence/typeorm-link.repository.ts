import { Injectable } from '@nestjs/common';
import { Guard, managerOf, queryPrepared, scopeCondition, scopeNamedCondition, scopeWhere, transactionOf } from '@pcs/database';
import {
  asBusinessId,
  asMerchantId,
  asPaymentIntentId,
  Currency,
  Page,
  pageOffset,
  PageRequest,
  TenantScope,
  Transaction,
} from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { EntityManager, In, IsNull } from 'typeorm';
import { asLinkId, Link, LinkId, LinkStatus } from '../domain/link';
import { LinkRepository, StoredLinkProcessor } from '../link.repository';
import { LinkCountryProcessorOrmEntity, LinkOrmEntity } from './link.orm-entity';

@Injectable()
export class TypeOrmLinkRepository extends LinkRepository {
  async findVisible(tx: Transaction, scope: TenantScope, linkId: LinkId, lock = false): Promise<Link | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(LinkOrmEntity, {
      where: { linkId, ...scopeWhere(scope), deletedAt: IsNull() },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? this.toLink(manager, row) : null;
  }

  async findLive(tx: Transaction, linkId: LinkId, lock = false): Promise<Link | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(LinkOrmEntity, {
      where: { linkId, deletedAt: IsNull() },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? this.toLink(manager, row) : null;
  }

  async list(tx: Transaction, scope: TenantScope, filter: { status?: LinkStatus; now: Date }, page: PageRequest): Promise<Page<Link>> {
    const manager = managerOf(tx);
    const inScope = scopeNamedCondition(scope, 'l');
    const query = manager.createQueryBuilder(LinkOrmEntity, 'l').where(`${inScope.sql} AND l.deleted_at IS NULL`, inScope.parameters);
    if (filter.status === 'USED') query.andWhere('l.used');
    if (filter.status === 'EXPIRED') query.andWhere('NOT l.used AND l.expiration_date <= :now', { now: filter.now });
    if (filter.status === 'ACTIVE') query.andWhere('NOT l.used AND l.expiration_date > :now', { now: filter.now });
    const [rows, total] = await query
      .orderBy('l.created_at', 'DESC')
      .addOrderBy('l.link_id', 'ASC')
      .offset(pageOffset(page))
      .limit(page.limit)
      .getManyAndCount();
    const processors = await this.processorsOf(
      tx,
      rows.map((r) => asLinkId(r.linkId)),
    );
    return {
      items: rows.map((row) => this.fromRow(row, processors.get(asLinkId(row.linkId)) ?? [])),
      page: page.page,
      limit: page.limit,
      total,
    };
  }

  async insert(tx: Transaction, link: Link): Promise<void> {
    const manager = managerOf(tx);
    await manager.insert(LinkOrmEntity, this.toRow(link));
    await this.insertProcessors(manager, link.id, link.snapshot().countryProcessorIds);
  }

  async save(tx: Transaction, link: Link): Promise<void> {
    const manager = managerOf(tx);
    await manager.save(this.toRow(link));
    const stored = (await this.processorsOf(tx, [link.id])).get(link.id) ?? [];
    const wanted = link.snapshot().countryProcessorIds;
    const same = stored.length === wanted.length && stored.every((p) => wanted.includes(p.countryProcessorId));
    if (same) return;
    await manager.delete(LinkCountryProcessorOrmEntity, { linkId: link.id });
    await this.insertProcessors(manager, link.id, wanted);
  }

  async processorsOf(tx: Transaction, linkIds: readonly LinkId[]): Promise<Map<LinkId, StoredLinkProcessor[]>> {
    const manager = managerOf(tx);
    const result = new Map<LinkId, StoredLinkProcessor[]>();
    if (linkIds.length === 0) return result;
    const rows = await manager.find(LinkCountryProcessorOrmEntity, {
      where: { linkId: In([...linkIds]) },
      order: { countryProcessorId: 'ASC' },
    });
    for (const row of rows) {
      const id = asLinkId(row.linkId);
      result.set(id, [
        ...(result.get(id) ?? []),
        { linkCountryProcessorId: row.linkCountryProcessorId, countryProcessorId: row.countryProcessorId },
      ]);
    }
    return result;
  }

  async findForPayment(
    tx: Transaction,
    scope: TenantScope,
    linkId: LinkId,
    lock = false,
  ): Promise<{ link: Link; processors: StoredLinkProcessor[]; version: string } | null> {
    const manager = managerOf(tx);
    const values: unknown[] = [linkId];
    const [row] = await queryPrepared<Record<string, unknown> & { version: string; processors: StoredLinkProcessor[] }>(
      manager,
      `SELECT l.link_id, l.business_id, l.merchant_id, l.country_id, l.currency, l.amount, l.vat_rate_bp, l.description, l.reference,
              l.expiration_date, l.used, l.used_at, l.payment_intent_id, l.created_at, l.updated_at, l.deleted_at, l.xmin::text AS version,
              COALESCE((SELECT json_agg(json_build_object('linkCountryProcessorId', p.link_country_processor_id,
                                                          'countryProcessorId', p.country_processor_id) ORDER BY p.country_processor_id)
                          FROM link_country_processor p WHERE p.link_id = l.link_id), '[]') AS processors
         FROM link l WHERE l.link_id = $1 AND ${scopeCondition(scope, 'l', values)} AND l.deleted_at IS NULL ${lock ? 'FOR UPDATE OF l' : ''}`,
      values,
    );
    if (!row) return null;
    const entity = Object.assign(new LinkOrmEntity(), {
      linkId: row.link_id,
      businessId: row.business_id,
      merchantId: row.merchant_id,
      countryId: row.country_id,
      currency: row.currency,
      amount: Number(row.amount),
      vatRateBp: row.vat_rate_bp,
      description: row.description,
      reference: row.reference,
      expirationDate: row.expiration_date,
      used: row.used,
      usedAt: row.used_at,
      paymentIntentId: row.payment_intent_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      deletedAt: row.deleted_at,
    });
    return { link: this.fromRow(entity, row.processors), processors: row.processors, version: row.version };
  }

  usedAlongside(link: Link, version: string): Guard {
    const { linkId, usedAt, paymentIntentId } = link.snapshot();
    return Guard.of(
      `UPDATE link SET used = true, used_at = $1, payment_intent_id = $2, updated_at = $1
        WHERE link_id = $3 AND xmin = $4::text::xid AND NOT used AND deleted_at IS NULL AND expiration_date > $1
       RETURNING link_id`,
      [usedAt, paymentIntentId, linkId, version],
      { required: 'the link is as it was read and active' },
    );
  }

  private async insertProcessors(manager: EntityManager, linkId: LinkId, countryProcessorIds: readonly string[]): Promise<void> {
    await manager.insert(
      LinkCountryProcessorOrmEntity,
      countryProcessorIds.map((countryProcessorId) => ({ linkCountryProcessorId: crypto.randomUUID(), linkId, countryProcessorId })),
    );
  }

  private async toLink(manager: EntityManager, row: LinkOrmEntity): Promise<Link> {
    const processors = await this.processorsOf(transactionOf(manager), [asLinkId(row.linkId)]);
    return this.fromRow(row, processors.get(asLinkId(row.linkId)) ?? []);
  }

  private fromRow(row: LinkOrmEntity, processors: readonly StoredLinkProcessor[]): Link {
    return Link.restore({
      ...row,
      linkId: asLinkId(row.linkId),
      businessId: asBusinessId(row.businessId),
      merchantId: asMerchantId(row.merchantId),
      currency: row.currency as Currency,
      paymentIntentId: row.paymentIntentId === null ? null : asPaymentIntentId(row.paymentIntentId),
      countryProcessorIds: processors.map((p) => p.countryProcessorId),
    });
  }

  private toRow(link: Link): LinkOrmEntity {
    const { countryProcessorIds: _processors, ...props } = link.snapshot();
    return Object.assign(new LinkOrmEntity(), props);
  }
}
