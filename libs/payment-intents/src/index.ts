export * from './payment-intent-activity';
