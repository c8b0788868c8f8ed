/**
 * The testing library's second entry point (`@pcs/testing/http`): what a spec that talks to an API only
 * over HTTP needs (signed clients, the error shape, the remote contract check), without loading the
 * apps' services as the index does (test/shared-testbed.ts).
 */
export * from './signed-client';
export * from './error-shape';
export * from './eventually';
export { watchRemoteContract } from './response-contract';
export type { ContractViolation } from './response-contract';
export type { TestTenant } from './test-apps';
