export * from './merchants.module';
export * from './merchant-access';
export * from './merchant.service';
export * from './merchant-configuration.service';
export * from './merchant-country-processor.service';
export * from './domain/merchant';
export * from './domain/merchant-configuration';
export * from './domain/merchant-country-processor';
