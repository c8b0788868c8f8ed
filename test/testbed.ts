import { NestExpressApplication } from '@nestjs/platform-express';
import { getDataSourceToken } from '@nestjs/typeorm';
import { GatewaySettings, MailSettings, RateLimitSettings, WebhookSettings } from '@pcs/config';
import { ApiCredentials, clientFor, createTenant, SignedClient, TestTenant } from '@pcs/testing';
import { DataSource } from 'typeorm';
import { freePort, startB2bApi, startPayinsApi } from './payins-app';

/** What an end-to-end spec works with: a real app on this run's database, a tenant, signed clients. */
export interface Testbed {
  readonly app: NestExpressApplication;
  readonly tenant: TestTenant;
  /** Signed with the business's credentials. */
  readonly business: SignedClient;
  /** Signed with the first merchant's credentials. */
  readonly merchant: SignedClient;
  readonly dataSource: DataSource;
  /** A payer of the first merchant, when asked for. */
  readonly payerId: string;
  client(credentials: ApiCredentials): SignedClient;
  close(): Promise<void>;
}

export interface TestbedOptions {
  /** Which API: the payins API (default, listening on loopback) or the B2B API. */
  readonly api?: 'payins' | 'b2b';
  readonly gateway?: Partial<GatewaySettings>;
  readonly merchants?: number;
  readonly country?: string;
  readonly name?: string;
  /** A payer to create for the first merchant (POST /payer with this body). */
  readonly payer?: Record<string, unknown>;
  /** Listen where PUBLIC_BASE_URL points (a free port), so the URLs handed to payers work in a browser. */
  readonly reachable?: boolean;
  readonly mail?: Partial<MailSettings>;
  readonly webhooks?: Partial<WebhookSettings>;
  /** Rate limits of the payins API (high unless a test sets them). */
  readonly rateLimits?: Partial<RateLimitSettings>;
}

/** The one opening of every end-to-end spec: boot the app, a tenant, signed clients, optionally a payer. */
export async function testbed(options: TestbedOptions = {}): Promise<Testbed> {
  const app =
    options.api === 'b2b'
      ? await startB2bApi(options.gateway, options.reachable ? await freePort() : undefined, options.mail)
      : await startPayinsApi(
          options.gateway,
          options.reachable ? await freePort() : undefined,
          options.mail,
          options.webhooks,
          options.rateLimits,
        );
  const tenant = await createTenant(app, { merchants: options.merchants, country: options.country, name: options.name });
  const merchant = clientFor(app, tenant.merchants[0]);
  let payerId = '';
  if (options.payer) {
    const created = await merchant.post('/payer', options.payer);
    if (created.status !== 200) throw new Error(`the testbed could not create its payer: ${JSON.stringify(created.body)}`);
    payerId = created.body.payerId;
  }
  return {
    app,
    tenant,
    business: clientFor(app, tenant.business),
    merchant,
    dataSource: app.get<DataSource>(getDataSourceToken()),
    payerId,
    client: (credentials) => clientFor(app, credentials),
    close: () => app.close(),
  };
}
