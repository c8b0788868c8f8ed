export * from './metrics';
export * from './requests-in-flight';
export * from './tracing';
