import { DEFAULT_GATEWAY_SETTINGS, GatewaySettings, RuntimeSettings } from '@pcs/config';

/** Settings pointing at this run's database (see global-setup.ts). */
export function testSettings(publicBaseUrl = 'http://localhost:3000', gateway: Partial<GatewaySettings> = {}): RuntimeSettings {
  const url = process.env.TEST_DATABASE_URL;
  const key = process.env.TEST_SECRETS_MASTER_KEY;
  if (!url || !key) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (npm test)');
  // Sweeps run only when a test asks (sweepSeconds is long), so timing never decides an outcome.
  return new RuntimeSettings(url, Buffer.from(key, 'base64'), publicBaseUrl, 4, {
    ...DEFAULT_GATEWAY_SETTINGS,
    sweepSeconds: 3600,
    ...gateway,
  });
}
