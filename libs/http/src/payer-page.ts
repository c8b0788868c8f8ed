import { applyDecorators, CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { isDatabaseUnavailable } from '@pcs/database';
import { DomainError } from '@pcs/kernel';
import { PAGE_HEADERS, pageLanguage, renderTryAgainPage } from '@pcs/pages';
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
  return applyDecorators(UseInterceptors(TryAgainWhenUnavailable));
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
        response
          .status(503)
          .set(PAGE_HEADERS)
          .set('Retry-After', String(RETRY_AFTER_SECONDS))
          .send(renderTryAgainPage(pageLanguage(request.header('accept-language')), request.originalUrl));
        return EMPTY;
      }),
    );
  }
}
