import { Injectable } from '@nestjs/common';
import { Guard, managerOf, scopeNamedCondition } from '@pcs/database';
import { asPaymentIntentId, Page, pageOffset, PageRequest, PaymentIntentId, TenantScope, Transaction } from '@pcs/kernel';
import { Brackets, In } from 'typeorm';
import { B2bCheckoutRepository, B2bPaymentIntentFilters, B2bPaymentIntentRecord } from '../b2b/b2b-checkout.repository';
import { CHECKOUT_EXPIRED_REASON } from '../domain/b2b-status';
import { B2bCheckout } from '../domain/b2b-checkout';
import { B2bCheckoutOrmEntity } from './b2b-checkout.orm-entity';
import { intentFromRow } from './payment-intent.mapper';
import { PaymentIntentOrmEntity } from './payment-intent.orm-entity';

function checkoutFromRow(row: B2bCheckoutOrmEntity): B2bCheckout {
  return {
    ...row,
    paymentIntentId: asPaymentIntentId(row.paymentIntentId),
    invoiceDetails: row.invoiceDetails,
  };
}

/** Statuses a checkout can still be paid or expire from (the partial index payment_intent_b2b_open_idx). */
const UNPAID = ['REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_CONFIRMATION', 'REQUIRES_ACTION'];

@Injectable()
export class TypeOrmB2bCheckoutRepository extends B2bCheckoutRepository {
  recordedAlongside(checkout: B2bCheckout): Guard {
    return Guard.of(
      `INSERT INTO b2b_checkout (payment_intent_id, reference, credential_id, redirect_url, include_all_payment_methods, invoice_details, expires_at, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING payment_intent_id`,
      [
        checkout.paymentIntentId,
        checkout.reference,
        checkout.credentialId,
        checkout.redirectUrl,
        checkout.includeAllPaymentMethods,
        checkout.invoiceDetails === null ? null : JSON.stringify(checkout.invoiceDetails),
        checkout.expiresAt,
        checkout.createdAt,
      ],
    );
  }

  async findByPaymentIntent(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<B2bCheckout | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(B2bCheckoutOrmEntity, { where: { paymentIntentId } });
    return row ? checkoutFromRow(row) : null;
  }

  async findByReference(tx: Transaction, reference: string): Promise<B2bCheckout | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(B2bCheckoutOrmEntity, { where: { reference } });
    return row ? checkoutFromRow(row) : null;
  }

  async list(
    tx: Transaction,
    scope: TenantScope,
    filters: B2bPaymentIntentFilters,
    page: PageRequest,
  ): Promise<Page<B2bPaymentIntentRecord>> {
    const manager = managerOf(tx);
    const inScope = scopeNamedCondition(scope, 'i');
    const query = manager
      .createQueryBuilder(PaymentIntentOrmEntity, 'i')
      .innerJoin(B2bCheckoutOrmEntity, 'c', 'c.payment_intent_id = i.payment_intent_id')
      .where("i.origin = 'B2B'")
      .andWhere(inScope.sql, inScope.parameters);
    if (filters.externalReference !== undefined)
      query.andWhere('i.external_reference = :externalReference', { externalReference: filters.externalReference });
    if (filters.dateFrom) query.andWhere('i.created_at >= :dateFrom', { dateFrom: filters.dateFrom });
    if (filters.dateUntil) query.andWhere('i.created_at <= :dateUntil', { dateUntil: filters.dateUntil });
    const status = filters.status;
    if (status) {
      query.andWhere('i.status IN (:...statuses)', { statuses: status.statuses });
      if (status.rejected !== undefined)
        query.andWhere(status.rejected ? 'i.last_payment_error IS NOT NULL' : 'i.last_payment_error IS NULL');
      if (status.expired !== undefined)
        query.andWhere(
          new Brackets((q) =>
            status.expired
              ? q.where('i.cancellation_reason = :expired', { expired: CHECKOUT_EXPIRED_REASON })
              : q.where('i.cancellation_reason IS DISTINCT FROM :expired', { expired: CHECKOUT_EXPIRED_REASON }),
          ),
        );
    }
    const total = await query.clone().getCount();
    const rows = total
      ? await query
          .orderBy('i.created_at', 'DESC')
          .addOrderBy('i.payment_intent_id', 'DESC')
          .offset(pageOffset(page))
          .limit(page.limit)
          .getMany()
      : [];
    const checkouts = rows.length
      ? await manager.find(B2bCheckoutOrmEntity, { where: { paymentIntentId: In(rows.map((r) => r.paymentIntentId)) } })
      : [];
    const byIntent = new Map(checkouts.map((c) => [c.paymentIntentId, checkoutFromRow(c)]));
    return {
      items: rows.map((row) => ({ intent: intentFromRow(row), checkout: byIntent.get(row.paymentIntentId)! })),
      page: page.page,
      limit: page.limit,
      total,
    };
  }

  async pastDue(tx: Transaction, now: Date, limit: number): Promise<PaymentIntentId[]> {
    const manager = managerOf(tx);
    const rows: { payment_intent_id: string }[] = await manager.query(
      `SELECT i.payment_intent_id FROM payment_intent i JOIN b2b_checkout c USING (payment_intent_id)
        WHERE i.origin = 'B2B' AND i.status = ANY($1) AND c.expires_at <= $2
        ORDER BY c.expires_at LIMIT $3`,
      [UNPAID, now, limit],
    );
    return rows.map((r) => asPaymentIntentId(r.payment_intent_id));
  }
}
