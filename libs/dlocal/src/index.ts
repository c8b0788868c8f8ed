export * from './dlocal.module';
export * from './dlocal-account';
export { DLocalClient, DLocalRequestError, verifyDLocalCallback, verifyDLocalSignature } from './dlocal.client';
export type { DLocalCredentials, DLocalPayment, DLocalRefund } from './dlocal.client';
export { eventOfPayment as dlocalEventOfPayment, outcomeOfStatus as dlocalOutcomeOfStatus } from './dlocal.gateway';
export * from './dlocal-methods';
export * from './payer-document';
export * from './dlocal-account-route';
export { DLOCAL_RECONCILIATION } from './dlocal-lookups';
