import { NestExpressApplication } from '@nestjs/platform-express';
import { GatewaySettings } from '@pcs/config';
import { testSettings } from '@pcs/testing';
import { createB2bApi } from '../apps/b2b-api/src/b2b-api';
import { createPayinsApi } from '../apps/payins-api/src/payins-api';

/**
 * The real payins API, exactly as main.ts builds it, on this run's database,
 * listening on a free loopback port (the sandbox gateway calls back over HTTP).
 */
export async function startPayinsApi(gateway: Partial<GatewaySettings> = {}): Promise<NestExpressApplication> {
  const app = await createPayinsApi(testSettings('http://localhost:3000', gateway), 'silent');
  await app.listen(0, '127.0.0.1');
  return app;
}

export async function startB2bApi(): Promise<NestExpressApplication> {
  const app = await createB2bApi(testSettings('http://localhost:3001'), 'silent');
  await app.init();
  return app;
}
