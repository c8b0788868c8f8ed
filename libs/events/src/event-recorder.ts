import { Injectable } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { JobQueue } from '@pcs/jobs';
import * as crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { EventType, RecordedEvent } from './event-types';

export interface NewEvent {
  readonly type: EventType;
  readonly businessId: string;
  readonly merchantId: string;
  /**
   * What `sequence` counts for: the payment intent for its own events and its
   * refunds' (contract §14), the link for a link's.
   */
  readonly subjectId: string;
  /** The resource as the payins API shows it. */
  readonly object: object;
  readonly at?: Date;
}

/**
 * Records events in the caller's transaction (the transactional outbox of
 * contract §14): the event row, its place in its subject's sequence, and the
 * job that hands it to webhooks and emails all commit with the change, or
 * none of them does.
 */
@Injectable()
export class EventRecorder {
  constructor(
    private readonly jobs: JobQueue,
    private readonly settings: RuntimeSettings,
  ) {}

  async record(manager: EntityManager, event: NewEvent): Promise<RecordedEvent> {
    const eventId = crypto.randomUUID();
    const createdAt = event.at ?? new Date();
    // The exact bytes every delivery sends; the sequence is spliced in by the statement that takes it.
    const head =
      `{"id":${JSON.stringify(eventId)},"type":${JSON.stringify(event.type)},"createdAt":${JSON.stringify(createdAt.toISOString())},` +
      `"businessId":${JSON.stringify(event.businessId)},"merchantId":${JSON.stringify(event.merchantId)},"sequence":`;
    const tail = `,"data":{"object":${JSON.stringify(event.object)}}}`;
    // One round trip: the subject's next number (its row lock queues concurrent recorders of one subject) and the event.
    const [{ sequence, payload }] = await manager.query<{ sequence: number; payload: string }[]>(
      `WITH next AS (
         INSERT INTO event_sequence (subject_id, last) VALUES ($5, 1)
         ON CONFLICT (subject_id) DO UPDATE SET last = event_sequence.last + 1 RETURNING last
       )
       INSERT INTO event (event_id, type, business_id, merchant_id, subject_id, sequence, payload, created_at)
       SELECT $1, $2, $3, $4, $5, next.last, $6 || next.last || $7, $8 FROM next
       RETURNING sequence, payload`,
      [eventId, event.type, event.businessId, event.merchantId, event.subjectId, head, tail, createdAt],
    );
    await this.jobs.send(manager, this.settings.webhooks.dispatchQueue, { eventId }, { retryLimit: 20, retryDelay: 5, retryBackoff: true });
    return { eventId, type: event.type, businessId: event.businessId, merchantId: event.merchantId, sequence, createdAt, payload };
  }
}
