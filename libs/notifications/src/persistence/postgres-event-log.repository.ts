import { Injectable } from '@nestjs/common';
import { managerOf, scopeCondition } from '@pcs/database';
import type { EventType } from '@pcs/events';
import { pageOffset, PageRequest, TenantScope, Transaction } from '@pcs/kernel';
import * as crypto from 'node:crypto';
import {
  DeliveryTarget,
  DeliveryView,
  EventBody,
  EventLogRepository,
  PendingDelivery,
  QueuedDelivery,
  SettledAttempt,
  UndispatchedEvent,
} from '../webhooks/event-log.repository';

/** The event log in PostgreSQL: `event` (the outbox), `webhook_delivery`, `webhook_attempt`. */
@Injectable()
export class PostgresEventLogRepository extends EventLogRepository {
  async page(
    tx: Transaction,
    scope: TenantScope,
    filters: { type?: EventType; subjectId?: string; delivered?: boolean },
    page: PageRequest,
  ): Promise<{ items: EventBody[]; total: number }> {
    const manager = managerOf(tx);
    const values: unknown[] = [];
    const where: string[] = [scopeCondition(scope, 'e', values)];
    if (filters.type) where.push(`e.type = $${values.push(filters.type)}`);
    if (filters.subjectId) where.push(`e.subject_id = $${values.push(filters.subjectId)}`);
    if (filters.delivered !== undefined) {
      where.push(
        `${filters.delivered ? 'NOT ' : ''}EXISTS (SELECT 1 FROM webhook_delivery d WHERE d.event_id = e.event_id AND d.status <> 'DELIVERED')`,
      );
    }
    const condition = where.join(' AND ');
    const [{ total }] = await manager.query<{ total: number }[]>(`SELECT count(*)::int AS total FROM event e WHERE ${condition}`, values);
    const rows = await manager.query<{ payload: string }[]>(
      `SELECT e.payload FROM event e WHERE ${condition} ORDER BY e.created_at DESC, e.event_id DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
      [...values, page.limit, pageOffset(page)],
    );
    return { items: rows.map((row) => JSON.parse(row.payload) as EventBody), total };
  }

  async find(tx: Transaction, scope: TenantScope, eventId: string): Promise<EventBody | null> {
    const manager = managerOf(tx);
    const values: unknown[] = [eventId];
    const [row] = await manager.query<{ payload: string }[]>(
      `SELECT e.payload FROM event e WHERE e.event_id = $1 AND ${scopeCondition(scope, 'e', values)}`,
      values,
    );
    return row ? (JSON.parse(row.payload) as EventBody) : null;
  }

  async deliveriesOf(tx: Transaction, eventId: string): Promise<DeliveryView[]> {
    const manager = managerOf(tx);
    const rows = await manager.query<
      { webhook_delivery_id: string; webhook_endpoint_id: string; url: string; status: string; attempts: DeliveryView['attempts'] | null }[]
    >(
      `SELECT d.webhook_delivery_id, d.webhook_endpoint_id, d.url, d.status,
              (SELECT json_agg(json_build_object('at', a.at, 'status', a.status, 'error', a.error, 'durationMs', a.duration_ms) ORDER BY a.at, a.webhook_attempt_id)
                 FROM webhook_attempt a WHERE a.webhook_delivery_id = d.webhook_delivery_id) AS attempts
         FROM webhook_delivery d WHERE d.event_id = $1 ORDER BY d.created_at, d.webhook_delivery_id`,
      [eventId],
    );
    return rows.map((row) => ({
      webhookEndpointId: row.webhook_endpoint_id,
      url: row.url,
      delivered: row.status === 'DELIVERED',
      attempts: (row.attempts ?? []).map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
    }));
  }

  async previousReceivers(tx: Transaction, eventId: string): Promise<string[]> {
    const manager = managerOf(tx);
    const rows = await manager.query<{ webhook_endpoint_id: string }[]>(
      `SELECT d.webhook_endpoint_id FROM webhook_delivery d JOIN webhook_endpoint w ON w.webhook_endpoint_id = d.webhook_endpoint_id
        WHERE d.event_id = $1 AND w.deleted_at IS NULL AND NOT w.disabled`,
      [eventId],
    );
    return rows.map((row) => row.webhook_endpoint_id);
  }

  async purgeBefore(tx: Transaction, cutoff: Date, limit: number): Promise<number> {
    const manager = managerOf(tx);
    // A SELECT around the DELETE: its rows are the count (a bare DELETE answers TypeORM's [rows, count] pair).
    const [{ n }] = await manager.query<{ n: number }[]>(
      `WITH gone AS (DELETE FROM event WHERE event_id IN (SELECT event_id FROM event WHERE created_at < $1 LIMIT $2) RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [cutoff, limit],
    );
    return n;
  }

  async lockUndispatched(tx: Transaction, eventIds: readonly string[]): Promise<UndispatchedEvent[]> {
    const manager = managerOf(tx);
    const rows = await manager.query<{ event_id: string; type: string; business_id: string; merchant_id: string; payload: string }[]>(
      `SELECT event_id, type, business_id, merchant_id, payload FROM event
       WHERE event_id = ANY($1::uuid[]) AND dispatched_at IS NULL ORDER BY event_id FOR UPDATE`,
      [eventIds],
    );
    return rows.map((row) => ({
      eventId: row.event_id,
      type: row.type,
      businessId: row.business_id,
      merchantId: row.merchant_id,
      payload: row.payload,
    }));
  }

  async markDispatched(tx: Transaction, eventIds: readonly string[]): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(`UPDATE event SET dispatched_at = now() WHERE event_id = ANY($1::uuid[])`, [eventIds]);
  }

