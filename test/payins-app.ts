import { NestExpressApplication } from '@nestjs/platform-express';
import { GatewaySettings, MailSettings, RateLimitSettings, SettlementSettings, WebhookSettings } from '@pcs/config';
import { ResponseContract, testSettings } from '@pcs/testing';
import { createB2bApi } from '../apps/b2b-api/src/b2b-api';
import { createPayinsApi } from '../apps/payins-api/src/payins-api';

/**
 * The real payins API, exactly as main.ts builds it, on this run's database,
 * listening on a free loopback port (the sandbox gateway calls back over HTTP).
 */
export function startPayinsApi(
  gateway: Partial<GatewaySettings> = {},
  port?: number,
  mail: Partial<MailSettings> = {},
  webhooks: Partial<WebhookSettings> = {},
  rateLimits: Partial<RateLimitSettings> = {},
  settlement: Partial<SettlementSettings> = {},
) {
  return startApi(createPayinsApi, 'payins-api', gateway, port, mail, webhooks, rateLimits, settlement);
}

/** With a port, the URLs handed to payers (PUBLIC_BASE_URL) point at this very server, as a browser test needs. */
async function startApi(
  create: typeof createPayinsApi,
  api: 'payins-api' | 'b2b-api',
  gateway: Partial<GatewaySettings>,
  port: number | undefined,
  mail: Partial<MailSettings>,
  webhooks: Partial<WebhookSettings> = {},
  rateLimits: Partial<RateLimitSettings> = {},
  settlement: Partial<SettlementSettings> = {},
): Promise<NestExpressApplication> {
  const defaultBase = api === 'payins-api' ? 'http://localhost:3000' : 'http://localhost:3001';
  const app = await create(
    testSettings(port ? `http://127.0.0.1:${port}` : defaultBase, gateway, mail, webhooks, rateLimits, settlement),
    process.env.TEST_LOG_LEVEL ?? 'silent',
  );
  // Every answer is checked against the committed document (see contract-after-each.ts).
  ResponseContract.forApi(api).watch(app.getHttpServer());
  await app.listen(port ?? 0, '127.0.0.1');
  return app;
}

/** A free loopback port (the one the embedded server uses). */
export { freePort } from '@pcs/database';

/**
 * The real B2B API, exactly as main.ts builds it, listening on a free loopback
 * port (it runs the sandbox gateway of the checkouts it opens, which calls back
 * over HTTP); with a port, PUBLIC_BASE_URL points at it, as a browser test needs.
 */
export function startB2bApi(gateway: Partial<GatewaySettings> = {}, port?: number, mail: Partial<MailSettings> = {}) {
  return startApi(createB2bApi, 'b2b-api', gateway, port, mail);
}
