/**
 * The operations dashboard's own context (contract §18): its people and
 * roles, their sessions and the audit log. It knows nothing of payments: the
 * dashboard reads and changes those only through the payins API.
 */
export * from './dashboard-identity';
export * from './password';
export * from './roles';
export * from './password-policy';
export * from './second-factor';
export * from './audit-chain';
export * from './persistence/audit-log';
export * from './persistence/admin-addresses';
export * from './persistence/dashboard-identity-on';
export * from './audit-anchor';
export * from './audit-sealer';
export * from './persistence/api-audit-trail';
