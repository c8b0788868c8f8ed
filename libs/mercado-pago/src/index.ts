export * from './mercado-pago.module';
export * from './mercado-pago-account';
export * from './mercado-pago.client';
export { collectorFees, eventOfPayment, MercadoPagoGateway, outcomeOfPayment, refundsOfPayment } from './mercado-pago.gateway';
export { claimOf, disputeNotice } from './mercado-pago-disputes';
export * from './mercado-pago-signature';
export { MERCADO_PAGO_RECONCILIATION, readReleaseReport } from './mercado-pago-release-reports';
export * from './mercado-pago-account-route';
