import { ConsoleLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { RequestsInFlight } from '@pcs/observability';
import type { NextFunction, Request, Response } from 'express';
import { DashboardModule } from './dashboard.module';
import { DashboardSettings } from './settings';

/** The framework's start-up chatter (every module loaded, every route mapped): not logged, as the APIs do not; the rest is. */
const FRAMEWORK_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

class QuietStartLogger extends ConsoleLogger {
  override log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context)) return;
    super.log(message, ...(rest as [string]));
  }
}

const inFlightOf = new WeakMap<NestExpressApplication, RequestsInFlight>();

/** How long a stopping dashboard waits for the requests in flight, as the APIs do. */
export const DASHBOARD_DRAIN_MS = 8_000;

/**
 * Closes the dashboard as a deployment stops it (SIGTERM), like the APIs:
 * the requests in flight answer first (at most `drainMs`), then the app and
 * its database pool close.
 */
export async function closeDashboard(
  app: NestExpressApplication,
  drainMs = DASHBOARD_DRAIN_MS,
  log: (line: string) => void = () => {},
): Promise<void> {
  const inFlight = inFlightOf.get(app);
  if (inFlight && !(await inFlight.drained(drainMs))) log(`requests still in flight after ${drainMs} ms: closing anyway`);
  await app.close();
}

/** The dashboard app, as its main.ts and the tests build it. */
export async function createDashboard(settings: DashboardSettings, logLevel = 'info'): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(DashboardModule.forRoot(settings), {
    bodyParser: false,
    logger:
      logLevel === 'silent'
        ? false
        : new QuietStartLogger({
            logLevels: ['error', 'warn', ...(logLevel === 'info' || logLevel === 'debug' ? (['log'] as const) : [])],
          }),
  });
  app.disable('x-powered-by');
  // Every request counts until it is answered: a SIGTERM lets them finish before the database closes (closeDashboard).
  const inFlight = new RequestsInFlight();
  inFlightOf.set(app, inFlight);
  app.use((_request: Request, response: Response, next: NextFunction) => {
    inFlight.track(response);
    next();
  });
  app.set('trust proxy', settings.trustProxy);
  // Over https (or a proxy's X-Forwarded-Proto that TRUST_PROXY lets speak): browsers keep to https for a year.
  app.use((request: Request, response: Response, next: NextFunction) => {
    if (request.secure) response.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  });
  // Forms only (application/x-www-form-urlencoded, flat fields), and a dispute's evidence as a multipart form, which its route reads
  // itself once the session and the form's token have been checked: nothing else is ever posted here.
  app.useBodyParser('urlencoded', { extended: false, limit: '16kb', parameterLimit: 50, verify: wellEncoded });
  // A post that is no form (no body, JSON, text, another charset) has no fields at all: every form's checks then refuse it (4xx), never a 500.
  app.use((request: Request, _response: Response, next: NextFunction) => {
    if (request.body === undefined || request.body === null || typeof request.body !== 'object' || Array.isArray(request.body))
      request.body = {};
    next();
  });
  return app;
}

/** A form whose percent-encoding is broken or is not UTF-8 is refused (400), not read as whatever a lenient decoder makes of it. */
function wellEncoded(_request: Request, _response: Response, body: Buffer): void {
  for (const part of body.toString('latin1').split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw Object.assign(new Error('the form is not well encoded'), { status: 400 });
    }
  }
}
