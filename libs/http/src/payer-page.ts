import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  Logger,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { isDatabaseUnavailable } from '@pcs/database';
import { DomainError } from '@pcs/kernel';
import { PAGE_HEADERS, payerLanguage, renderTryAgainPage } from '@pcs/pages';
import type { Request, Response } from 'express';
import { catchError, EMPTY, Observable, throwError } from 'rxjs';
import { RETRY_AFTER_SECONDS } from './error-body';

/**
 * A page a payer sees (pay page, checkout, sandbox gateway): while the
 * database cannot be reached it answers 503 with Retry-After and a short
 * "try again in a moment" page in the payer's language, instead of the API's
 * JSON error body. Every other failure goes on to the error filter as before.
 */
export function PayerPage(): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(IS_PAYER_PAGE, true), UseInterceptors(TryAgainWhenUnavailable));
}

/** Read by the signature guard: a payer's page refused for its rate gets the same page (see ErrorFilter). */
export const IS_PAYER_PAGE = 'pcs:payer-page';

/** The page a payer gets instead of an error body: 503 (database away) or 429 (too many requests from their address). */
export function answerWithTryAgainPage(request: Request, response: Response, status: 503 | 429, retryAfterSeconds: number): void {
  response
    .status(status)
    .set(PAGE_HEADERS)
    .set('Retry-After', String(retryAfterSeconds))
    .send(renderTryAgainPage(payerLanguage(request.header('accept-language')), request.originalUrl));
}

@Injectable()
class TryAgainWhenUnavailable implements NestInterceptor {
  private readonly logger = new Logger('PayerPage');

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        const unavailable = isDatabaseUnavailable(error) || (error instanceof DomainError && error.definition.kind === 'UNAVAILABLE');
        const response = context.switchToHttp().getResponse<Response>();
        if (!unavailable || response.headersSent) return throwError(() => error);
        const request = context.switchToHttp().getRequest<Request>();
        this.logger.warn(`${request.method} ${request.path}: database unavailable`);
        answerWithTryAgainPage(request, response, 503, RETRY_AFTER_SECONDS);
        return EMPTY;
      }),
    );
  }
}
