export * from './mail.module';
export * from './persistence/mail-outbox';
export * from './mail-message';
