import { Injectable } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import {
  afterCommit,
  auditUnavailable,
  Guard,
  isAuditWriteFailure,
  managerOf,
  queryPrepared,
  Requirement,
  rideInStatement,
  shiftParameters,
} from '@pcs/database';
import { JobQueue } from '@pcs/jobs';
import { metrics } from '@pcs/observability';
import * as crypto from 'node:crypto';
import { EventType, RecordedEvent } from './event-types';
import { ChangeAlongside, Precondition, Transaction } from '@pcs/kernel';

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

  async record(tx: Transaction, event: NewEvent): Promise<RecordedEvent> {
    return (await this.recordAll(tx, [event]))[0];
  }

  /**
   * Records events (of one subject or several; each subject's in order) in
   * one statement: their numbers in their subjects' sequences (a subject's
   * sequence row lock queues concurrent recorders of it; rows are taken in
   * subject order), the rows, and their dispatch jobs (pg-boss's own INSERT,
   * as CTEs). `change`, when given, is the statement that writes the change
   * itself (an INSERT or UPDATE with its values): it runs in the same
   * statement, so the change and its events cost one round trip.
   * `change.guards` are further writes (each a CTE, `guard0`, `guard1`, …)
   * run to completion before any sequence is taken, so a row a guard updates
   * is locked before the sequences, as every other writer of that row does
   * it; a guard that is `required` and wrote nothing fails the statement.
   * `change.requires` is checked in the statement too (pcs_require): when a
   * requirement does not hold, the statement fails with SQLSTATE P0004 and
   * writes nothing.
   */
  async recordAll(
    tx: Transaction,
    events: readonly NewEvent[],
    change?: { sql?: string; values?: unknown[]; guards?: readonly ChangeAlongside[]; requires?: Precondition },
  ): Promise<RecordedEvent[]> {
    const manager = managerOf(tx);
    if (events.length === 0) throw new Error('no events to record');
    const values: unknown[] = [...(change?.values ?? [])];
    const param = (value: unknown) => `$${values.push(value)}`;
    const checks: string[] = [];
    const guards = (change?.guards ?? []).map((guard, i) => {
      const { statement, required } = Guard.parts(guard);
      const sql = shiftParameters(statement.sql, values.length);
      values.push(...statement.values);
      if (required !== null) checks.push(`pcs_require(EXISTS (SELECT 1 FROM guard${i}), ${param(required)})`);
      return `guard${i} AS (${sql})`;
    });
    // Each event's place among its subject's events of this statement, and their count.
    const counts = new Map<string, number>();
    const prepared = events.map((event) => {
      const eventId = crypto.randomUUID();
      const createdAt = event.at ?? new Date();
      const n = (counts.get(event.subjectId) ?? 0) + 1;
      counts.set(event.subjectId, n);
      // The exact bytes every delivery sends; the sequence is spliced in by the statement that takes it.
      const head =
        `{"id":${JSON.stringify(eventId)},"type":${JSON.stringify(event.type)},"createdAt":${JSON.stringify(createdAt.toISOString())},` +
        `"businessId":${JSON.stringify(event.businessId)},"merchantId":${JSON.stringify(event.merchantId)},"sequence":`;
      const tail = `,"data":{"object":${JSON.stringify(event.object)}}}`;
      return { eventId, event, n, createdAt, head, tail };
    });
    const subjects = [...counts.keys()].sort();
    const ctes = [
      ...(change?.sql ? [`change AS (${change.sql})`] : []),
      ...guards,
      `next AS (
         INSERT INTO event_sequence (subject_id, last)
         SELECT s.subject, s.n FROM unnest(${param(subjects)}::uuid[], ${param(subjects.map((subject) => counts.get(subject)))}::int[]) AS s(subject, n)
         ${guards.map((_, i) => `CROSS JOIN LATERAL (SELECT count(*) FROM guard${i}) AS g${i}`).join(' ')}
         ORDER BY s.subject
         ON CONFLICT (subject_id) DO UPDATE SET last = event_sequence.last + EXCLUDED.last RETURNING subject_id, last
       )`,
      `recorded AS (
         INSERT INTO event (event_id, type, business_id, merchant_id, subject_id, sequence, payload, created_at)
         SELECT e.id, e.type, e.business, e.merchant, e.subject, next.last - e.count + e.n,
                e.head || (next.last - e.count + e.n) || e.tail, e.at
         FROM unnest(${param(prepared.map((p) => p.eventId))}::uuid[], ${param(prepared.map((p) => p.event.type))}::text[],
                     ${param(prepared.map((p) => p.head))}::text[], ${param(prepared.map((p) => p.tail))}::text[],
                     ${param(prepared.map((p) => p.createdAt))}::timestamptz[], ${param(prepared.map((p) => p.event.subjectId))}::uuid[],
                     ${param(prepared.map((p) => p.event.businessId))}::uuid[], ${param(prepared.map((p) => p.event.merchantId))}::uuid[],
                     ${param(prepared.map((p) => p.n))}::int[], ${param(prepared.map((p) => counts.get(p.event.subjectId)))}::int[])
              AS e(id, type, head, tail, at, subject, business, merchant, n, count)
         JOIN next ON next.subject_id = e.subject
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
    if (change?.requires) checks.push(Requirement.render(change.requires, values));
    // The audit entry of the API request this change serves, when one waits: in this statement, so that the change and its
    // entry are written together or not at all, at no extra round trip (contract §29). It names the first event's subject.
    const audit = rideInStatement(manager, values.length, events[0].subjectId);
    if (audit) {
      values.push(...audit.values);
      ctes.push(audit.cte);
    }
    const required = checks.map((check, i) => `, ${check} AS required${i}`).join('');
    let rows: { event_id: string; sequence: number; payload: string; written_in: string }[];
    try {
      rows = await queryPrepared<{ event_id: string; sequence: number; payload: string; written_in: string }>(
        manager,
        `WITH ${ctes.join(',\n')} SELECT event_id, sequence, payload, pg_current_xact_id()::xid::text AS written_in${required} FROM recorded`,
        values,
      );
    } catch (error) {
      audit?.settle(false);
      if (audit && isAuditWriteFailure(error)) throw auditUnavailable();
      throw error;
    }
    audit?.settle(true);
    afterCommit(manager, () => {
      events.forEach((event) => metrics.countEvent(event.type));
      // The dispatch jobs exist now: this process's dispatcher takes them within NUDGE_MS rather than at its next poll.
      this.jobs.nudge(this.settings.webhooks.dispatchQueue);
    });
    const byId = new Map(rows.map((row) => [row.event_id, row]));
    return prepared.map((p) => {
      const row = byId.get(p.eventId)!;
      return {
        eventId: p.eventId,
        type: p.event.type,
        businessId: p.event.businessId,
        merchantId: p.event.merchantId,
        sequence: row.sequence,
        createdAt: p.createdAt,
        payload: row.payload,
        writtenIn: row.written_in,
      };
    });
  }
}
