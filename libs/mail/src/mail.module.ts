import { Module } from '@nestjs/common';
import { JobsModule } from '@pcs/jobs';
import { MailOutbox } from './persistence/mail-outbox';
import { MailTransport } from './mail.transport';

/** Mail through an outbox and a job queue in the same PostgreSQL (contract §15). */
@Module({ imports: [JobsModule], providers: [MailTransport, MailOutbox], exports: [MailOutbox] })
export class MailModule {}
