import { NestExpressApplication } from '@nestjs/platform-express';
import { testSettings } from '@pcs/testing';
import { createPayinsApi } from '../apps/payins-api/src/payins-api';
import { createB2bApi } from '../apps/b2b-api/src/b2b-api';

/** The real payins API, exactly as main.ts builds it, on this run's database. */
export async function startPayinsApi(): Promise<NestExpressApplication> {
  const app = await createPayinsApi(testSettings(), 'silent');
  await app.init();
  return app;
}

export async function startB2bApi(): Promise<NestExpressApplication> {
  const app = await createB2bApi(testSettings('http://localhost:3001'), 'silent');
  await app.init();
  return app;
}
