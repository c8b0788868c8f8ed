export * from './events.module';
export * from './event-recorder';
export * from './event-types';
