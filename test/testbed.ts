import { NestExpressApplication } from '@nestjs/platform-express';
import { getDataSourceToken } from '@nestjs/typeorm';
import { GatewaySettings, MailSettings, RateLimitSettings, SettlementSettings, WebhookSettings } from '@pcs/config';
import { createTenant } from '@pcs/testing';
import { DataSource } from 'typeorm';
import { freePort, startB2bApi, startPayinsApi } from './payins-app';
import { HttpTestbed, httpTestbed } from './shared-testbed';

/** A Uruguayan payer with a verified cédula, as dLocal's payments need one (POST /payer's body). */
export const URUGUAYAN_PAYER = {
  firstName: 'Lucía',
  lastName: 'Gómez',
  email: 'lucia@example.uy',
  documentType: 'IDENTITY_DOCUMENT',
  document: '1.234.567-2',
} as const;

/** What an end-to-end spec with an app of its own works with: the HTTP testbed, plus the app itself and its database. */
export interface Testbed extends HttpTestbed {
  readonly app: NestExpressApplication;
  readonly dataSource: DataSource;
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

/** The opening of an end-to-end spec with an app of its own: boot the app, a tenant, signed clients, optionally a payer. */
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
  const dataSource = app.get<DataSource>(getDataSourceToken());
  const http = await httpTestbed(app.getHttpServer(), tenant, options.payer, {
    newTenant: (tenantOptions) => createTenant(app, tenantOptions),
    query: (sql, parameters) => dataSource.query(sql, parameters),
    close: () => app.close(),
  });
  return { ...http, app, dataSource };
}
