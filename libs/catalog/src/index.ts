export * from './catalog.module';
export * from './catalog.service';
export * from './domain/catalog.types';
export * from './country-processor.representation';
