import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RuntimeSettings } from '@pcs/config';
import { inTransaction } from '@pcs/database';
import { JobQueue } from '@pcs/jobs';
import * as crypto from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { OutcomeEmails } from '../emails/outcome-emails';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';

/** Events one dispatch worker takes at once. */
const DISPATCH_BATCH = 100;

export interface DeliveryJob {
  readonly deliveryId: string;
  /** The delivery's generation when the job was queued: a redelivery makes older jobs stale. */
  readonly generation: number;
  /** Which attempt of the retry schedule this is (0: the first). */
  readonly step: number;
}

/**
 * Hands each recorded event to its receivers (contract §14): one delivery per
 * endpoint that wants it, each with its job, and the outcome emails — all in
 * one transaction that also marks the event dispatched, so a dispatch job run
 * twice (a crash, a retry) does nothing the second time. A worker's batch of
 * jobs (up to 100) is dispatched in one such transaction: a handful of
 * statements for the whole batch instead of as many per event, which matters
 * because every payment intent's creation records one.
 */
@Injectable()
export class EventDispatcher implements OnApplicationBootstrap {
  private readonly logger = new Logger('Events');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly emails: OutcomeEmails,
    private readonly settings: RuntimeSettings,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.work<{ eventId: string }>(
      this.settings.webhooks.dispatchQueue,
      { batchSize: DISPATCH_BATCH, pollingIntervalSeconds: this.settings.webhooks.pollSeconds },
      (jobs) => this.dispatchBatch(jobs.map((job) => job.data.eventId)),
    );
  }

  /**
   * A worker's batch: in one transaction; if that fails, each event on its
   * own, so one event that cannot be dispatched does not hold back the
   * others. Fails if any event did (the batch's retries find the dispatched
   * ones done).
   */
  async dispatchBatch(eventIds: readonly string[]): Promise<void> {
    try {
      await this.dispatch(eventIds);
    } catch (error) {
      this.logger.warn(`a batch of ${eventIds.length} events failed (${(error as Error).message}); dispatching them one by one`);
      const failures: unknown[] = [];
      for (const eventId of eventIds) await this.dispatch([eventId]).catch((failure: unknown) => failures.push(failure));
      if (failures.length > 0) throw failures[0];
    }
  }

  /** Dispatches the events not dispatched yet, in one transaction: every delivery of the batch in one statement, their jobs in another. */
  async dispatch(eventIds: readonly string[]): Promise<void> {
    await inTransaction(this.dataSource, async (manager) => {
      // Locked in one order, so two batches that share events queue instead of deadlocking.
      const events = await manager.query<{ event_id: string; type: string; business_id: string; merchant_id: string; payload: string }[]>(
        `SELECT event_id, type, business_id, merchant_id, payload FROM event
         WHERE event_id = ANY($1::uuid[]) AND dispatched_at IS NULL ORDER BY event_id FOR UPDATE`,
        [eventIds],
      );
      if (events.length === 0) return;
      const receivers = new Map<string, Awaited<ReturnType<WebhookEndpointRepository['receiversOf']>>>();
      const deliveries: DeliveryTarget[] = [];
      for (const event of events) {
        const key = `${event.business_id} ${event.merchant_id} ${event.type}`;
        let endpoints = receivers.get(key);
        if (!endpoints) {
          endpoints = await this.endpoints.receiversOf(manager, event.business_id, event.merchant_id, event.type);
          receivers.set(key, endpoints);
        }
        for (const endpoint of endpoints)
          deliveries.push({ eventId: event.event_id, endpointId: endpoint.id, url: endpoint.snapshot().url });
        if (!this.emails.concerns(event.type)) continue;
        const object = (JSON.parse(event.payload) as { data: { object: never } }).data.object;
        const emails = await this.emails.queueFor(manager, event.type, event.merchant_id, object);
        if (emails) this.logger.log(`queued ${emails} outcome email(s) for event ${event.event_id}`);
      }
      await this.queueDeliveries(manager, deliveries);
      await manager.query(`UPDATE event SET dispatched_at = now() WHERE event_id = ANY($1::uuid[])`, [events.map((e) => e.event_id)]);
    });
  }

  /**
   * Deliveries due now (new ones, or new generations of existing ones) and
   * their jobs: two statements however many there are. Returns their ids,
   * in the order given; each (event, endpoint) pair at most once.
   */
  async queueDeliveries(manager: EntityManager, targets: readonly DeliveryTarget[]): Promise<string[]> {
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
    await this.sendDeliveryJobs(
      manager,
      rows.map((row) => ({ job: { deliveryId: row.webhook_delivery_id, generation: row.generation, step: 0 } })),
    );
    const byPair = new Map(rows.map((row) => [`${row.event_id} ${row.webhook_endpoint_id}`, row.webhook_delivery_id]));
    return targets.map((t) => byPair.get(`${t.eventId} ${t.endpointId}`)!);
  }

  /** Delivery jobs, each due now or after its wait, in one statement. */
  async sendDeliveryJobs(manager: EntityManager, jobs: readonly { job: DeliveryJob; startAfterSeconds?: number }[]): Promise<void> {
    await this.jobs.sendMany(
      manager,
      this.settings.webhooks.deliveryQueue,
      jobs.map(({ job, startAfterSeconds }) => ({
        data: job,
        options: {
          ...(startAfterSeconds ? { startAfter: startAfterSeconds } : {}),
          // A worker that dies mid-attempt leaves its job to expire and run again (at least once).
          expireInSeconds: Math.ceil(this.settings.webhooks.timeoutMs / 1000) + 30,
          retryLimit: 5,
          retryDelay: 5,
        },
      })),
    );
  }
}

/** Where one event is to be delivered. */
export interface DeliveryTarget {
  readonly eventId: string;
  readonly endpointId: string;
  readonly url: string;
}
