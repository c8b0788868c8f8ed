import { DynamicModule, Global, Module, ModuleMetadata, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import * as os from 'node:os';
import pino from 'pino';
import pinoPretty from 'pino-pretty';
import { ApiAudit, ApiAuditInterceptor } from './api-audit.interceptor';
import { OmitSecretsInterceptor } from './omit-secrets.interceptor';
import { ApiArea } from './error-body';
import { ErrorFilter } from './error.filter';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { requestIdOf } from './request-observer';
import { API_AREA } from './idempotency';
import { RateLimits } from './rate-limits';
import { SignatureGuard } from './signature.guard';
import { AuditTrail, RequestCredentials } from './ports';
import { RequestValidationPipe } from './validation.pipe';

export interface HttpFoundationOptions {
  readonly area: ApiArea;
  /** The app's name, on every log line. */
  readonly app: string;
  readonly logLevel?: string;
  /** The benchmark's `request-log` layer left out: no line per request (every API logs them). */
  readonly withoutRequestLog?: boolean;
  /** The modules that provide the ports (the businesses context, for its credentials). */
  readonly imports: NonNullable<ModuleMetadata['imports']>;
  /** The credentials requests are verified against: a provider of those modules that has RequestCredentials' shape. */
  readonly credentials: Type<RequestCredentials>;
  /** The audit trail every change is written to: a class of AuditTrail's shape, built here. */
  readonly audit: Type<AuditTrail>;
}

let logDestination: pino.DestinationStream | null = null;

/** Pretty lines for a person (LOG_FORMAT=pretty, or auto on a terminal); JSON lines otherwise. */
export function prettyLogs(format = process.env.LOG_FORMAT ?? 'auto', terminal = process.stdout.isTTY === true): boolean {
  return format === 'pretty' || (format !== 'json' && terminal);
}

/**
 * The process's log stream: standard output written asynchronously
 * (sonic-boom): a request does not wait on a write(2) of its log line, and
 * lines that arrive while a write is under way go out together in the next.
 * Flushed when the process exits; a kill -9 loses at most the lines not yet
 * written. On a terminal, one readable line per entry (pino-pretty): the
 * time, the level, the app, the message, and for a request its method,
 * path, status, duration and id.
 */
function logStream(): pino.DestinationStream {
  if (!logDestination) {
    const destination = pino.destination({ dest: 1, sync: false });
    process.once('exit', () => destination.flushSync());
    logDestination = prettyLogs()
      ? pinoPretty({
          destination,
          colorize: process.stdout.isTTY === true,
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname,app,context,req,res,responseTime,requestId',
          messageFormat:
            '{app} {if context}[{context}] {end}{msg}{if req.method} {req.method} {req.path} → {res.statusCode} in {responseTime} ms{end}{if req.id} (request {req.id}){end}',
          singleLine: true,
        })
      : destination;
  }
  return logDestination;
}

/**
 * What every API of this service shares: the signature guard, the audit of
 * every change, the error filter, the validation pipe, request logging with
 * credentials redacted, and /health.
 */
@Global()
@Module({})
export class HttpFoundationModule {
  static forRoot(options: HttpFoundationOptions): DynamicModule {
    return {
      module: HttpFoundationModule,
      imports: [
        ...options.imports,
        TerminusModule.forRoot({ logger: false }),
        LoggerModule.forRoot({
          pinoHttp: {
            level: options.logLevel ?? 'info',
            // Every line names its app (two APIs share one terminal under npm start).
            base: { app: options.app, pid: process.pid, hostname: os.hostname() },
            // Given by the first middleware (observeRequests), before any body is read.
            genReqId: (request, response) => requestIdOf(request, response),
            // Credentials and signatures never reach the logs.
            redact: {
              paths: [
                'req.headers["api-key"]',
                'req.headers.signature',
                'req.headers["signature-input"]',
                'req.headers.authorization',
                'req.headers.cookie',
              ],
              censor: '[redacted]',
            },
            serializers: {
              // The path only: query strings may carry personal data (search terms).
              req: (request: { id: string; method: string; url: string }) => ({
                id: request.id,
                method: request.method,
                path: request.url.split('?')[0],
              }),
            },
            // Why a request was refused (missing, signature, stale, replay, rate-limited:writes …): never the key or the signature.
            customProps: (request) => {
              const refusal = (request as { refusal?: string }).refusal;
              return refusal ? { refusal } : {};
            },
            autoLogging: options.withoutRequestLog
              ? false
              : { ignore: (request) => request.url === '/health' || request.url === '/metrics' },
            stream: logStream(),
          },
        }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: RequestCredentials, useExisting: options.credentials },
        { provide: AuditTrail, useClass: options.audit },
        RateLimits,
        ApiAudit,
        { provide: APP_GUARD, useClass: SignatureGuard },
        // Every change a verified credential asks for, audited (contract §27).
        { provide: APP_INTERCEPTOR, useClass: ApiAuditInterceptor },
        // `Prefer: secrets=omit`: answered without any apiSecret (the dashboard's requests, contract §27).
        { provide: APP_INTERCEPTOR, useClass: OmitSecretsInterceptor },
        { provide: APP_FILTER, useFactory: () => new ErrorFilter(options.area) },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        { provide: API_AREA, useValue: options.area },
      ],
      exports: [API_AREA],
    };
  }
}
