import { NestExpressApplication } from '@nestjs/platform-express';
import { RuntimeSettings } from '@pcs/config';
import { ApiDescription, createHttpApp } from '@pcs/http';
import { PayinsApiModule } from './payins-api.module';

export const PAYINS_API: ApiDescription = {
  area: 'Payins',
  title: 'Payins API',
  description:
    'Merchants and their configuration, country processors, payers, payment instruments, payment intents, refunds, links and payins. ' +
    'Every request carries `api-key` and `signature` (see docs/integration.md).',
  version: '0.0.1',
  localUrl: 'http://localhost:3000',
};

export function createPayinsApi(settings: RuntimeSettings, logLevel?: string): Promise<NestExpressApplication> {
  return createHttpApp(PayinsApiModule.forRoot(settings, logLevel), PAYINS_API);
}
