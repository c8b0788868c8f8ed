import { Module } from '@nestjs/common';
import { DailyRuns } from './persistence/daily-runs';
import { JobQueue } from './persistence/job-queue';

/**
 * The process's PostgreSQL-backed job queue (pg-boss), one instance shared by
 * every background context, and the once-a-day runs built on it.
 */
@Module({ providers: [JobQueue, DailyRuns], exports: [JobQueue, DailyRuns] })
export class JobsModule {}
