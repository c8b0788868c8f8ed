export * from './businesses.module';
export * from './business.service';
export * from './credential.service';
export * from './domain/credential';
export { SecretBox } from '@pcs/config';
