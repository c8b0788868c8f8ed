import type { EventType } from '@pcs/events';
import { PageRequest, TenantScope, Transaction } from '@pcs/kernel';

/** An event as delivered (contract §14). */
export type EventBody = Record<string, unknown> & { id: string; type: EventType; businessId: string; merchantId: string };

export interface DeliveryView {
  readonly webhookEndpointId: string;
  readonly url: string;
  readonly delivered: boolean;
  readonly attempts: readonly { at: string; status: number | null; error: string | null; durationMs: number }[];
}

/** An event recorded and not handed to its receivers yet. */
export interface UndispatchedEvent {
  readonly eventId: string;
  readonly type: string;
  readonly businessId: string;
  readonly merchantId: string;
  readonly payload: string;
}

/** Where one event is to be delivered. */
export interface DeliveryTarget {
  readonly eventId: string;
  readonly endpointId: string;
  readonly url: string;
}

/** A delivery due now: its id and its generation (a redelivery makes older jobs of it stale). */
export interface QueuedDelivery {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly endpointId: string;
  readonly generation: number;
}

/** A delivery still PENDING, with the bytes to send. */
export interface PendingDelivery extends QueuedDelivery {
  readonly payload: string;
}

/** One attempt's outcome, and what its delivery becomes. */
export interface SettledAttempt {
  readonly deliveryId: string;
  readonly generation: number;
  readonly nextStatus: 'DELIVERED' | 'PENDING' | 'FAILED';
  readonly at: Date;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly url: string;
}

/**
 * The event log and its deliveries (port; the PostgreSQL adapter is in
 * persistence/): the events recorded by the events library's outbox, the
 * deliveries to endpoints, and their attempts. The unit of work comes first.
 */
export abstract class EventLogRepository {
  /** Newest first within the scope, with the exact total. */
  abstract page(
    tx: Transaction,
    scope: TenantScope,
    filters: { type?: EventType; subjectId?: string; delivered?: boolean },
    page: PageRequest,
  ): Promise<{ items: EventBody[]; total: number }>;
  abstract find(tx: Transaction, scope: TenantScope, eventId: string): Promise<EventBody | null>;
  abstract deliveriesOf(tx: Transaction, eventId: string): Promise<DeliveryView[]>;
  /** The endpoints (live and enabled) that had a delivery of the event. */
  abstract previousReceivers(tx: Transaction, eventId: string): Promise<string[]>;
  /** Removes up to `limit` events recorded before `cutoff`, with their deliveries and attempts; how many. */
  abstract purgeBefore(tx: Transaction, cutoff: Date, limit: number): Promise<number>;
  /** These events, those not dispatched yet, locked in one order (two batches that share events queue instead of deadlocking). */
  abstract lockUndispatched(tx: Transaction, eventIds: readonly string[]): Promise<UndispatchedEvent[]>;
  abstract markDispatched(tx: Transaction, eventIds: readonly string[]): Promise<void>;
  /** New deliveries, or a new generation of existing ones, PENDING; each (event, endpoint) pair at most once. */
  abstract queueDeliveries(tx: Transaction, targets: readonly DeliveryTarget[]): Promise<QueuedDelivery[]>;
  abstract pending(tx: Transaction, deliveryIds: readonly string[]): Promise<PendingDelivery[]>;
  /** Every attempt into the log, and the deliveries still of that generation and PENDING settled; the ids settled. */
  abstract settle(tx: Transaction, attempts: readonly SettledAttempt[]): Promise<Set<string>>;
  /** This generation of each delivery ends FAILED without an attempt (its endpoint is gone or disabled). */
  abstract failWithoutAttempt(tx: Transaction, deliveries: readonly { deliveryId: string; generation: number }[]): Promise<void>;
}
