export * from './jobs.module';
export * from './job-queue';
