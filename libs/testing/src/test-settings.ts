import {
  DEFAULT_GATEWAY_SETTINGS,
  DEFAULT_IDEMPOTENCY_LEASE_SECONDS,
  DEFAULT_MAIL_SETTINGS,
  GatewaySettings,
  DEFAULT_WEBHOOK_SETTINGS,
  DEFAULT_DAILY_RUN_SETTINGS,
  DEFAULT_SETTLEMENT_SETTINGS,
  SettlementSettings,
  MailSettings,
  RateLimitSettings,
  RuntimeSettings,
  WebhookSettings,
} from '@pcs/config';
import * as crypto from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';

/** Settings pointing at this run's database (see global-setup.ts). */
export function testSettings(
  publicBaseUrl = 'http://localhost:3000',
  gateway: Partial<GatewaySettings> = {},
  mail: Partial<MailSettings> = {},
  webhooks: Partial<WebhookSettings> = {},
  rateLimits: Partial<RateLimitSettings> = {},
  settlement: Partial<SettlementSettings> = {},
): RuntimeSettings {
  const url = process.env.TEST_DATABASE_URL;
  const key = process.env.TEST_SECRETS_MASTER_KEY;
  if (!url || !key) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (npm test)');
  // Sweeps run only when a test asks (sweepSeconds is long), so timing never decides an outcome.
  // Mail goes to .eml files in a temporary folder unless a test brings its own SMTP server.
  return new RuntimeSettings(
    url,
    Buffer.from(key, 'base64'),
    publicBaseUrl,
    4,
    { ...DEFAULT_GATEWAY_SETTINGS, sweepSeconds: 3600, ...gateway },
    DEFAULT_IDEMPOTENCY_LEASE_SECONDS,
    {
      ...DEFAULT_MAIL_SETTINGS,
      directory: path.join(os.tmpdir(), 'pcs-test-mail'),
      pollSeconds: 0.5,
      retryDelaySeconds: 1,
      // Each app of a test run works its own queue: apps of other spec files share the database.
      queue: `mail-test-${crypto.randomBytes(4).toString('hex')}`,
      ...mail,
    },
    {
      ...DEFAULT_WEBHOOK_SETTINGS,
      // Test receivers listen on 127.0.0.1 over http; retries come quickly.
      allowLocalhost: true,
      retryScheduleSeconds: [1, 1, 1],
      pollSeconds: 0.5,
      // Each app of a test run works its own queues, like its mail queue.
      dispatchQueue: `event-dispatch-test-${crypto.randomBytes(4).toString('hex')}`,
      deliveryQueue: `webhook-delivery-test-${crypto.randomBytes(4).toString('hex')}`,
      ...webhooks,
    },
    // Every spec file calls from 127.0.0.1, many at once: limits only where a test sets them (signature-v2, rate-limits).
    { enabled: true, readsPerSecond: 1_000_000, writesPerSecond: 1_000_000, addressPerSecond: 1_000_000, trustProxy: false, ...rateLimits },
    true,
    {
      ...DEFAULT_SETTLEMENT_SETTINGS,
      sandboxPayoutDelaySeconds: 1,
      pollSeconds: 0.5,
      payoutQueue: `payout-test-${crypto.randomBytes(4).toString('hex')}`,
      ...settlement,
    },
    // Spec files share the database: no app of a test claims the daily runs (they touch every merchant); tests run them by hand.
    { ...DEFAULT_DAILY_RUN_SETTINGS, claim: false, queue: `daily-run-test-${crypto.randomBytes(4).toString('hex')}` },
  );
}
