export * from './businesses.module';
export * from './business.service';
export * from './credential.service';
export * from './domain/credential';
export * from './domain/request-signature';
export { SecretBox } from '@pcs/config';
