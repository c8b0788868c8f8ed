import { NestExpressApplication } from '@nestjs/platform-express';
import { getDataSourceToken } from '@nestjs/typeorm';
import { GatewaySettings, MailSettings, RateLimitSettings, SettlementSettings, WebhookSettings } from '@pcs/config';
import { ApiCredentials, clientFor, createTenant, SignedClient, TestTenant } from '@pcs/testing';
import * as crypto from 'node:crypto';
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
  /** A SUCCEEDED intent of the first merchant's payer (`payer` must be given), charged off-session in the sandbox with an OCA card; its id. */
  paidIntent(amount: number, currency?: string): Promise<string>;
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
  /** How payouts leave (the sandbox rail, paid after 1 s, unless a test sets it). */
  readonly settlement?: Partial<SettlementSettings>;
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
          options.settlement,
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
    close: () => app.close(),
  };
}
