import { Injectable } from '@nestjs/common';
import { recordedOnce } from './already-recorded';
import {
  EntityColumns,
  Guard,
  isRequirementFailure,
  JoinedRead,
  managerOf,
  queryPrepared,
  Requirement,
  runChange,
  scopeCondition,
  scopeWhere,
  shiftParameters,
  transactionOf,
  writtenIfRequired,
} from '@pcs/database';
import { EventRecorder, NewEvent } from '@pcs/events';
import { ChangeAlongside, PayerId, PaymentIntentId, Precondition, TenantScope, Transaction } from '@pcs/kernel';
import { EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { OPEN_STATUSES, PaymentIntent } from '../domain/payment-intent';
import { GatewayEventLog, PaymentIntentRepository } from '../payment-intent.repository';
import { paymentIntentRepresentation } from '../payment-intent.representation';
import { intentFromRow, intentToRow } from './payment-intent.mapper';
import { TypeOrmPayinRepository } from './typeorm-payin.repository';
import type { Payin } from '../domain/payin';
import type { RefundRecords } from '../ledger/payin.repository';
import { PaymentIntentOrmEntity } from './payment-intent.orm-entity';

/**
 * Payment intents in PostgreSQL. Writing an intent also records the events of
 * what happened to it (contract §14) in the same unit of work: an event exists
 * exactly when the change it announces committed.
 */
@Injectable()
export class TypeOrmPaymentIntentRepository extends PaymentIntentRepository {
  constructor(
    private readonly events: EventRecorder,
    private readonly payins: TypeOrmPayinRepository,
  ) {
    super();
  }

  async findVisible(tx: Transaction, scope: TenantScope, paymentIntentId: PaymentIntentId, lock = false): Promise<PaymentIntent | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(PaymentIntentOrmEntity, {
      where: { paymentIntentId, ...scopeWhere(scope) },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? intentFromRow(row) : null;
  }

  async findForRefund(
    tx: Transaction,
    scope: TenantScope,
    paymentIntentId: PaymentIntentId,
    operationId: string | null,
    lock = false,
  ): Promise<{ intent: PaymentIntent; version: string; records: RefundRecords } | null> {
    const manager = managerOf(tx);
    const read = await this.findVisibleWith(
      manager,
      scope,
      paymentIntentId,
      this.payins.refundRecords(manager, paymentIntentId, operationId),
      lock,
    );
    return read && { intent: read.intent, version: read.version, records: read.joined };
  }

  async recordRefunds(tx: Transaction, intent: PaymentIntent, version: string, refunds: readonly Payin[]): Promise<boolean> {
    const manager = managerOf(tx);
    return recordedOnce(async () => {
      const inserts = refunds.map((refund) => this.payins.insertGuard(manager, refund));
      return this.saveWith(manager, intent, version, {
        guards: inserts.map((insert) => insert.guard),
        events: inserts.flatMap((insert) => insert.events),
      });
    });
  }

  /** The intent and another read joined to it (one round trip), with the row's version, for `saveWith`; with `lock`, taken for update. */
  private async findVisibleWith<T>(
    manager: EntityManager,
    scope: TenantScope,
    paymentIntentId: PaymentIntentId,
    joined: JoinedRead<T>,
    lock = false,
  ): Promise<{ intent: PaymentIntent; version: string; joined: T } | null> {
    const columns = new EntityColumns(manager, PaymentIntentOrmEntity, 'i_');
    const values: unknown[] = [paymentIntentId];
    const inScope = scopeCondition(scope, 'i', values);
    const { statement, read } = JoinedRead.parts(joined);
    const joinedSql = shiftParameters(statement.sql, values.length);
    values.push(...statement.values);
    const rows = await queryPrepared<Record<string, unknown>>(
      manager,
      `SELECT ${columns.select('i')}, i.xmin::text AS i_version, j.*
         FROM payment_intent i LEFT JOIN LATERAL (${joinedSql}) j ON true
        WHERE i.payment_intent_id = $1 AND ${inScope} ${lock ? 'FOR UPDATE OF i' : ''}`,
      values,
    );
    const row = rows[0] && columns.from(rows[0]);
    return row ? { intent: intentFromRow(row), version: String(rows[0].i_version), joined: read(rows) } : null;
  }

  async lockById(tx: Transaction, paymentIntentId: PaymentIntentId, skipLocked = false): Promise<PaymentIntent | null> {
    const manager = managerOf(tx);
    const query = manager
      .createQueryBuilder(PaymentIntentOrmEntity, 'i')
      .setLock('pessimistic_write')
      .where('i.payment_intent_id = :paymentIntentId', { paymentIntentId });
    if (skipLocked) query.setOnLocked('skip_locked');
    const row = await query.getOne();
    return row ? intentFromRow(row) : null;
  }

  async findById(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<PaymentIntent | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(PaymentIntentOrmEntity, { where: { paymentIntentId } });
    return row ? intentFromRow(row) : null;
  }

  async insert(tx: Transaction, intent: PaymentIntent): Promise<void> {
    const manager = managerOf(tx);
    return recordedOnce(async () => {
      const [sql, values] = this.insertStatement(manager, intent);
      await this.write(manager, intent, sql, values);
    });
  }

  async recordWhile(tx: Transaction, intent: PaymentIntent, requirement: Requirement): Promise<boolean> {
    const manager = managerOf(tx);
    return recordedOnce(async () => {
      const [sql, values] = this.insertStatement(manager, intent);
      return writtenIfRequired(this.write(manager, intent, sql, values, requirement));
    });
  }

  async recordWith(
    tx: Transaction,
    intent: PaymentIntent,
    also: { alongside: readonly ChangeAlongside[]; events: readonly NewEvent[] },
  ): Promise<boolean> {
    const manager = managerOf(tx);
    return recordedOnce(async () => {
      const [sql, values] = this.insertStatement(manager, intent);
      return writtenIfRequired(
        this.events.recordAll(transactionOf(manager), [...eventsOf(intent), ...also.events], { sql, values, guards: also.alongside }),
      );
    });
  }

  async recordCharged(
    tx: Transaction,
    intent: PaymentIntent,
    attempt: Payin,
    preconditions: readonly Precondition[],
  ): Promise<string | null> {
    const manager = managerOf(tx);
    return recordedOnce(async () => {
      const [sql, values] = this.insertStatement(manager, intent);
      const charge = this.payins.insertGuard(manager, attempt);
      try {
        const [first] = await this.events.recordAll(transactionOf(manager), [...eventsOf(intent), ...charge.events], {
          sql,
          values,
          guards: [charge.guard],
          requires: Requirement.all(...preconditions),
        });
        return first.writtenIn;
      } catch (error) {
        if (isRequirementFailure(error)) return null;
        throw error;
      }
    });
  }

  async saveChargedWith(
    tx: Transaction,
    intent: PaymentIntent,
    attempt: Payin,
    writtenIn: string,
    also: readonly ChangeAlongside[],
  ): Promise<boolean> {
    const manager = managerOf(tx);
    const charge = this.payins.updateGuard(manager, attempt, writtenIn);
    const events = [...charge.events, ...eventsOf(intent)];
    if (events.length === 0) return false;
    // The intent first, then its attempt, then the rest: the order every writer of the three takes their rows in.
    const [sql, values] = this.updateStatement(manager, intent, writtenIn);
    return writtenIfRequired(
      this.events.recordAll(transactionOf(manager), events, {
        guards: [Guard.of(sql, values, { required: 'the payment intent is as its creation wrote it' }), charge.guard, ...also],
      }),
    );
  }

  /** The intent's row as it now is: a plain UPDATE (the intent was read, and locked, in this transaction). */
  async save(tx: Transaction, intent: PaymentIntent): Promise<void> {
    const manager = managerOf(tx);
    const [sql, values] = this.updateStatement(manager, intent);
    await this.write(manager, intent, sql, values, Requirement.rowFound('payment intent'));
  }

  /** The intent's whole row by its id (with `version`, only while its xmin is that transaction id), its text built once (EntityColumns.update). */
  private updateStatement(manager: EntityManager, intent: PaymentIntent, version?: string): [string, unknown[]] {
    const row = intentToRow(intent);
    const built = new EntityColumns(manager, PaymentIntentOrmEntity, '').update(row, version);
    if (built) return built;
    const { paymentIntentId, ...changes } = row;
    const query = manager.createQueryBuilder().update(PaymentIntentOrmEntity).set(changes).where('payment_intent_id = :paymentIntentId', {
      paymentIntentId,
    });
    if (version !== undefined) query.andWhere('xmin = CAST(CAST(:version AS text) AS xid)', { version });
    return query.returning('payment_intent_id').getQueryAndParameters();
  }

  /** Saves the intent only if it is still the version read, in one statement with `also`'s changes and every event (theirs first). */
  private async saveWith(
    manager: EntityManager,
    intent: PaymentIntent,
    version: string,
    also: { guards: readonly Guard[]; events: readonly NewEvent[] },
  ): Promise<boolean> {
    const [sql, values] = this.updateStatement(manager, intent, version);
    return writtenIfRequired(
      this.events.recordAll(transactionOf(manager), [...also.events, ...eventsOf(intent)], {
        guards: [Guard.of(sql, values, { required: 'the payment intent is as it was read' }), ...also.guards],
      }),
    );
  }

  private insertStatement(manager: EntityManager, intent: PaymentIntent): [string, unknown[]] {
    const row = intentToRow(intent);
    // The text built once (EntityColumns.insert); the builder for a row it does not take.
    return (
      new EntityColumns(manager, PaymentIntentOrmEntity, '').insert(row) ??
      // The jsonb columns' types confuse TypeORM's partial-entity typing; the row is complete.
      manager
        .createQueryBuilder()
        .insert()
        .into(PaymentIntentOrmEntity)
        .values(row as QueryDeepPartialEntity<PaymentIntentOrmEntity>)
        .getQueryAndParameters()
    );
  }

  /** The change and the events of what happened to the intent, in one statement (with its condition, if any). */
  private async write(
    manager: EntityManager,
    intent: PaymentIntent,
    sql: string,
    values: unknown[],
    requires?: Requirement,
  ): Promise<void> {
    const events = eventsOf(intent);
    if (events.length === 0) return runChange(manager, sql, values, requires);
    await this.events.recordAll(transactionOf(manager), events, { sql, values, requires });
  }

  async hasOpenForPayer(tx: Transaction, payerId: PayerId): Promise<boolean> {
    const manager = managerOf(tx);
    // Served by payment_intent_payer_open_idx.
    return manager.exists(PaymentIntentOrmEntity, { where: { payerId, status: In([...OPEN_STATUSES]) } });
  }
}

/** The events of what happened to the intent since it was last written (each handed out once), as the payins API shows it. */
function eventsOf(intent: PaymentIntent): NewEvent[] {
  const changes = intent.pullChanges();
  if (changes.length === 0) return [];
  const { businessId, merchantId, updatedAt } = intent.snapshot();
  const object = paymentIntentRepresentation(intent);
  return changes.map((type) => ({ type, businessId, merchantId, subjectId: intent.id, object, at: updatedAt }));
}

@Injectable()
export class TypeOrmGatewayEventLog extends GatewayEventLog {
  async record(tx: Transaction, gateway: string, eventId: string, reference: string): Promise<boolean> {
    const manager = managerOf(tx);
    const inserted: unknown[] = await manager.query(
      `INSERT INTO gateway_event (gateway, event_id, reference) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING event_id`,
      [gateway, eventId, reference],
    );
    return inserted.length === 1;
  }
}
