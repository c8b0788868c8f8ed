export * from './disputes.module';
export * from './disputes.service';
export * from './dispute-reports.service';
export * from './dispute.representation';
export * from './domain/dispute';
export * from './domain/evidence-rules';
export { EVIDENCE_FIELD } from './evidence/multipart-evidence';
export type { DisputeFilters } from './dispute.repository';
