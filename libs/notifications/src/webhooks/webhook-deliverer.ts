import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RuntimeSettings } from '@pcs/config';
import { inTransaction } from '@pcs/database';
import { JobQueue } from '@pcs/jobs';
import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { DeliveryJob, EventDispatcher } from './event-dispatcher';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { WebhookEndpointService } from './webhook-endpoint.service';
import { WebhookSender } from './webhook-sender';
import { webhookHeaders } from './webhook-signature';
import { metrics } from '@pcs/observability';

/** How many deliveries one worker attempts at once; each API process runs two workers. */
const BATCH = 25;

/**
 * Delivers webhooks (contract §14) from pg-boss jobs, in every API process:
 * a job is one attempt. A 2xx is a delivery; a 410 disables the endpoint;
 * anything else queues the next attempt after the schedule's next wait, in
 * the transaction that records this one, until the schedule is spent and the
 * delivery is marked FAILED. Every attempt is kept with its time, status or
 * error, and duration.
 */
@Injectable()
export class WebhookDeliverer implements OnApplicationBootstrap {
  private readonly logger = new Logger('Webhooks');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly endpointService: WebhookEndpointService,
    private readonly dispatcher: EventDispatcher,
    private readonly sender: WebhookSender,
    private readonly settings: RuntimeSettings,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (let worker = 0; worker < 2; worker++) {
      await this.jobs.work<DeliveryJob>(
        this.settings.webhooks.deliveryQueue,
        { batchSize: BATCH, pollingIntervalSeconds: this.settings.webhooks.pollSeconds },
        async (jobs) => {
          const outcomes = await Promise.allSettled(jobs.map((job) => this.attempt(job.data)));
          const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
          // Only the bookkeeping can throw here: the batch runs again, and what was recorded is skipped.
          if (failed) throw failed.reason;
        },
      );
    }
  }

  /** One attempt of one delivery; a stale job (delivered, redelivered, gone) does nothing. */
  async attempt(job: DeliveryJob): Promise<void> {
    const [row] = await this.dataSource.query<
      { event_id: string; webhook_endpoint_id: string; payload: string; status: string; generation: number }[]
    >(
      `SELECT d.event_id, d.webhook_endpoint_id, e.payload, d.status, d.generation
         FROM webhook_delivery d JOIN event e ON e.event_id = d.event_id
        WHERE d.webhook_delivery_id = $1`,
      [job.deliveryId],
    );
    if (!row || row.status !== 'PENDING' || row.generation !== job.generation) return;
    const endpoint = await this.endpoints.findById(this.dataSource.manager, row.webhook_endpoint_id);
    const state = endpoint?.snapshot();
    if (!endpoint || !state || state.deletedAt || state.disabled) {
      await this.fail(job);
      return;
    }
    const now = new Date();
    const headers = webhookHeaders(
      this.endpointService.secretsOf(endpoint, now),
      row.event_id,
      Math.floor(now.getTime() / 1000),
      row.payload,
    );
    const outcome = await this.sender.post(state.url, headers, row.payload);
    const delivered = outcome.error === null;
    let result: 'delivered' | 'retry' | 'failed' | 'disabled' | null = null;
    await inTransaction(this.dataSource, async (manager) => {
      result = null;
      await manager.query(
        `INSERT INTO webhook_attempt (webhook_attempt_id, webhook_delivery_id, at, status, error, duration_ms) VALUES ($1, $2, $3, $4, $5, $6)`,
        [crypto.randomUUID(), job.deliveryId, now, outcome.status, outcome.error, outcome.durationMs],
      );
      const [current] = await manager.query<{ generation: number; status: string }[]>(
        `SELECT generation, status FROM webhook_delivery WHERE webhook_delivery_id = $1 FOR UPDATE`,
        [job.deliveryId],
      );
      // A redelivery asked meanwhile owns what happens next; this attempt stays in the log.
      if (!current || current.generation !== job.generation || current.status !== 'PENDING') return;
      let status: 'PENDING' | 'DELIVERED' | 'FAILED' = 'PENDING';
      result = 'retry';
      if (delivered) [status, result] = ['DELIVERED', 'delivered'];
      else if (outcome.status === 410) {
        [status, result] = ['FAILED', 'disabled'];
        await manager.query(
          `UPDATE webhook_endpoint SET disabled = true, disabled_reason = 'the receiver answered 410 Gone', updated_at = now() WHERE webhook_endpoint_id = $1`,
          [row.webhook_endpoint_id],
        );
        this.logger.warn(`endpoint ${row.webhook_endpoint_id} answered 410 Gone: disabled`);
      } else if (job.step < this.settings.webhooks.retryScheduleSeconds.length) {
        const wait = this.settings.webhooks.retryScheduleSeconds[job.step];
        await this.dispatcher.sendDeliveryJob(manager, { ...job, step: job.step + 1 }, wait);
      } else [status, result] = ['FAILED', 'failed'];
      await manager.query(`UPDATE webhook_delivery SET status = $2, url = $3, updated_at = now() WHERE webhook_delivery_id = $1`, [
        job.deliveryId,
        status,
        state.url,
      ]);
    });
    if (result) metrics.webhookDeliveries.inc({ result });
  }

  /** The endpoint is gone or disabled: this generation of the delivery ends failed, without an attempt. */
  private async fail(job: DeliveryJob): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_delivery SET status = 'FAILED', updated_at = now() WHERE webhook_delivery_id = $1 AND generation = $2 AND status = 'PENDING'`,
      [job.deliveryId, job.generation],
    );
  }
}
