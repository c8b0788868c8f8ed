import { RuntimeSettings } from '@pcs/config';

/** Settings pointing at this run's database (see global-setup.ts). */
export function testSettings(publicBaseUrl = 'http://localhost:3000'): RuntimeSettings {
  const url = process.env.TEST_DATABASE_URL;
  const key = process.env.TEST_SECRETS_MASTER_KEY;
  if (!url || !key) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (npm test)');
  return new RuntimeSettings(url, Buffer.from(key, 'base64'), publicBaseUrl, 4);
}
