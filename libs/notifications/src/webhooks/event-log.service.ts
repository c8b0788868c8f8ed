import { Injectable } from '@nestjs/common';
import { EVENT_RETENTION_DAYS, EventType } from '@pcs/events';
import { Caller, DomainError, MerchantId, Page, PageRequest, tenantScope, UnitOfWork } from '@pcs/kernel';
import { MerchantAccess } from '@pcs/merchants';
import { EventDispatcher } from './event-dispatcher';
import { DeliveryView, EventBody, EventLogRepository } from './event-log.repository';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { WebhookEndpointService } from './webhook-endpoint.service';

export type { DeliveryView, EventBody } from './event-log.repository';

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
    private readonly unitOfWork: UnitOfWork,
    private readonly access: MerchantAccess,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly endpointService: WebhookEndpointService,
    private readonly dispatcher: EventDispatcher,
    private readonly log: EventLogRepository,
  ) {}

  async list(caller: Caller, filters: EventLogFilters, page: PageRequest): Promise<Page<EventBody>> {
    const { merchantId, ...within } = filters;
    const scope = await this.access.scopeOf(caller, merchantId);
    const found = await this.log.page(this.unitOfWork.outside, scope, within, page);
    return { ...found, page: page.page, limit: page.limit };
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
    await this.unitOfWork.run(async (tx) => {
      let targets;
      if (webhookEndpointId) {
        const endpoint = await this.endpointService.load(caller, webhookEndpointId, tx);
        const p = endpoint.snapshot();
        // An endpoint of another merchant never receives this merchant's events.
        if (p.merchantId !== null && p.merchantId !== event.merchantId) throw new DomainError('WEBHOOK_ENDPOINT_NOT_FOUND');
        if (p.disabled) throw new DomainError('WEBHOOK_ENDPOINT_DISABLED');
        targets = [endpoint];
      } else {
        const current = await this.endpoints.receiversOf(tx, event.businessId, event.merchantId, event.type);
        const previous = await this.log.previousReceivers(tx, eventId);
        const ids = new Set(current.map((endpoint) => endpoint.id));
        targets = [...current];
        for (const endpointId of previous) {
          if (ids.has(endpointId)) continue;
          const endpoint = await this.endpoints.findById(tx, endpointId);
          if (endpoint) targets.push(endpoint);
        }
      }
      await this.dispatcher.queueDeliveries(
        tx,
        targets.map((endpoint) => ({ eventId, endpointId: endpoint.id, url: endpoint.snapshot().url })),
      );
    });
    return { ...event, deliveries: await this.deliveries(eventId) };
  }

  /** Retention (contract §14): events older than 30 days go, with their deliveries and attempts. */
  async purgeExpired(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);
    return this.log.purgeBefore(this.unitOfWork.outside, cutoff, 5000);
  }

  private async load(caller: Caller, eventId: string): Promise<EventBody> {
    const event = await this.log.find(this.unitOfWork.outside, tenantScope(caller), eventId);
    if (!event) throw new DomainError('EVENT_NOT_FOUND');
    return event;
  }

  private deliveries(eventId: string): Promise<DeliveryView[]> {
    return this.log.deliveriesOf(this.unitOfWork.outside, eventId);
  }
}
