export * from './payins.module';
export * from './payin-ledger.service';
export * from './domain/payin';
export type { PayinFilters, RefundRecords } from './payin.repository';
export * from './payin.representation';
