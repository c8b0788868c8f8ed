export * from './processor-reports.module';
export * from './reconciliation-runs.service';
export * from './domain/reconciliation';
export * from './domain/reconciliation-run';
export * from './processor-notices';
