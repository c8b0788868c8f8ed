export * from './gateway-routes.module';
