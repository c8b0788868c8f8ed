import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { isDatabaseUnavailable } from '@pcs/database';
import { DomainError } from '@pcs/kernel';
import { PAGE_HEADERS, payerLanguage, renderTooManyAttemptsPage } from '@pcs/pages';
import type { Request, Response } from 'express';
import { errorResponder, ErrorResponder } from './error-body';
import type { ApiArea } from './error-body';
import { ReplayedResponse } from './idempotency';
import type { PendingUploadRequest } from './json-body';
import { answerWithTryAgainPage } from './payer-page';
import type { GuardedRequest } from './signature.guard';

/**
 * The one place failures become HTTP responses. Domain errors keep their code;
 * a route Nest does not know is a 404; anything unexpected is logged with the
 * request id and answered with a 500 that shows no internals.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');
  private readonly respond: ErrorResponder;

  constructor(area: ApiArea) {
    this.respond = errorResponder(area);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request & { id?: string }>();
    if (response.headersSent) return;
    if (exception instanceof ReplayedResponse) {
      response.status(exception.status).setHeader('Idempotent-Replayed', 'true');
      response.type('application/json').send(exception.body);
      return;
    }
    const error = this.toDomainError(exception, request);
    // An upload refused before its body was read (contract §30): the rest is never read; the answer closes the connection.
    if ((request as PendingUploadRequest).uploadPending) response.setHeader('Connection', 'close');
    // The card-testing guard's refusal on a public page (contract §30): a page in the payer's language, or the JSON error
    // body (Payins:TOO_MANY_ATTEMPTS) to a caller that asks for JSON rather than HTML.
    if (error.code === 'TOO_MANY_ATTEMPTS' && (request as GuardedRequest).payerPage && request.accepts(['html', 'json']) !== 'json') {
      const retryAfter = Number(error.params.retryAfter ?? 1);
      response
        .status(429)
        .set(PAGE_HEADERS)
        .set('Retry-After', String(retryAfter))
        .send(renderTooManyAttemptsPage(payerLanguage(request.header('accept-language')), retryAfter));
      return;
    }
    // A payer refused for their rate reads a page in their language, not an API's error body.
    if (error.definition.kind === 'TOO_MANY_REQUESTS' && (request as GuardedRequest).payerPage && error.code !== 'TOO_MANY_ATTEMPTS') {
      answerWithTryAgainPage(request, response, 429, Number(error.params.retryAfter ?? 1));
      return;
    }
    this.respond(response, error);
  }

  protected toDomainError(exception: unknown, request: Request & { id?: string }): DomainError {
    if (exception instanceof DomainError) return exception;
    // The database is away (restarting, failing over, out of reach): a 503 with Retry-After, not a 500.
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn({ requestId: request.id, method: request.method, path: request.path }, 'database unavailable');
      return new DomainError('SERVICE_UNAVAILABLE');
    }
    // Our code never throws HttpException; these come from Nest itself.
    if (exception instanceof NotFoundException) return new DomainError('ROUTE_NOT_FOUND');
    if (exception instanceof PayloadTooLargeException) return new DomainError('PAYLOAD_TOO_LARGE');
    if (exception instanceof HttpException && exception.getStatus() === 400) return new DomainError('MALFORMED_JSON');
    // Name, message and stack only: a failed query carries its parameters, which may hold personal data.
    const error =
      exception instanceof Error
        ? { type: exception.name, message: exception.message, stack: exception.stack }
        : { value: String(exception) };
    this.logger.error({ error, requestId: request.id, method: request.method, path: request.path }, 'unhandled error');
    return new DomainError('INTERNAL_ERROR');
  }
}
