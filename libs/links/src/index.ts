export * from './links.module';
export * from './link.service';
export * from './domain/link';
export * from './link.representation';
