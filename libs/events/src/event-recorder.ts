import { Injectable } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { afterCommit, queryPrepared } from '@pcs/database';
import { JobQueue } from '@pcs/jobs';
import { metrics } from '@pcs/observability';
import * as crypto from 'node:crypto';
import { EntityManager, QueryFailedError } from 'typeorm';
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
   * Records events (of one subject or several; each subject's in order) in
   * one statement: their numbers in their subjects' sequences (a subject's
   * sequence row lock queues concurrent recorders of it; rows are taken in
   * subject order), the rows, and their dispatch jobs (pg-boss's own INSERT,
   * as CTEs). `change`, when given, is the statement that writes the change
   * itself (an INSERT or UPDATE with its values): it runs in the same
   * statement, so the change and its events cost one round trip.
   * `change.guards` are further statements (each a CTE, `guard0`, `guard1`,
   * …, with their own values numbered from $1, each with a RETURNING
   * clause) run to completion before any
   * sequence is taken, so a row a guard updates is locked before the
   * sequences, as every other writer of that row does it.
   * `change.requires`, a boolean SQL expression over the change's own
   * parameters (and the guards' CTEs), is checked in the statement
   * (pcs_require): when false, the statement fails with SQLSTATE P0004 and
   * writes nothing.
   */
  async recordAll(
    manager: EntityManager,
    events: readonly NewEvent[],
    change?: { sql?: string; values?: unknown[]; guards?: readonly Statement[]; requires?: { sql: string; reason: string } },
  ): Promise<RecordedEvent[]> {
    if (events.length === 0) throw new Error('no events to record');
    const values: unknown[] = [...(change?.values ?? [])];
    const param = (value: unknown) => `$${values.push(value)}`;
    const guards = (change?.guards ?? []).map((guard, i) => {
      const sql = shiftParameters(guard.sql, values.length);
      values.push(...guard.values);
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
    const requirement = change?.requires ? `, pcs_require(${change.requires.sql}, ${param(change.requires.reason)}) AS required` : '';
    const rows = await queryPrepared<{ event_id: string; sequence: number; payload: string }>(
      manager,
      `WITH ${ctes.join(',\n')} SELECT event_id, sequence, payload${requirement} FROM recorded`,
      values,
    );
    afterCommit(manager, () => events.forEach((event) => metrics.countEvent(event.type)));
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
      };
    });
  }
}

/** A statement with its values, its parameters numbered from $1. */
export interface Statement {
  readonly sql: string;
  readonly values: readonly unknown[];
}

/** A statement's parameters renumbered after `offset` others ($1 becomes $<offset + 1>), to run inside another statement. */
export function shiftParameters(sql: string, offset: number): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
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
    await queryPrepared(manager, sql, values);
    return;
  }
  await queryPrepared(manager, `WITH change AS (${sql}) SELECT pcs_require(${requires.sql}, $${values.length + 1})`, [
    ...values,
    requires.reason,
  ]);
}

/** Whether a statement failed because its `requires` did not hold (SQLSTATE P0004): it wrote nothing. */
export function isRequirementFailure(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { code?: string }).code === 'P0004';
}

/** Runs a write that has a `requires`: true once written, false when the requirement did not hold (nothing written). */
export async function writtenIfRequired(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isRequirementFailure(error)) return false;
    throw error;
  }
}

/** What an UPDATE ... RETURNING written through `runChange` or `recordAll` requires: that it found its row. */
export function rowFound(what: string): { sql: string; reason: string } {
  return { sql: 'EXISTS (SELECT 1 FROM change)', reason: `the ${what} to update exists` };
}
