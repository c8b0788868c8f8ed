import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@pcs/events';
import {
  Caller,
  currencyExponent,
  decimalToScaledInteger,
  isMerchantCaller,
  OrderBy,
  Page,
  pageOffset,
  PageRequest,
  PaymentIntentId,
  SortBy,
} from '@pcs/kernel';
import { EntityManager, LessThan, MoreThan, SelectQueryBuilder } from 'typeorm';
import { Payin } from '../domain/payin';
import { payinRepresentation } from '../payin.representation';
import { PayinFilters, PayinRepository } from '../payin.repository';
import { payinFromRow, payinToRow } from './payin.mapper';
import { PayinOrmEntity } from './payin.orm-entity';

// Amount in major units, exact: minor units over the currency's power of ten.
const MAJOR_AMOUNT = `(p.amount::numeric / CASE WHEN p.currency IN ('CLP', 'PYG') THEN 1 ELSE 100 END)`;

/**
 * A wire bound (major units) in minor units, rounded towards the inside of
 * the range when it has more decimals than the currency: 10.5 CLP as a lower
 * bound is 11, as an upper bound 10. Integer arithmetic only.
 */
export function boundInMinorUnits(value: number, exponent: number, round: 'up' | 'down'): number {
  const exact = decimalToScaledInteger(value, exponent);
  if (exact !== null) return exact;
  const extra = 9;
  const fine = decimalToScaledInteger(value, exponent + extra);
  if (fine === null) return round === 'up' ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  const unit = 10 ** extra;
  const floor = Math.floor(fine / unit);
  return round === 'up' ? floor + 1 : floor;
}

@Injectable()
export class TypeOrmPayinRepository extends PayinRepository {
  constructor(private readonly events: EventRecorder) {
    super();
  }

  async insert(manager: EntityManager, payin: Payin): Promise<void> {
    await manager.createQueryBuilder().insert().into(PayinOrmEntity).values(payinToRow(payin)).execute();
    await this.announce(manager, payin);
  }

  async save(manager: EntityManager, payin: Payin): Promise<void> {
    await manager.save(payinToRow(payin));
    await this.announce(manager, payin);
  }

  /** A refund's events, recorded with its row (contract §14); numbered in its payment intent's sequence. */
  private async announce(manager: EntityManager, payin: Payin): Promise<void> {
    const types = payin.pullRefundEvents();
    if (types.length === 0) return;
    const p = payin.snapshot();
    const object = payinRepresentation(p);
    for (const type of types) {
      await this.events.record(manager, {
        type,
        businessId: p.businessId,
        merchantId: p.merchantId,
        subjectId: p.paymentIntentId,
        object,
        at: p.updatedAt,
      });
    }
  }

