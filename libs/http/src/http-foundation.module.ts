import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { BusinessesModule } from '@pcs/businesses';
import { LoggerModule } from 'nestjs-pino';
import * as crypto from 'node:crypto';
import pino from 'pino';
import { ApiArea } from './error-body';
import { ErrorFilter } from './error.filter';
import { HealthController } from './health.controller';
import { API_AREA } from './idempotency';
import { SignatureGuard } from './signature.guard';
import { RequestValidationPipe } from './validation.pipe';

export interface HttpFoundationOptions {
  readonly area: ApiArea;
  readonly logLevel?: string;
}

let logDestination: pino.DestinationStream | null = null;

/**
 * The process's log stream: standard output written asynchronously
 * (sonic-boom): a request does not wait on a write(2) of its log line, and
 * lines that arrive while a write is under way go out together in the next.
 * Flushed when the process exits; a kill -9 loses at most the lines not yet
 * written.
 */
function logStream(): pino.DestinationStream {
  if (!logDestination) {
    const destination = pino.destination({ dest: 1, sync: false });
    process.once('exit', () => destination.flushSync());
    logDestination = destination;
  }
  return logDestination;
}

/**
 * What every API of this service shares: the signature guard, the error
 * filter, the validation pipe, request logging with credentials redacted,
 * and /health.
 */
@Global()
@Module({})
export class HttpFoundationModule {
  static forRoot(options: HttpFoundationOptions): DynamicModule {
    return {
      module: HttpFoundationModule,
      imports: [
        BusinessesModule,
        LoggerModule.forRoot({
          pinoHttp: {
            level: options.logLevel ?? 'info',
            genReqId: (request, response) => {
              const given = request.headers['x-request-id'];
              const id = typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : crypto.randomUUID();
              response.setHeader('x-request-id', id);
              return id;
            },
            // Credentials and signatures never reach the logs.
            redact: {
              paths: ['req.headers["api-key"]', 'req.headers.signature', 'req.headers.authorization', 'req.headers.cookie'],
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
            autoLogging: { ignore: (request) => request.url === '/health' },
            stream: logStream(),
          },
        }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_GUARD, useClass: SignatureGuard },
        { provide: APP_FILTER, useFactory: () => new ErrorFilter(options.area) },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        { provide: API_AREA, useValue: options.area },
      ],
      exports: [API_AREA],
    };
  }
}
