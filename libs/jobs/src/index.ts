export * from './jobs.module';
export * from './job-queue';
export * from './daily-runs';
