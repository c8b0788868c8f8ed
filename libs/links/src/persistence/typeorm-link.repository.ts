import { Injectable } from '@nestjs/common';
import {
  asBusinessId,
  asMerchantId,
  asPaymentIntentId,
  Caller,
  Currency,
  isMerchantCaller,
  MerchantId,
  Page,
  PageRequest,
  pageOffset,
} from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { EntityManager, In, IsNull } from 'typeorm';
import { asLinkId, Link, LinkId, LinkStatus } from '../domain/link';
import { LinkRepository, StoredLinkProcessor } from '../link.repository';
import { LinkCountryProcessorOrmEntity, LinkOrmEntity } from './link.orm-entity';

@Injectable()
export class TypeOrmLinkRepository extends LinkRepository {
  async findVisible(manager: EntityManager, caller: Caller, linkId: LinkId, lock = false): Promise<Link | null> {
    const row = await manager.findOne(LinkOrmEntity, {
      where: {
        linkId,
        businessId: caller.businessId,
        deletedAt: IsNull(),
        ...(isMerchantCaller(caller) ? { merchantId: caller.merchantId } : {}),
      },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? this.toLink(manager, row) : null;
  }

  async findLive(manager: EntityManager, linkId: LinkId, lock = false): Promise<Link | null> {
    const row = await manager.findOne(LinkOrmEntity, {
      where: { linkId, deletedAt: IsNull() },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? this.toLink(manager, row) : null;
  }

  async list(
    manager: EntityManager,
    caller: Caller,
    filter: { merchantId?: MerchantId; status?: LinkStatus; now: Date },
    page: PageRequest,
  ): Promise<Page<Link>> {
    const query = manager
      .createQueryBuilder(LinkOrmEntity, 'l')
      .where('l.business_id = :businessId AND l.deleted_at IS NULL', { businessId: caller.businessId });
    const merchantId = isMerchantCaller(caller) ? caller.merchantId : filter.merchantId;
    if (merchantId) query.andWhere('l.merchant_id = :merchantId', { merchantId });
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
      manager,
      rows.map((r) => asLinkId(r.linkId)),
    );
    return {
      items: rows.map((row) => this.fromRow(row, processors.get(asLinkId(row.linkId)) ?? [])),
      page: page.page,
      limit: page.limit,
      total,
    };
  }

  async insert(manager: EntityManager, link: Link): Promise<void> {
    await manager.insert(LinkOrmEntity, this.toRow(link));
    await this.insertProcessors(manager, link.id, link.snapshot().countryProcessorIds);
  }

  async save(manager: EntityManager, link: Link): Promise<void> {
    await manager.save(this.toRow(link));
    const stored = (await this.processorsOf(manager, [link.id])).get(link.id) ?? [];
    const wanted = link.snapshot().countryProcessorIds;
    const same = stored.length === wanted.length && stored.every((p) => wanted.includes(p.countryProcessorId));
    if (same) return;
    await manager.delete(LinkCountryProcessorOrmEntity, { linkId: link.id });
    await this.insertProcessors(manager, link.id, wanted);
  }

  async processorsOf(manager: EntityManager, linkIds: readonly LinkId[]): Promise<Map<LinkId, StoredLinkProcessor[]>> {
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

  private async insertProcessors(manager: EntityManager, linkId: LinkId, countryProcessorIds: readonly string[]): Promise<void> {
    await manager.insert(
      LinkCountryProcessorOrmEntity,
      countryProcessorIds.map((countryProcessorId) => ({ linkCountryProcessorId: crypto.randomUUID(), linkId, countryProcessorId })),
    );
  }

  private async toLink(manager: EntityManager, row: LinkOrmEntity): Promise<Link> {
    const processors = await this.processorsOf(manager, [asLinkId(row.linkId)]);
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
