/**
 * The typed client of both APIs, for business clients and our own tests:
 * generated from the committed OpenAPI documents by `npm run openapi`, with
 * request signing built in and the helpers a merchant's server needs to trust
 * what it receives (webhooks, the checkout's redirect). It depends on nothing
 * of the service: Web Crypto, openapi-fetch and standardwebhooks only.
 */
export * from './clients';
export * from './signing';
export * from './webhooks';
export * from './redirect';
export type { paths as PayinsPaths, components as PayinsComponents } from './generated/payins-api';
export type { paths as B2bPaths, components as B2bComponents } from './generated/b2b-api';
