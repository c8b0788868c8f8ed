import * as crypto from 'node:crypto';
import { Pool } from 'pg';
import { ApiCredentials, ContractViolation, SignedClient, TestTenant, watchRemoteContract } from '@pcs/testing/http';
import type { SharedApi } from './shared-api/environment';
import type { TenantOptions } from './shared-api/serve';

/**
 * What a spec that needs nothing of an app but its HTTP works with: a tenant, signed clients, the API's
 * address, reads of the worker's database. `sharedTestbed()` gives it on the worker's shared API (one
 * booted app per Jest worker and API, see shared-api/environment.ts); `testbed()` on an app of the
 * spec's own, which a spec needs when it changes the app's settings, reaches into its services or
 * clock, or stops it.
 */
export interface HttpTestbed {
  /** The API's base URL (http://127.0.0.1:<port>), for requests a signed client does not make. */
  readonly url: string;
  readonly tenant: TestTenant;
  /** Signed with the business's credentials. */
  readonly business: SignedClient;
  /** Signed with the first merchant's credentials. */
  readonly merchant: SignedClient;
  /** A payer of the first merchant, when asked for. */
  readonly payerId: string;
  client(credentials: ApiCredentials): SignedClient;
  /** Another business with its merchants, made through the real services. */
  newTenant(options?: TenantOptions): Promise<TestTenant>;
  /** A statement on the worker's database (what a test reads or arranges that the API does not offer). */
  query<T = Record<string, unknown>>(sql: string, parameters?: unknown[]): Promise<T[]>;
  /** A SUCCEEDED intent of the first merchant's payer (`payer` must be given), charged off-session in the sandbox with an OCA card; its id. */
  paidIntent(amount: number, currency?: string): Promise<string>;
  close(): Promise<void>;
}

export interface SharedTestbedOptions {
  /** Which API: the payins API (default) or the B2B API. */
  readonly api?: 'payins' | 'b2b';
  readonly merchants?: number;
  readonly country?: string;
  readonly name?: string;
  /** A payer to create for the first merchant (POST /payer with this body). */
  readonly payer?: Record<string, unknown>;
}

declare const __pcsSharedApi: (api: 'payins-api' | 'b2b-api', env: NodeJS.ProcessEnv) => Promise<SharedApi>;

/** The opening of an end-to-end spec on the worker's shared API: a tenant of its own, signed clients, optionally a payer. */
export async function sharedTestbed(options: SharedTestbedOptions = {}): Promise<HttpTestbed> {
  const api = await __pcsSharedApi(options.api === 'b2b' ? 'b2b-api' : 'payins-api', {
    TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
    TEST_DATABASE_WORKER_NAME: process.env.TEST_DATABASE_WORKER_NAME,
    PASSWORD_HASH_LOG2N: process.env.PASSWORD_HASH_LOG2N,
  });
  // Its answers are checked against the committed document in its process; they fail this spec's tests here.
  watchRemoteContract(() => api.call({ op: 'violations' }) as Promise<ContractViolation[]>);
  const newTenant = (tenantOptions: TenantOptions = {}) => api.call({ op: 'tenant', options: tenantOptions }) as Promise<TestTenant>;
  const tenant = await newTenant({ merchants: options.merchants, country: options.country, name: options.name });
  let pool: Pool | undefined;
  return httpTestbed(api.url, tenant, options.payer, {
    newTenant,
    query: async <T>(sql: string, parameters?: unknown[]) =>
      (await (pool ??= new Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 2 })).query(sql, parameters)).rows as T[],
    close: async () => {
      await pool?.end();
    },
  });
}

/** The clients, payer and paid intents of a tenant on an API at `target` (a URL, or an in-process app's server). */
export async function httpTestbed(
  target: string | import('node:http').Server,
  tenant: TestTenant,
  payer: Record<string, unknown> | undefined,
  parts: Pick<HttpTestbed, 'newTenant' | 'query' | 'close'>,
): Promise<HttpTestbed> {
  const client = (credentials: ApiCredentials) =>
    new SignedClient(target, { apiKey: credentials.apiKey, apiSecret: credentials.apiSecret });
  const merchant = client(tenant.merchants[0]);
  let payerId = '';
  if (payer) {
    const created = await merchant.post('/payer', payer);
    if (created.status !== 200) throw new Error(`the testbed could not create its payer: ${JSON.stringify(created.body)}`);
    payerId = created.body.payerId;
  }
  const address = typeof target === 'string' ? target : `http://127.0.0.1:${(target.address() as import('node:net').AddressInfo).port}`;
  return {
    ...parts,
    url: address,
    tenant,
    business: client(tenant.business),
    merchant,
    payerId,
    client,
    paidIntent: async (amount, currency = 'UYU') => {
      const response = await merchant.post('/payment-intent', {
        currency,
        amount,
        payinType: 'DEFAULT',
        externalReference: `paid-${crypto.randomUUID()}`,
        payerId,
        offSession: true,
        invoiceNumber: 1,
        country: 'URY',
        paymentInstrumentData: { paymentMethodName: 'OCA' },
        confirm: true,
      });
      if (response.body.status !== 'SUCCEEDED') throw new Error(`the intent was not paid: ${JSON.stringify(response.body)}`);
      return response.body.paymentIntent.paymentIntentId as string;
    },
  };
}
