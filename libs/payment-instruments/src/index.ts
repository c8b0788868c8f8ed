export * from './payment-instruments.module';
export * from './payment-instrument.service';
export * from './domain/payment-instrument';
export * from './payment-instrument.representation';