  async get(manager: EntityManager, transactionId: string, lock = false): Promise<Payin | null> {
    const row = await manager.findOne(PayinOrmEntity, {
      where: { transactionId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? payinFromRow(row) : null;
  }

  async findByExternalId(manager: EntityManager, gateway: string, externalId: string): Promise<Payin | null> {
    const row = await manager.findOne(PayinOrmEntity, { where: { gateway, externalId } });
    return row ? payinFromRow(row) : null;
  }

  async openAttempts(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin[]> {
    const rows = await manager
      .createQueryBuilder(PayinOrmEntity, 'p')
      .setLock('pessimistic_write')
      .where(`p.payment_intent_id = :paymentIntentId AND p.transaction_type = 'PAYIN' AND p.status IN ('PENDING', 'SCHEDULED')`, {
        paymentIntentId,
      })
      .getMany();
    return rows.map(payinFromRow);
  }

  async openOffSessionCharge(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    const row = await manager.findOne(PayinOrmEntity, {
      where: { paymentIntentId, transactionType: 'PAYIN', paymentIntentInitiator: 'MERCHANT', status: 'PENDING' },
      order: { createdAt: 'DESC' },
    });
    return row ? payinFromRow(row) : null;
  }

  async openCheckout(manager: EntityManager, paymentIntentId: PaymentIntentId, now: Date): Promise<Payin | null> {
    const row = await manager.findOne(PayinOrmEntity, {
      where: {
        paymentIntentId,
        transactionType: 'PAYIN',
        paymentIntentInitiator: 'PAYER',
        status: 'PENDING',
        sessionExpiresAt: MoreThan(now),
      },
      order: { createdAt: 'DESC' },
    });
    return row ? payinFromRow(row) : null;
  }

  async latestApprovedCharge(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    const row = await manager.findOne(PayinOrmEntity, {
      where: { paymentIntentId, transactionType: 'PAYIN', status: 'APPROVED' },
      order: { createdAt: 'DESC' },
    });
    return row ? payinFromRow(row) : null;
  }

  async latestCharge(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    // Served by payin_intent_idx (payment_intent_id, created_at).
    const row = await manager.findOne(PayinOrmEntity, {
      where: { paymentIntentId, transactionType: 'PAYIN' },
      order: { createdAt: 'DESC' },
    });
    return row ? payinFromRow(row) : null;
  }

  async pendingManualRefunds(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin[]> {
    const rows = await manager.find(PayinOrmEntity, {
      where: { paymentIntentId, conceptCode: 'MANUAL_REFUND', manualRefundStatus: 'MANUAL_REFUND_PENDING', status: 'PENDING' },
      order: { createdAt: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
    return rows.map(payinFromRow);
  }

  async recordedByOperation(manager: EntityManager, paymentIntentId: PaymentIntentId, operationId: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM payin WHERE payment_intent_id = $1 AND (transaction_id = $2 OR confirmed_by_operation = $2) LIMIT 1`,
      [paymentIntentId, operationId],
    );
    return rows.length > 0;
  }

  async dueForReconciliation(manager: EntityManager, now: Date, limit: number): Promise<Payin[]> {
    // Served by payin_reconcile_idx (partial: open payins with a reconciliation time).
    const rows = await manager
      .createQueryBuilder(PayinOrmEntity, 'p')
      .where(`p.status IN ('PENDING', 'SCHEDULED') AND p.reconcile_at IS NOT NULL AND p.reconcile_at <= :now`, { now })
      .orderBy('p.reconcile_at')
      .limit(limit)
      .getMany();
    return rows.map(payinFromRow);
  }

  async expiredSessions(manager: EntityManager, now: Date, limit: number): Promise<Payin[]> {
    // Served by payin_open_sessions_idx.
    const rows = await manager.find(PayinOrmEntity, {
      where: { status: 'PENDING', sessionExpiresAt: LessThan(now) },
      order: { sessionExpiresAt: 'ASC' },
      take: limit,
    });
    return rows.map(payinFromRow);
  }

  /** Operation 36. */
  async list(manager: EntityManager, caller: Caller, filters: PayinFilters, page: PageRequest): Promise<Page<Payin>> {
    const query = manager.createQueryBuilder(PayinOrmEntity, 'p');
    this.applyFilters(query, caller, filters);
    const direction = filters.order ?? OrderBy.DESC;
    if (filters.sort === SortBy.AMOUNT) {
      if (filters.currency) query.orderBy('p.amount', direction);
      else query.orderBy(MAJOR_AMOUNT, direction);
    } else if (filters.sort === SortBy.STATUS) {
      query.orderBy('p.status', direction);
    }
    query
      .addOrderBy('p.created_at', filters.sort === undefined || filters.sort === SortBy.DATE ? direction : 'DESC')
      .addOrderBy('p.transaction_id', 'ASC');
    // A plain count(*): getManyAndCount would count DISTINCT ids, which sorts every matching row.
    const counted = manager.createQueryBuilder(PayinOrmEntity, 'p').select('count(*)::int', 'total');
    this.applyFilters(counted, caller, filters);
    const [rows, count] = await Promise.all([
      query.offset(pageOffset(page)).limit(page.limit).getMany(),
      counted.getRawOne<{ total: number }>(),
    ]);
    const total = count?.total ?? 0;
    return { items: rows.map(payinFromRow), page: page.page, limit: page.limit, total };
  }

  private applyFilters(query: SelectQueryBuilder<PayinOrmEntity>, caller: Caller, f: PayinFilters): void {
    const merchantId = isMerchantCaller(caller) ? caller.merchantId : f.merchantId;
    if (merchantId)
      query.where('p.merchant_id = :merchantId AND p.business_id = :businessId', { merchantId, businessId: caller.businessId });
    else query.where('p.business_id = :businessId', { businessId: caller.businessId });
    if (isMerchantCaller(caller) && f.merchantId && f.merchantId !== caller.merchantId) query.andWhere('false');
    if (f.status) query.andWhere('p.status = :status', { status: f.status });
    if (f.currency) query.andWhere('p.currency = :currency', { currency: f.currency });
    if (f.dateFrom) query.andWhere('p.created_at >= :dateFrom', { dateFrom: f.dateFrom });
    if (f.dateUntil) query.andWhere('p.created_at <= :dateUntil', { dateUntil: f.dateUntil });
    for (const [bound, value, operator] of [
      ['minAmount', f.minAmount, '>='],
      ['maxAmount', f.maxAmount, '<='],
    ] as const) {
      if (value === undefined) continue;
      if (f.currency) {
        // Exact: the bound in the currency's minor units, compared on the indexed column.
        query.andWhere(`p.amount ${operator} :${bound}`, {
          [bound]: boundInMinorUnits(value, currencyExponent(f.currency), operator === '>=' ? 'up' : 'down'),
        });
      } else {
        query.andWhere(`${MAJOR_AMOUNT} ${operator} :${bound}::numeric`, { [bound]: String(value) });
      }
    }
  }
}
