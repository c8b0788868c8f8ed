import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { JobQueue } from '@pcs/jobs';
import { activeContext, contextOf, inSpan, metrics, SpanKind } from '@pcs/observability';
import { DeliveryJob, EventDispatcher } from './event-dispatcher';
import { EventLogRepository } from './event-log.repository';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { WebhookEndpointService } from './webhook-endpoint.service';
import { AttemptOutcome, WebhookSender } from './webhook-sender';
import { webhookHeaders } from './webhook-signature';
import { DELIVERY_BATCH, DELIVERY_WORKERS, ENDPOINT_IN_FLIGHT, InFlightLimit } from './in-flight-limit';
import { Transaction, UnitOfWork } from '@pcs/kernel';

type Result = 'delivered' | 'retry' | 'failed' | 'disabled';

/** One attempt made, and what it leads to if its delivery is still the current generation when recorded. */
interface Attempted {
  readonly job: DeliveryJob;
  readonly endpointId: string;
  readonly url: string;
  readonly at: Date;
  readonly outcome: AttemptOutcome;
  readonly result: Result;
}

/**
 * Delivers webhooks (contract §14) from pg-boss jobs, in every API process:
 * a job is one attempt. A 2xx is a delivery; a 410 disables the endpoint;
 * anything else queues the next attempt after the schedule's next wait, in
 * the transaction that records this one, until the schedule is spent and the
 * delivery is marked FAILED. Every attempt is kept with its time, status or
 * error, and duration.
 *
 * A worker's batch (up to 100 jobs) costs a fixed number of statements
 * however large it is: one reads the deliveries still current with their
 * events' bytes, one their endpoints, the attempts go out at once (over
 * kept-alive connections, see WebhookSender), and one statement records
 * every attempt and settles every delivery that is still the generation its
 * job was for (a redelivery asked meanwhile owns what happens next; the
 * attempt stays in the log). Only when some attempt leads to a retry or a
 * 410 does the recording become a transaction that also queues the retries'
 * jobs and disables the endpoints, so a retry exists exactly when its
 * attempt's failure was recorded.
 */
