import { LoggerService } from '@nestjs/common';
import { Logger } from 'nestjs-pino';

/** Nest's own start-up chatter: a line per module and per route (about fifty per API). */
const START_UP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/**
 * The app's logger: nestjs-pino's, with Nest's start-up lines moved to debug,
 * so that a start prints what a person needs (see apps/ops/src/start.ts)
 * rather than the route table. LOG_LEVEL=debug shows them again.
 */
export class QuietStartLogger implements LoggerService {
  constructor(private readonly inner: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && START_UP_CONTEXTS.has(context)) this.inner.debug(message, ...rest);
    else this.inner.log(message, ...rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.inner.error(message, ...rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.inner.warn(message, ...rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.inner.debug(message, ...rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.inner.verbose(message, ...rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.inner.fatal(message, ...rest);
  }
}
