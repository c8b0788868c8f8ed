export * from './language';
export * from './format';
export * from './layout';
export * from './checkout-page';
export * from './form-tokens';
export * from './try-again-page';
export * from './csv';
export * from './too-many-attempts-page';