@Injectable()
export class WebhookDeliverer implements OnApplicationBootstrap {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly jobs: JobQueue,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly endpointService: WebhookEndpointService,
    private readonly dispatcher: EventDispatcher,
    private readonly sender: WebhookSender,
    private readonly settings: RuntimeSettings,
    private readonly log: EventLogRepository,
  ) {}

  private readonly inFlight = new InFlightLimit(ENDPOINT_IN_FLIGHT);

  async onApplicationBootstrap(): Promise<void> {
    for (let worker = 0; worker < DELIVERY_WORKERS; worker++) {
      await this.jobs.work<DeliveryJob>(
        this.settings.webhooks.deliveryQueue,
        { batchSize: DELIVERY_BATCH, pollingIntervalSeconds: this.settings.webhooks.pollSeconds },
        // Only the bookkeeping can throw here: the batch runs again, and what was recorded is skipped.
        (jobs) => this.deliver(jobs.map((job) => job.data)),
      );
    }
  }

  /** One attempt of each delivery of the batch; a stale job (delivered, redelivered, gone) does nothing. */
  async deliver(batch: readonly DeliveryJob[]): Promise<void> {
    const jobs = [...new Map(batch.map((job) => [`${job.deliveryId} ${job.generation}`, job])).values()];
    const rows = await this.log.pending(
      this.unitOfWork.outside,
      jobs.map((job) => job.deliveryId),
    );
    const current = new Map(rows.map((row) => [row.deliveryId, row]));
    const live = jobs.filter((job) => current.get(job.deliveryId)?.generation === job.generation);
    if (live.length === 0) return;
    const endpoints = new Map(
      (await this.endpoints.findByIds(this.unitOfWork.outside, [...new Set(live.map((job) => current.get(job.deliveryId)!.endpointId))]))
        .filter((endpoint) => !endpoint.snapshot().deletedAt && !endpoint.snapshot().disabled)
        .map((endpoint) => [endpoint.id, endpoint]),
    );
    const orphaned = live.filter((job) => !endpoints.has(current.get(job.deliveryId)!.endpointId));
    await this.fail(orphaned);
    const attempted = await Promise.all(
      live
        .filter((job) => endpoints.has(current.get(job.deliveryId)!.endpointId))
        .map(async (job): Promise<Attempted> => {
          const row = current.get(job.deliveryId)!;
          const endpoint = endpoints.get(row.endpointId)!;
          const { url } = endpoint.snapshot();
          // Its turn among this process's attempts to the endpoint; the attempt's time (and its signature's) is when it goes.
          return this.inFlight.run(endpoint.id, async (): Promise<Attempted> => {
            const at = new Date();
            // The sender answers every failure as an outcome; anything else thrown is this attempt's failure, not the batch's.
            const send = async () => {
              const headers = webhookHeaders(
                this.endpointService.secretsOf(endpoint, at),
                row.eventId,
                Math.floor(at.getTime() / 1000),
                row.payload,
              );
              // The attempt continues the trace of the change that caused the event: its POST carries that `traceparent`.
              return inSpan(
                'webhook delivery',
                {
                  kind: SpanKind.PRODUCER,
                  parent: contextOf(job),
                  links: [activeContext()],
                  attributes: { 'pcs.event.id': row.eventId, 'pcs.delivery.id': job.deliveryId, 'pcs.delivery.step': job.step },
                },
                () => this.sender.post(url, headers, row.payload),
              );
            };
            const outcome = await send().catch((error: unknown): AttemptOutcome => ({
              status: null,
              error: String((error as Error)?.message ?? error).slice(0, 200),
              durationMs: 0,
            }));
            return { job, endpointId: endpoint.id, url, at, outcome, result: this.resultOf(job, outcome) };
          });
        }),
    );
    await this.record(attempted);
  }

  private resultOf(job: DeliveryJob, outcome: AttemptOutcome): Result {
    if (outcome.error === null) return 'delivered';
    if (outcome.status === 410) return 'disabled';
    return job.step < this.settings.webhooks.retryScheduleSeconds.length ? 'retry' : 'failed';
  }

  /** Every attempt into the log, and the deliveries still current settled; retries and 410s in the same transaction. */
  private async record(attempted: readonly Attempted[]): Promise<void> {
    if (attempted.length === 0) return;
    const statusAfter = (result: Result) => (result === 'delivered' ? 'DELIVERED' : result === 'retry' ? 'PENDING' : 'FAILED');
    const write = async (tx: Transaction): Promise<Set<string>> => {
      const current = await this.log.settle(
        tx,
        attempted.map((a) => ({
          deliveryId: a.job.deliveryId,
          generation: a.job.generation,
          nextStatus: statusAfter(a.result),
          at: a.at,
          httpStatus: a.outcome.status,
          error: a.outcome.error,
          durationMs: a.outcome.durationMs,
          url: a.url,
        })),
      );
      const schedule = this.settings.webhooks.retryScheduleSeconds;
      await this.dispatcher.sendDeliveryJobs(
        tx,
        attempted
          .filter((a) => a.result === 'retry' && current.has(a.job.deliveryId))
          .map((a) => ({ job: { ...a.job, step: a.job.step + 1 }, startAfterSeconds: schedule[a.job.step] })),
      );
      const gone = [...new Set(attempted.filter((a) => a.result === 'disabled' && current.has(a.job.deliveryId)).map((a) => a.endpointId))];
      if (gone.length > 0) {
        await this.endpoints.disable(tx, gone, 'the receiver answered 410 Gone');
        for (const id of gone) this.logger.warn(`endpoint ${id} answered 410 Gone: disabled`);
      }
      return current;
    };
    // Deliveries and final failures settle in one statement; retries and 410s need their follow-ups in the same transaction.
    const followUps = attempted.some((a) => a.result === 'retry' || a.result === 'disabled');
    const current = followUps ? await this.unitOfWork.run(write) : await write(this.unitOfWork.outside);
    for (const a of attempted) if (current.has(a.job.deliveryId)) metrics.webhookDeliveries.inc({ result: a.result });
  }

  /** The endpoint is gone or disabled: this generation of each delivery ends failed, without an attempt. */
  private async fail(jobs: readonly DeliveryJob[]): Promise<void> {
    await this.log.failWithoutAttempt(this.unitOfWork.outside, jobs);
  }
}
