import createClient, { type Client } from 'openapi-fetch';
import type { paths as B2bPaths } from './generated/b2b-api';
import type { paths as PayinsPaths } from './generated/payins-api';
import { ApiCredentials, signingMiddleware } from './signing';

export interface ClientOptions extends ApiCredentials {
  /** Where the API answers, e.g. http://localhost:3000 (payins) or http://localhost:3001 (B2B). */
  readonly baseUrl: string;
  /** Another fetch (a test double of the network, a proxy agent); the global one by default. */
  readonly fetch?: typeof fetch;
}

export type PayinsClient = Client<PayinsPaths>;
export type B2bClient = Client<B2bPaths>;

/**
 * A typed client of the payins API, generated from docs/openapi/payins-api.json:
 * paths, parameters, bodies and answers are checked by the compiler, and every
 * request is signed.
 *
 *     const payins = createPayinsClient({ baseUrl, apiKey, apiSecret });
 *     const { data, error } = await payins.POST('/payer', { body: { ... } });
 */
export function createPayinsClient(options: ClientOptions): PayinsClient {
  const client = createClient<PayinsPaths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  client.use(signingMiddleware(options));
  return client;
}

/** A typed client of the B2B API (docs/openapi/b2b-api.json), every request signed. */
export function createB2bClient(options: ClientOptions): B2bClient {
  const client = createClient<B2bPaths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  client.use(signingMiddleware(options));
  return client;
}
