export * from './gateways.module';
export * from './payment-gateway.port';
export * from './sandbox/sandbox-callbacks';
export * from './sandbox/sandbox-desk';
export * from './sandbox/sandbox-rules';
export { SANDBOX } from './sandbox/sandbox.gateway';
export * from './sandbox/sandbox-page';
export * from './mercado-pago/mercado-pago-accounts.service';
