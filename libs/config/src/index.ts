export * from './environment';
export * from './dotenv';
export * from './runtime-settings';
export * from './runtime-settings.module';
export * from './shutdown';
export * from './secret-box';
export * from './settlement-confirmation';
