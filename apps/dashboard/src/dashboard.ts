import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DashboardModule } from './dashboard.module';
import { DashboardSettings } from './settings';
import { multipartForms } from './uploads';

/** The dashboard app, as its main.ts and the tests build it. */
export async function createDashboard(settings: DashboardSettings, logLevel = 'info'): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(DashboardModule.forRoot(settings), {
    bodyParser: false,
    logger: logLevel === 'silent' ? false : ['error', 'warn', ...(logLevel === 'info' || logLevel === 'debug' ? (['log'] as const) : [])],
  });
  app.disable('x-powered-by');
  app.set('trust proxy', settings.trustProxy);
  // Forms only (application/x-www-form-urlencoded, flat fields), and a dispute's evidence as a multipart form: nothing else is ever posted here.
  app.useBodyParser('urlencoded', { extended: false, limit: '16kb', parameterLimit: 50 });
  app.use('/disputes', multipartForms);
  return app;
}
