export * from './language';
export * from './format';
export * from './layout';
