/*
 * Why one file: every statement of the payin port, with the guards its writes take.
 */
import { recordedOnce } from './already-recorded';
import { Injectable } from '@nestjs/common';
import { EntityColumns, Guard, JoinedRead, managerOf, Requirement, runChange, transactionOf, writtenIfRequired } from '@pcs/database';
import { EventRecorder, NewEvent } from '@pcs/events';
import { MerchantId, PaymentIntentId, Transaction } from '@pcs/kernel';
import { EntityManager, In, LessThan, MoreThan } from 'typeorm';
import { Payin, PayinState } from '../domain/payin';
import { payinRepresentation } from '../ledger/payin.representation';
import { PayinRepository, RefundRecords } from '../ledger/payin.repository';
import { payinFromRow, payinToRow } from './payin.mapper';
import { PayinOrmEntity } from './payin.orm-entity';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class TypeOrmPayinRepository extends PayinRepository {
  constructor(private readonly events: EventRecorder) {
    super();
  }

  async insert(tx: Transaction, payin: Payin): Promise<void> {
    const manager = managerOf(tx);
    return recordedOnce(async () => {
      const [sql, values] = this.insertQuery(manager, payin);
      await this.write(manager, payin, sql, values);
    });
  }

  insertGuard(manager: EntityManager, payin: Payin): { guard: Guard; events: NewEvent[] } {
    const [sql, values] = this.insertQuery(manager, payin);
    return { guard: Guard.of(`${sql} RETURNING transaction_id`, values), events: this.eventsOf(payin) };
  }

  /**
   * The payin's row as it now is, as a write in another statement: only if
   * nothing wrote the row since the transaction `writtenIn` (its xmin).
   */
  updateGuard(manager: EntityManager, payin: Payin, writtenIn: string): { guard: Guard; events: NewEvent[] } {
    const [sql, values] = this.updateQuery(manager, payin, undefined, writtenIn);
    return { guard: Guard.of(sql, values, { required: 'the payin is as its creation wrote it' }), events: this.eventsOf(payin) };
  }

  /** The payin's row as it now is: a plain UPDATE (the payin was read in this transaction). */
  async save(tx: Transaction, payin: Payin): Promise<void> {
    const manager = managerOf(tx);
    const [sql, values] = this.updateQuery(manager, payin);
    await this.write(manager, payin, sql, values, Requirement.rowFound('payin'));
  }

  async saveIfStill(tx: Transaction, payin: Payin, as: PayinState, options: { undisputed?: boolean } = {}): Promise<boolean> {
    const manager = managerOf(tx);
    const undisputed = options.undisputed === true;
    const [sql, values] = this.updateQuery(manager, payin, as, undefined, undisputed);
    const reason = 'the payin is as it was read';
    // Guarded by the intent's row (FOR SHARE), it must lock that row before its events take their sequence, as every
    // writer of the intent does: as a guard, which runs before the sequences (a change would run after them).
    const events = undisputed ? this.eventsOf(payin) : [];
    if (events.length > 0)
      return writtenIfRequired(
        this.events.recordAll(transactionOf(manager), events, { guards: [Guard.of(sql, values, { required: reason })] }),
      );
    return writtenIfRequired(this.write(manager, payin, sql, values, Requirement.changeWritten(reason)));
  }

  refundRecords(manager: EntityManager, paymentIntentId: PaymentIntentId, operationId: string | null): JoinedRead<RefundRecords> {
    const columns = new EntityColumns(manager, PayinOrmEntity, 'payin_');
    const list = columns.select('p');
    // Served by payin_intent_approved_charge_idx, payin_intent_open_refund_idx and the primary key.
    const sql = `(SELECT 'charge' AS payin_role, ${list} FROM payin p
                   WHERE p.payment_intent_id = $1 AND p.transaction_type = 'PAYIN' AND p.status = 'APPROVED'
                   ORDER BY p.created_at DESC LIMIT 1)
                 UNION ALL
                 SELECT 'open', ${list} FROM payin p
                  WHERE p.payment_intent_id = $1 AND p.transaction_type = 'REFUND' AND p.status IN ('PENDING', 'SCHEDULED')
                 UNION ALL
                 SELECT 'operation', ${list} FROM payin p
                  WHERE p.transaction_id = $2 OR (p.payment_intent_id = $1 AND p.confirmed_by_operation = $2)`;
    return JoinedRead.of(sql, [paymentIntentId, operationId], (rows) => {
      const of = (role: string) =>
        rows
          .filter((row) => row.payin_role === role)
          .flatMap((row) => {
            const entity = columns.from(row);
            return entity ? [payinFromRow(entity)] : [];
          });
      return {
        charge: of('charge')[0] ?? null,
        open: of('open').sort((a, b) => a.snapshot().createdAt.getTime() - b.snapshot().createdAt.getTime()),
        byOperation: of('operation')[0] ?? null,
      };
    });
  }

  async reconciliationRecords(
    tx: Transaction,
    merchantId: MerchantId,
    gateway: string,
    references: readonly string[],
    from: Date,
    to: Date,
  ): Promise<Payin[]> {
    const manager = managerOf(tx);
    const ids = references.filter((r) => UUID.test(r));
    // The approved collections at the gateway released in the window or named by the report…
    const charges = await manager
      .createQueryBuilder(PayinOrmEntity, 'p')
      .where(`p.merchant_id = :merchantId AND p.gateway = :gateway AND p.transaction_type = 'PAYIN' AND p.status = 'APPROVED'`, {
        merchantId,
        gateway,
      })
      .andWhere(`((p.liquidation_date >= :from AND p.liquidation_date < :to) OR p.transaction_id = ANY(:ids::uuid[]))`, { from, to, ids })
      .orderBy('p.created_at', 'ASC')
      .getMany();
    // …and the approved refunds that went back through that gateway (a refund row names no gateway: its intent's collection does),
    // those of these collections, and those approved in the window.
    const refunds = await manager
      .createQueryBuilder(PayinOrmEntity, 'r')
      .where(`r.merchant_id = :merchantId AND r.transaction_type = 'REFUND' AND r.status = 'APPROVED'`, { merchantId })
      .andWhere(
        `r.payment_intent_id IN (SELECT c.payment_intent_id FROM payin c
                                  WHERE c.merchant_id = :merchantId AND c.gateway = :gateway AND c.transaction_type = 'PAYIN' AND c.status = 'APPROVED')`,
        { gateway },
      )
      .andWhere(`((r.liquidation_date >= :from AND r.liquidation_date < :to) OR r.payment_intent_id = ANY(:intents::uuid[]))`, {
        from,
        to,
        intents: charges.map((c) => c.paymentIntentId),
      })
      .orderBy('r.created_at', 'ASC')
      .getMany();
    return [...charges, ...refunds].map(payinFromRow);
  }

  private insertQuery(manager: EntityManager, payin: Payin): [string, unknown[]] {
    const row = payinToRow(payin);
    // The text built once (EntityColumns.insert); the builder for a row it does not take.
    return (
      new EntityColumns(manager, PayinOrmEntity, '').insert(row) ??
      manager.createQueryBuilder().insert().into(PayinOrmEntity).values(row).getQueryAndParameters()
    );
  }

  /** UPDATE … RETURNING of the whole row; with `as`, only while the row is still in that state. */
  /**
   * The payin's whole row by its id: with `as`, only while its status is still the one read; with
   * `version`, only while its xmin is that transaction id. Its text built once (EntityColumns.update)
   * unless `as` is given.
   */
  private updateQuery(manager: EntityManager, payin: Payin, as?: PayinState, version?: string, undisputed = false): [string, unknown[]] {
    const entity = payinToRow(payin);
    const built = as ? null : new EntityColumns(manager, PayinOrmEntity, '').update(entity, version);
    if (built) return built;
    const { transactionId, ...row } = entity;
    const query = manager.createQueryBuilder().update(PayinOrmEntity).set(row).where('transaction_id = :transactionId', { transactionId });
    if (version !== undefined) query.andWhere('xmin = CAST(CAST(:version AS text) AS xid)', { version });
    // The intent's row taken FOR SHARE: a transaction opening a dispute holds it for update, so this waits for it and
    // then reads the intent as that transaction left it (READ COMMITTED locks return the newest row), dispute included.
    if (undisputed)
      query.andWhere(`(SELECT i.disputes = '[]'::jsonb FROM payment_intent i WHERE i.payment_intent_id = :undisputedIntent FOR SHARE)`, {
        undisputedIntent: entity.paymentIntentId,
      });
    if (as)
      query.andWhere('status = :readStatus AND manual_refund_status IS NOT DISTINCT FROM :readManualStatus', {
        readStatus: as.status,
        readManualStatus: as.manualRefundStatus,
      });
    return query.returning('transaction_id').getQueryAndParameters();
  }

  /** The change and a refund's events (contract §14, numbered in its payment intent's sequence), in one statement. */
  private async write(manager: EntityManager, payin: Payin, sql: string, values: unknown[], requires?: Requirement): Promise<void> {
    const events = this.eventsOf(payin);
    if (events.length === 0) return runChange(manager, sql, values, requires);
    await this.events.recordAll(transactionOf(manager), events, { sql, values, requires });
  }

  /** A refund's events not yet recorded. */
  private eventsOf(payin: Payin): NewEvent[] {
    const types = payin.pullRefundEvents();
    if (types.length === 0) return [];
    const p = payin.snapshot();
    const object = payinRepresentation(p);
    return types.map((type) => ({
      type,
      businessId: p.businessId,
      merchantId: p.merchantId,
      subjectId: p.paymentIntentId,
      object,
      at: p.updatedAt,
    }));
  }

  async get(tx: Transaction, transactionId: string, lock = false): Promise<Payin | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(PayinOrmEntity, {
      where: { transactionId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? payinFromRow(row) : null;
  }

  async findByExternalId(tx: Transaction, gateway: string, externalId: string): Promise<Payin | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(PayinOrmEntity, { where: { gateway, externalId } });
    return row ? payinFromRow(row) : null;
  }

  async openAttempts(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin[]> {
    const manager = managerOf(tx);
    const rows = await manager
      .createQueryBuilder(PayinOrmEntity, 'p')
      .setLock('pessimistic_write')
      .where(`p.payment_intent_id = :paymentIntentId AND p.transaction_type = 'PAYIN' AND p.status IN ('PENDING', 'SCHEDULED')`, {
        paymentIntentId,
      })
      .getMany();
    return rows.map(payinFromRow);
  }

  async anyOf(tx: Transaction, transactionIds: readonly string[]): Promise<Payin | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(PayinOrmEntity, {
      where: { transactionId: In([...transactionIds]) },
      order: { createdAt: 'DESC' },
    });
    return row ? payinFromRow(row) : null;
  }

  async attemptsOf(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin[]> {
    const manager = managerOf(tx);
    // Served by payin_intent_idx (payment_intent_id, created_at).
    const rows = await manager.find(PayinOrmEntity, {
      where: { paymentIntentId, transactionType: 'PAYIN' },
      order: { createdAt: 'ASC', transactionId: 'ASC' },
    });
    return rows.map(payinFromRow);
  }

  async openOffSessionCharge(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(PayinOrmEntity, {
      where: { paymentIntentId, transactionType: 'PAYIN', paymentIntentInitiator: 'MERCHANT', status: 'PENDING' },
      order: { createdAt: 'DESC' },
    });
    return row ? payinFromRow(row) : null;
  }

  async openCheckoutSession(tx: Transaction, paymentIntentId: PaymentIntentId, now: Date): Promise<Payin | null> {
    const manager = managerOf(tx);
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

  async latestApprovedCharge(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(PayinOrmEntity, {
      where: { paymentIntentId, transactionType: 'PAYIN', status: 'APPROVED' },
      order: { createdAt: 'DESC' },
    });
    return row ? payinFromRow(row) : null;
  }

  async refundsOf(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin[]> {
    const manager = managerOf(tx);
    // Served by payin_intent_idx (payment_intent_id, created_at).
    const rows = await manager.find(PayinOrmEntity, { where: { paymentIntentId, transactionType: 'REFUND' }, order: { createdAt: 'ASC' } });
    return rows.map(payinFromRow);
  }

  async latestCharge(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    const manager = managerOf(tx);
    // Served by payin_intent_idx (payment_intent_id, created_at).
    const row = await manager.findOne(PayinOrmEntity, {
      where: { paymentIntentId, transactionType: 'PAYIN' },
      order: { createdAt: 'DESC' },
    });
    return row ? payinFromRow(row) : null;
  }

  async dueForReconciliation(tx: Transaction, now: Date, limit: number): Promise<Payin[]> {
    const manager = managerOf(tx);
    // Served by payin_reconcile_idx (partial: open payins with a reconciliation time).
    const rows = await manager
      .createQueryBuilder(PayinOrmEntity, 'p')
      .where(`p.status IN ('PENDING', 'SCHEDULED') AND p.reconcile_at IS NOT NULL AND p.reconcile_at <= :now`, { now })
      .orderBy('p.reconcile_at')
      .limit(limit)
      .getMany();
    return rows.map(payinFromRow);
  }

  async dueForLookup(tx: Transaction, merchantId: MerchantId, gateway: string, since: Date, day: string, limit: number): Promise<Payin[]> {
    const manager = managerOf(tx);
    // Served by payin_lookup_idx (partial: approved collections). processor_checked_on is the lookups' own
    // column, outside the aggregate (no write of the payin touches it).
    const columns = new EntityColumns(manager, PayinOrmEntity, 'payin_');
    const rows = await manager.query<Record<string, unknown>[]>(
      `SELECT ${columns.select('p')} FROM payin p
        WHERE p.merchant_id = $1 AND p.gateway = $2
          AND p.transaction_type = 'PAYIN' AND p.status = 'APPROVED'
          AND p.updated_at >= $3 AND (p.processor_checked_on IS NULL OR p.processor_checked_on < $4::date)
        ORDER BY p.processor_checked_on NULLS FIRST, p.updated_at LIMIT $5`,
      [merchantId, gateway, since, day, limit],
    );
    return rows.flatMap((row) => {
      const entity = columns.from(row);
      return entity ? [payinFromRow(entity)] : [];
    });
  }

  async markLookedUp(tx: Transaction, transactionIds: readonly string[], day: string): Promise<void> {
    const manager = managerOf(tx);
    if (transactionIds.length === 0) return;
    await manager.query(`UPDATE payin SET processor_checked_on = $2::date WHERE transaction_id = ANY($1::uuid[])`, [
      [...transactionIds],
      day,
    ]);
  }

  async expiredSessions(tx: Transaction, now: Date, limit: number): Promise<Payin[]> {
    const manager = managerOf(tx);
    // Served by payin_open_sessions_idx.
    const rows = await manager.find(PayinOrmEntity, {
      where: { status: 'PENDING', sessionExpiresAt: LessThan(now) },
      order: { sessionExpiresAt: 'ASC' },
      take: limit,
    });
    return rows.map(payinFromRow);
  }
}
