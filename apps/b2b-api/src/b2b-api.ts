import { NestExpressApplication } from '@nestjs/platform-express';
import { RuntimeSettings } from '@pcs/config';
import { ApiDescription, createHttpApp } from '@pcs/http';
import { B2bApiModule } from './b2b-api.module';

export const B2B_API: ApiDescription = {
  area: 'B2B',
  title: 'B2B API',
  description:
    'Countries and payment methods a merchant can use, and payment intents that send the payer to a hosted checkout. ' +
    'Every request carries `api-key` and `signature` (see the README).',
  version: '0.0.1',
};

export function createB2bApi(settings: RuntimeSettings, logLevel?: string): Promise<NestExpressApplication> {
  return createHttpApp(B2bApiModule.forRoot(settings, logLevel), B2B_API);
}
