export * from './embedded-postgres';
export * from './connection';
export * from './migrate';
export * from './database.module';
export * from './bigint.transformer';
export * from './unique-violation';
export * from './runtime';
export * from './transactions';
