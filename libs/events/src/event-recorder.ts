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
    // One row per subject, incremented under its row lock: concurrent recorders of one subject queue here.
    const [{ last }] = await manager.query<{ last: number }[]>(
      `INSERT INTO event_sequence (subject_id, last) VALUES ($1, 1)
       ON CONFLICT (subject_id) DO UPDATE SET last = event_sequence.last + 1 RETURNING last`,
      [event.subjectId],
    );
    const payload = JSON.stringify({
      id: eventId,
      type: event.type,
      createdAt: createdAt.toISOString(),
      businessId: event.businessId,
      merchantId: event.merchantId,
      sequence: last,
      data: { object: event.object },
    });
    await manager.query(
      `INSERT INTO event (event_id, type, business_id, merchant_id, subject_id, sequence, payload, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [eventId, event.type, event.businessId, event.merchantId, event.subjectId, last, payload, createdAt],
    );
    await this.jobs.send(manager, this.settings.webhooks.dispatchQueue, { eventId }, { retryLimit: 20, retryDelay: 5, retryBackoff: true });
    return {
      eventId,
      type: event.type,
      businessId: event.businessId,
      merchantId: event.merchantId,
      sequence: last,
      createdAt,
      payload,
    };
  }
}
