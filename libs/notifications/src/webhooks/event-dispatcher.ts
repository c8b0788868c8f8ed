import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { JobQueue } from '@pcs/jobs';
import { TraceCarrier, traceCarrierOf } from '@pcs/observability';
import { OutcomeEmails } from '../emails/outcome-emails';
import { DeliveryTarget, EventLogRepository } from './event-log.repository';
import { deliveryExpirySeconds } from './in-flight-limit';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { Transaction, UnitOfWork } from '@pcs/kernel';

export type { DeliveryTarget } from './event-log.repository';

/** Events one dispatch worker takes at once. */
const DISPATCH_BATCH = 250;
/**
 * Dispatch workers per API process: a batch's transaction is mostly PostgreSQL's work (its rows locked, deliveries and
 * their jobs inserted), so two batches run side by side on two cores; they take different jobs (pg-boss fetches with SKIP
 * LOCKED) and so different events.
 */
const DISPATCH_WORKERS = 2;

/** A delivery's job carries the trace of the change that caused its event (docs/operations.md, "Tracing"). */
export interface DeliveryJob extends TraceCarrier {
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
 * jobs (up to 250) is dispatched in one such transaction: a handful of
 * statements for the whole batch instead of as many per event, which matters
 * because every payment intent's creation records one.
 */
@Injectable()
export class EventDispatcher implements OnApplicationBootstrap {
  private readonly logger = new Logger('Events');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly jobs: JobQueue,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly emails: OutcomeEmails,
    private readonly settings: RuntimeSettings,
    private readonly log: EventLogRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (let worker = 0; worker < DISPATCH_WORKERS; worker++)
      await this.jobs.work<{ eventId: string } & TraceCarrier>(
        this.settings.webhooks.dispatchQueue,
        { batchSize: DISPATCH_BATCH, pollingIntervalSeconds: this.settings.webhooks.pollSeconds },
        (jobs) =>
          this.dispatchBatch(
            jobs.map((job) => job.data.eventId),
            new Map(jobs.map((job) => [job.data.eventId, job.data])),
          ),
      );
  }

  /**
   * A worker's batch: in one transaction; if that fails, each event on its
   * own, so one event that cannot be dispatched does not hold back the
   * others. Fails if any event did (the batch's retries find the dispatched
   * ones done).
   */
  async dispatchBatch(eventIds: readonly string[], traces: ReadonlyMap<string, TraceCarrier> = new Map()): Promise<void> {
    try {
      await this.dispatch(eventIds, traces);
    } catch (error) {
      this.logger.warn(`a batch of ${eventIds.length} events failed (${(error as Error).message}); dispatching them one by one`);
      const failures: unknown[] = [];
      for (const eventId of eventIds) await this.dispatch([eventId], traces).catch((failure: unknown) => failures.push(failure));
      if (failures.length > 0) throw failures[0];
    }
  }

  /**
   * Dispatches the events not dispatched yet, in one transaction: every delivery of the batch in one statement, their jobs in
   * another. Each delivery's job continues the trace its event's dispatch job carried (`traces`, by event id).
   */
  async dispatch(eventIds: readonly string[], traces: ReadonlyMap<string, TraceCarrier> = new Map()): Promise<void> {
    const queued = await this.unitOfWork.run(async (tx) => {
      const events = await this.log.lockUndispatched(tx, eventIds);
      if (events.length === 0) return 0;
      const receivers = new Map<string, Awaited<ReturnType<WebhookEndpointRepository['receiversOf']>>>();
      const deliveries: DeliveryTarget[] = [];
      for (const event of events) {
        const key = `${event.businessId} ${event.merchantId} ${event.type}`;
        let endpoints = receivers.get(key);
        if (!endpoints) {
          endpoints = await this.endpoints.receiversOf(tx, event.businessId, event.merchantId, event.type);
          receivers.set(key, endpoints);
        }
        for (const endpoint of endpoints)
          deliveries.push({ eventId: event.eventId, endpointId: endpoint.id, url: endpoint.snapshot().url });
        if (!this.emails.concerns(event.type)) continue;
        const object = (JSON.parse(event.payload) as { data: { object: never } }).data.object;
        const emails = await this.emails.queueFor(tx, event.type, event.merchantId, object);
        if (emails) this.logger.log(`queued ${emails} outcome email(s) for event ${event.eventId}`);
      }
      await this.queueDeliveries(tx, deliveries, traces);
      await this.log.markDispatched(
        tx,
        events.map((e) => e.eventId),
      );
      return deliveries.length;
    });
    // Committed: this process's delivery workers take them now rather than at their next poll.
    if (queued > 0) this.jobs.nudge(this.settings.webhooks.deliveryQueue);
  }

  /**
   * Deliveries due now (new ones, or new generations of existing ones) and
   * their jobs: two statements however many there are. Returns their ids,
   * in the order given; each (event, endpoint) pair at most once.
   */
  async queueDeliveries(
    tx: Transaction,
    targets: readonly DeliveryTarget[],
    traces: ReadonlyMap<string, TraceCarrier> = new Map(),
  ): Promise<string[]> {
    if (targets.length === 0) return [];
    const rows = await this.log.queueDeliveries(tx, targets);
    await this.sendDeliveryJobs(
      tx,
      rows.map((row) => ({
        job: { deliveryId: row.deliveryId, generation: row.generation, step: 0, ...traceCarrierOf(traces.get(row.eventId)) },
      })),
    );
    const byPair = new Map(rows.map((row) => [`${row.eventId} ${row.endpointId}`, row.deliveryId]));
    return targets.map((t) => byPair.get(`${t.eventId} ${t.endpointId}`)!);
  }

  /** Delivery jobs, each due now or after its wait, in one statement. */
  async sendDeliveryJobs(tx: Transaction, jobs: readonly { job: DeliveryJob; startAfterSeconds?: number }[]): Promise<void> {
    await this.jobs.sendMany(
      tx,
      this.settings.webhooks.deliveryQueue,
      jobs.map(({ job, startAfterSeconds }) => ({
        data: job,
        options: {
          ...(startAfterSeconds ? { startAfter: startAfterSeconds } : {}),
          // A worker that dies mid-attempt leaves its job to expire and run again (at least once).
          expireInSeconds: deliveryExpirySeconds(this.settings.webhooks.timeoutMs),
          retryLimit: 5,
          retryDelay: 5,
        },
      })),
    );
  }
}
