export * from './gateway-account-kind';
export * from './gateway-accounts.module';
export * from './gateway-accounts.service';
export * from './account-route';
