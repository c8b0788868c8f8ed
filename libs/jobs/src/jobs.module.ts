import { Module } from '@nestjs/common';
import { JobQueue } from './job-queue';

/** The process's PostgreSQL-backed job queue (pg-boss), one instance shared by every background context. */
@Module({ providers: [JobQueue], exports: [JobQueue] })
export class JobsModule {}
