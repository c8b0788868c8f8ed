import { Injectable } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import nodemailer, { Transporter } from 'nodemailer';
import { MailMessage } from './mail-message';

/** Hands a message to SMTP (SMTP_URL), or writes it as an `.eml` file (embedded default without SMTP_URL). */
@Injectable()
export class MailTransport {
  private readonly transporter: Transporter;
  private readonly directory: string | null;
  private readonly from: string;
  private readonly transporterIsSmtp: boolean;

  constructor(settings: RuntimeSettings) {
    this.from = settings.mail.from;
    this.transporterIsSmtp = settings.mail.smtpUrl !== null;
    this.directory = settings.mail.smtpUrl ? null : settings.mail.directory;
    this.transporter = settings.mail.smtpUrl
      ? nodemailer.createTransport(settings.mail.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  /** Sends (or files) the message; `id` names the file and is the Message-ID's left part, so a resend is recognisable. */
  async send(id: string, message: MailMessage): Promise<void> {
    if (!this.directory && !this.transporterIsSmtp) throw new Error('no mail transport is configured (SMTP_URL)');
    const info = await this.transporter.sendMail({ from: this.from, messageId: `<${id}@payments>`, ...message });
    if (this.directory) {
      await fs.mkdir(this.directory, { recursive: true });
      await fs.writeFile(path.join(this.directory, `${id}.eml`), (info as { message: Buffer }).message);
    }
  }
}
