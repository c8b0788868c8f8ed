export * from './test-settings';
export * from './signed-client';
export * from './test-apps';
export * from './error-shape';
export * from './service-context';
export * from './browser';
export * from './response-contract';
export * from './mercado-pago-stand-in';