  async queueDeliveries(tx: Transaction, targets: readonly DeliveryTarget[]): Promise<QueuedDelivery[]> {
    const manager = managerOf(tx);
    if (targets.length === 0) return [];
    const rows = await manager.query<{ webhook_delivery_id: string; event_id: string; webhook_endpoint_id: string; generation: number }[]>(
      `INSERT INTO webhook_delivery (webhook_delivery_id, event_id, webhook_endpoint_id, url, status, generation, created_at, updated_at)
       SELECT t.id, t.event_id, t.endpoint_id, t.url, 'PENDING', 1, now(), now()
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[]) AS t(id, event_id, endpoint_id, url)
       ON CONFLICT (event_id, webhook_endpoint_id) DO UPDATE
         SET status = 'PENDING', generation = webhook_delivery.generation + 1, url = EXCLUDED.url, updated_at = now()
       RETURNING webhook_delivery_id, event_id, webhook_endpoint_id, generation`,
      [targets.map(() => crypto.randomUUID()), targets.map((t) => t.eventId), targets.map((t) => t.endpointId), targets.map((t) => t.url)],
    );
    return rows.map((row) => ({
      deliveryId: row.webhook_delivery_id,
      eventId: row.event_id,
      endpointId: row.webhook_endpoint_id,
      generation: row.generation,
    }));
  }

  async pending(tx: Transaction, deliveryIds: readonly string[]): Promise<PendingDelivery[]> {
    const manager = managerOf(tx);
    const rows = await manager.query<
      { webhook_delivery_id: string; event_id: string; webhook_endpoint_id: string; payload: string; generation: number }[]
    >(
      `SELECT d.webhook_delivery_id, d.event_id, d.webhook_endpoint_id, e.payload, d.generation
         FROM webhook_delivery d JOIN event e ON e.event_id = d.event_id
        WHERE d.webhook_delivery_id = ANY($1::uuid[]) AND d.status = 'PENDING'`,
      [deliveryIds],
    );
    return rows.map((row) => ({
      deliveryId: row.webhook_delivery_id,
      eventId: row.event_id,
      endpointId: row.webhook_endpoint_id,
      generation: row.generation,
      payload: row.payload,
    }));
  }

  async settle(tx: Transaction, attempts: readonly SettledAttempt[]): Promise<Set<string>> {
    const manager = managerOf(tx);
    if (attempts.length === 0) return new Set();
    const settled = await manager.query<{ webhook_delivery_id: string }[]>(
      `WITH outcome AS (
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::timestamptz[], $6::int[], $7::text[], $8::int[], $9::text[])
           AS o(attempt_id, delivery_id, generation, next_status, at, http_status, error, duration_ms, url)
       ), attempt AS (
         INSERT INTO webhook_attempt (webhook_attempt_id, webhook_delivery_id, at, status, error, duration_ms)
         SELECT attempt_id, delivery_id, at, http_status, error, duration_ms FROM outcome
       ), settled AS (
         UPDATE webhook_delivery d SET status = o.next_status, url = o.url, updated_at = now()
           FROM outcome o
          WHERE d.webhook_delivery_id = o.delivery_id AND d.generation = o.generation AND d.status = 'PENDING'
         RETURNING d.webhook_delivery_id
       )
       SELECT webhook_delivery_id FROM settled`,
      [
        attempts.map(() => crypto.randomUUID()),
        attempts.map((a) => a.deliveryId),
        attempts.map((a) => a.generation),
        attempts.map((a) => a.nextStatus),
        attempts.map((a) => a.at),
        attempts.map((a) => a.httpStatus),
        attempts.map((a) => a.error),
        attempts.map((a) => a.durationMs),
        attempts.map((a) => a.url),
      ],
    );
    return new Set(settled.map((row) => row.webhook_delivery_id));
  }

  async failWithoutAttempt(tx: Transaction, deliveries: readonly { deliveryId: string; generation: number }[]): Promise<void> {
    const manager = managerOf(tx);
    if (deliveries.length === 0) return;
    await manager.query(
      `UPDATE webhook_delivery d SET status = 'FAILED', updated_at = now()
         FROM unnest($1::uuid[], $2::int[]) AS j(delivery_id, generation)
        WHERE d.webhook_delivery_id = j.delivery_id AND d.generation = j.generation AND d.status = 'PENDING'`,
      [deliveries.map((d) => d.deliveryId), deliveries.map((d) => d.generation)],
    );
  }
}
