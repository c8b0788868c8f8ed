import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RuntimeSettings } from '@pcs/config';
import { JobQueue } from '@pcs/jobs';
import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { MailMessage } from '../mail-message';
import { MailTransport } from '../mail.transport';
import { metrics } from '@pcs/observability';
import { Transaction } from '@pcs/kernel';
import { managerOf, transactionOf } from '@pcs/database';

/**
 * The mail outbox (contract §15). `enqueue` writes the message and its
 * delivery job inside the caller's transaction: nothing is sent for what was
 * rolled back, and nothing committed is lost. A pg-boss worker in every API
 * process delivers it, retrying with backoff; a message is marked SENT once
 * the SMTP server took it, so a job that runs again after that sends nothing
 * (a crash between the server's acceptance and that mark can repeat it — the
 * one duplicate no outbox can rule out; the Message-ID lets a reader spot it).
 */
@Injectable()
export class MailOutbox implements OnApplicationBootstrap {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transport: MailTransport,
    private readonly jobs: JobQueue,
    private readonly settings: RuntimeSettings,
  ) {}

  async enqueue(tx: Transaction, message: MailMessage): Promise<string> {
    const manager = managerOf(tx);
    const id = crypto.randomUUID();
    await manager.query(
      `INSERT INTO mail_message (mail_message_id, to_address, subject, text_body, html_body, status) VALUES ($1, $2, $3, $4, $5, 'PENDING')`,
      [id, message.to, message.subject, message.text, message.html],
    );
    // The job row is written by the caller's transaction: it commits or rolls back with the message.
    await this.jobs.send(
      transactionOf(manager),
      this.settings.mail.queue,
      { mailMessageId: id },
      { retryLimit: 12, retryDelay: this.settings.mail.retryDelaySeconds, retryBackoff: true },
    );
    return id;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.work<{ mailMessageId: string }>(
      this.settings.mail.queue,
      { batchSize: 5, pollingIntervalSeconds: this.settings.mail.pollSeconds },
      async (jobs) => {
        for (const job of jobs) await this.deliver(job.data.mailMessageId);
      },
    );
  }

  /** One message: sent at most once on purpose; a failure is recorded and thrown, so pg-boss retries it. */
  async deliver(mailMessageId: string): Promise<void> {
    const [row] = await this.dataSource.query<
      { to_address: string; subject: string; text_body: string; html_body: string; status: string }[]
    >(`SELECT to_address, subject, text_body, html_body, status FROM mail_message WHERE mail_message_id = $1`, [mailMessageId]);
    if (!row || row.status === 'SENT') return;
    try {
      await this.transport.send(mailMessageId, { to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body });
    } catch (error) {
      await this.dataSource.query(`UPDATE mail_message SET attempts = attempts + 1, last_error = $2 WHERE mail_message_id = $1`, [
        mailMessageId,
        (error as Error).message.slice(0, 500),
      ]);
      metrics.mailDeliveries.inc({ result: 'error' });
      throw error;
    }
    await this.dataSource.query(
      `UPDATE mail_message SET status = 'SENT', attempts = attempts + 1, sent_at = now(), last_error = NULL WHERE mail_message_id = $1`,
      [mailMessageId],
    );
    metrics.mailDeliveries.inc({ result: 'sent' });
  }
}
