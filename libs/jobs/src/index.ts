export * from './jobs.module';
export * from './persistence/job-queue';
export * from './persistence/daily-runs';
