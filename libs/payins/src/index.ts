export * from './payins.module';
export * from './payin-ledger.service';
export * from './domain/payin';
export type { RefundRecords } from './payin.repository';
export type { PayinFilters } from './payin-ledger.queries';
export * from './payin.representation';
export * from './domain/processor-finding';
