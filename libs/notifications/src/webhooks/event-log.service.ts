import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { inTransaction, scopeCondition } from '@pcs/database';
import { EVENT_RETENTION_DAYS, EventType } from '@pcs/events';
import { Caller, DomainError, MerchantId, tenantScope, Page, pageOffset, PageRequest } from '@pcs/kernel';
import { MerchantAccess } from '@pcs/merchants';
import { DataSource } from 'typeorm';
import { EventDispatcher } from './event-dispatcher';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { WebhookEndpointService } from './webhook-endpoint.service';

/** An event as delivered (contract §14). */
export type EventBody = Record<string, unknown> & { id: string; type: EventType; businessId: string; merchantId: string };

export interface DeliveryView {
  readonly webhookEndpointId: string;
  readonly url: string;
  readonly delivered: boolean;
  readonly attempts: readonly { at: string; status: number | null; error: string | null; durationMs: number }[];
}

export interface EventLogFilters {
  readonly type?: EventType;
  readonly merchantId?: MerchantId;
  /** The events of one subject: a payment intent (its payment_intent.* and refund.* events) or a link. */
  readonly subjectId?: string;
  /** true: every delivery of the event succeeded (or it had none); false: some delivery is pending or failed. */
  readonly delivered?: boolean;
}

/** The event log and redelivery (contract §14). Another tenant's event is a 404. */
@Injectable()
export class EventLogService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: MerchantAccess,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly endpointService: WebhookEndpointService,
    private readonly dispatcher: EventDispatcher,
  ) {}

  async list(caller: Caller, filters: EventLogFilters, page: PageRequest): Promise<Page<EventBody>> {
    const scope = await this.access.scopeOf(caller, filters.merchantId);
    const values: unknown[] = [];
    const where: string[] = [scopeCondition(scope, 'e', values)];
    const add = (clause: string, value: unknown) => {
      values.push(value);
      where.push(clause.replace('?', `$${values.length}`));
    };
    if (filters.type) add('e.type = ?', filters.type);
    if (filters.subjectId) add('e.subject_id = ?', filters.subjectId);
    if (filters.delivered !== undefined) {
      where.push(
        `${filters.delivered ? 'NOT ' : ''}EXISTS (SELECT 1 FROM webhook_delivery d WHERE d.event_id = e.event_id AND d.status <> 'DELIVERED')`,
      );
    }
    const condition = where.join(' AND ');
    const [{ total }] = await this.dataSource.query<{ total: number }[]>(
      `SELECT count(*)::int AS total FROM event e WHERE ${condition}`,
      values,
    );
    const rows = await this.dataSource.query<{ payload: string }[]>(
      `SELECT e.payload FROM event e WHERE ${condition} ORDER BY e.created_at DESC, e.event_id DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
      [...values, page.limit, pageOffset(page)],
    );
    return { items: rows.map((row) => JSON.parse(row.payload) as EventBody), page: page.page, limit: page.limit, total };
  }

  async get(caller: Caller, eventId: string): Promise<EventBody & { deliveries: DeliveryView[] }> {
    const event = await this.load(caller, eventId);
    return { ...event, deliveries: await this.deliveries(eventId) };
  }

  /**
   * Queues a new delivery now: to the named endpoint, or to every endpoint
   * that had one and every endpoint that wants the event today. Older retries
   * of those deliveries become stale.
   */
  async redeliver(caller: Caller, eventId: string, webhookEndpointId?: string): Promise<EventBody & { deliveries: DeliveryView[] }> {
    const event = await this.load(caller, eventId);
    await inTransaction(this.dataSource, async (manager) => {
      let targets;
      if (webhookEndpointId) {
        const endpoint = await this.endpointService.load(caller, webhookEndpointId, manager);
        const p = endpoint.snapshot();
        // An endpoint of another merchant never receives this merchant's events.
        if (p.merchantId !== null && p.merchantId !== event.merchantId) throw new DomainError('WEBHOOK_ENDPOINT_NOT_FOUND');
        if (p.disabled) throw new DomainError('WEBHOOK_ENDPOINT_DISABLED');
        targets = [endpoint];
      } else {
        const current = await this.endpoints.receiversOf(manager, event.businessId, event.merchantId, event.type);
        const previous = await manager.query<{ webhook_endpoint_id: string }[]>(
          `SELECT d.webhook_endpoint_id FROM webhook_delivery d JOIN webhook_endpoint w ON w.webhook_endpoint_id = d.webhook_endpoint_id
            WHERE d.event_id = $1 AND w.deleted_at IS NULL AND NOT w.disabled`,
          [eventId],
        );
        const ids = new Set(current.map((endpoint) => endpoint.id));
        targets = [...current];
        for (const { webhook_endpoint_id } of previous) {
          if (ids.has(webhook_endpoint_id)) continue;
          const endpoint = await this.endpoints.findById(manager, webhook_endpoint_id);
          if (endpoint) targets.push(endpoint);
        }
      }
      await this.dispatcher.queueDeliveries(
        manager,
        targets.map((endpoint) => ({ eventId, endpointId: endpoint.id, url: endpoint.snapshot().url })),
      );
    });
    return { ...event, deliveries: await this.deliveries(eventId) };
  }

  /** Retention (contract §14): events older than 30 days go, with their deliveries and attempts. */
  async purgeExpired(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);
    // A SELECT around the DELETE: its rows are the count (a bare DELETE answers TypeORM's [rows, count] pair).
    const [{ n }] = await this.dataSource.query<{ n: number }[]>(
      `WITH gone AS (DELETE FROM event WHERE event_id IN (SELECT event_id FROM event WHERE created_at < $1 LIMIT 5000) RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [cutoff],
    );
    return n;
  }

  private async load(caller: Caller, eventId: string): Promise<EventBody> {
    const values: unknown[] = [eventId];
    const [row] = await this.dataSource.query<{ payload: string }[]>(
      `SELECT e.payload FROM event e WHERE e.event_id = $1 AND ${scopeCondition(tenantScope(caller), 'e', values)}`,
      values,
    );
    if (!row) throw new DomainError('EVENT_NOT_FOUND');
    return JSON.parse(row.payload) as EventBody;
  }

  private async deliveries(eventId: string): Promise<DeliveryView[]> {
    const rows = await this.dataSource.query<
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
}
