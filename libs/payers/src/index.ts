export * from './payers.module';
export * from './payer.service';
export * from './payer-payment-activity';
export * from './domain/payer';
export * from './domain/identity-document';
