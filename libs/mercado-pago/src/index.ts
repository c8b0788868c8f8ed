export * from './mercado-pago.module';
export * from './mercado-pago-account';
export * from './mercado-pago.client';
export { collectorFees, eventOfPayment, MercadoPagoGateway, outcomeOfPayment, refundsOfPayment } from './mercado-pago.gateway';
export * from './mercado-pago-notifications';
export { claimOf, disputeNotice } from './mercado-pago-disputes';
export * from './persistence/mercado-pago-records.repository';
export * from './mercado-pago-signature';
export { readReleaseReport } from './mercado-pago-release-reports';
