import { Injectable } from '@nestjs/common';
import { Caller, DomainError, isMerchantCaller } from '@pcs/kernel';
import { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { PaymentIntent } from './domain/payment-intent';
import { intentFromRow, intentToRow } from './persistence/payment-intent.mapper';
import { PaymentIntentOrmEntity } from './persistence/payment-intent.orm-entity';

/** Loads and saves payment intents; tenancy is part of every load by a caller. */
@Injectable()
export class PaymentIntentRepository {
  async loadVisible(manager: EntityManager, caller: Caller, paymentIntentId: string, lock = false): Promise<PaymentIntent> {
    const row = await manager.findOne(PaymentIntentOrmEntity, {
      where: { paymentIntentId, businessId: caller.businessId, ...(isMerchantCaller(caller) ? { merchantId: caller.merchantId } : {}) },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!row) throw new DomainError('PAYMENT_INTENT_NOT_FOUND');
    return intentFromRow(row);
  }

  /** For the service's own flows (gateway events, sweeps), which act for no caller. */
  async lockById(manager: EntityManager, paymentIntentId: string, skipLocked = false): Promise<PaymentIntent | null> {
    const query = manager
      .createQueryBuilder(PaymentIntentOrmEntity, 'i')
      .setLock('pessimistic_write')
      .where('i.payment_intent_id = :paymentIntentId', { paymentIntentId });
    if (skipLocked) query.setOnLocked('skip_locked');
    const row = await query.getOne();
    return row ? intentFromRow(row) : null;
  }

  async findById(manager: EntityManager, paymentIntentId: string): Promise<PaymentIntent | null> {
    const row = await manager.findOne(PaymentIntentOrmEntity, { where: { paymentIntentId } });
    return row ? intentFromRow(row) : null;
  }

  /** A new intent: a plain INSERT (save() would read the row first). */
  async insert(manager: EntityManager, intent: PaymentIntent): Promise<void> {
    // The jsonb columns' types confuse TypeORM's partial-entity typing; the row is complete.
    await manager
      .createQueryBuilder()
      .insert()
      .into(PaymentIntentOrmEntity)
      .values(intentToRow(intent) as QueryDeepPartialEntity<PaymentIntentOrmEntity>)
      .execute();
  }

  async save(manager: EntityManager, intent: PaymentIntent): Promise<void> {
    await manager.save(intentToRow(intent));
  }
}
