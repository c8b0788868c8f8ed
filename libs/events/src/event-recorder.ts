import { Injectable } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { afterCommit } from '@pcs/database';
import { JobQueue } from '@pcs/jobs';
import { metrics } from '@pcs/observability';
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
    return (await this.recordAll(manager, [event]))[0];
  }

  /**
   * Records the events of one subject (in order) in one statement: their
   * numbers in the subject's sequence (its row lock queues concurrent
   * recorders of one subject), the rows, and their dispatch jobs (pg-boss's
   * own INSERT, as CTEs). `change`, when given, is the statement that writes
   * the change itself (an INSERT or UPDATE with its values): it runs first in
   * the same statement, so the change and its events cost one round trip.
   * `change.requires`, a boolean SQL expression over the change's own
   * parameters, is checked in the statement (pcs_require): when false, the
   * statement fails with SQLSTATE P0004 and writes nothing.
   */
  async recordAll(
    manager: EntityManager,
    events: readonly NewEvent[],
    change?: { sql: string; values: unknown[]; requires?: { sql: string; reason: string } },
  ): Promise<RecordedEvent[]> {
    if (events.length === 0) throw new Error('no events to record');
    const { businessId, merchantId, subjectId } = events[0];
    if (events.some((e) => e.subjectId !== subjectId || e.businessId !== businessId || e.merchantId !== merchantId))
      throw new Error('events recorded together share their subject');
    const values: unknown[] = [...(change?.values ?? [])];
    const param = (value: unknown) => `$${values.push(value)}`;
    const prepared = events.map((event) => {
      const eventId = crypto.randomUUID();
      const createdAt = event.at ?? new Date();
      // The exact bytes every delivery sends; the sequence is spliced in by the statement that takes it.
      const head =
        `{"id":${JSON.stringify(eventId)},"type":${JSON.stringify(event.type)},"createdAt":${JSON.stringify(createdAt.toISOString())},` +
        `"businessId":${JSON.stringify(businessId)},"merchantId":${JSON.stringify(merchantId)},"sequence":`;
      const tail = `,"data":{"object":${JSON.stringify(event.object)}}}`;
      return { eventId, type: event.type, createdAt, head, tail };
    });
    const count = param(events.length);
    const subject = param(subjectId);
    const ctes = [
      ...(change ? [`change AS (${change.sql})`] : []),
      `next AS (
         INSERT INTO event_sequence (subject_id, last) VALUES (${subject}, ${count}::int)
         ON CONFLICT (subject_id) DO UPDATE SET last = event_sequence.last + EXCLUDED.last RETURNING last
       )`,
      `recorded AS (
         INSERT INTO event (event_id, type, business_id, merchant_id, subject_id, sequence, payload, created_at)
         SELECT e.id, e.type, ${param(businessId)}, ${param(merchantId)}, ${subject}, next.last - ${count}::int + e.n::int,
                e.head || (next.last - ${count}::int + e.n::int) || e.tail, e.at
         FROM next, unnest(${param(prepared.map((p) => p.eventId))}::uuid[], ${param(prepared.map((p) => p.type))}::text[],
                           ${param(prepared.map((p) => p.head))}::text[], ${param(prepared.map((p) => p.tail))}::text[],
                           ${param(prepared.map((p) => p.createdAt))}::timestamptz[]) WITH ORDINALITY AS e(id, type, head, tail, at, n)
         RETURNING event_id, sequence, payload
       )`,
    ];
    for (const [i, p] of prepared.entries()) {
      const job = await this.jobs.sendStatement(
        this.settings.webhooks.dispatchQueue,
        { eventId: p.eventId },
        { retryLimit: 20, retryDelay: 5, retryBackoff: true },
        values.length + 1,
      );
      values.push(...job.values);
      ctes.push(`job${i} AS (${job.sql})`);
    }
    const requirement = change?.requires ? `, pcs_require(${change.requires.sql}, ${param(change.requires.reason)}) AS required` : '';
    const rows = await manager.query<{ event_id: string; sequence: number; payload: string }[]>(
      `WITH ${ctes.join(',\n')} SELECT event_id, sequence, payload${requirement} FROM recorded`,
      values,
    );
    afterCommit(manager, () => events.forEach((event) => metrics.countEvent(event.type)));
    const byId = new Map(rows.map((row) => [row.event_id, row]));
    return prepared.map((p) => {
      const row = byId.get(p.eventId)!;
      return {
        eventId: p.eventId,
        type: p.type,
        businessId,
        merchantId,
        sequence: row.sequence,
        createdAt: p.createdAt,
        payload: row.payload,
      };
    });
  }
}

/**
 * Runs a change that records no events; with `requires` (as in
 * `recordAll`), a condition checked in the same statement, which fails with
 * SQLSTATE P0004 and writes nothing when it does not hold.
 */
export async function runChange(
  manager: EntityManager,
  sql: string,
  values: unknown[],
  requires?: { sql: string; reason: string },
): Promise<void> {
  if (!requires) {
    await manager.query(sql, values);
    return;
  }
  await manager.query(`WITH change AS (${sql}) SELECT pcs_require(${requires.sql}, $${values.length + 1})`, [...values, requires.reason]);
}

/** What an UPDATE ... RETURNING written through `runChange` or `recordAll` requires: that it found its row. */
export function rowFound(what: string): { sql: string; reason: string } {
  return { sql: 'EXISTS (SELECT 1 FROM change)', reason: `the ${what} to update exists` };
}
