export * from './mail.module';
export * from './mail-outbox';
export * from './mail-message';
