import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { DomainError, ErrorCode } from '@pcs/kernel';
import { catchError, Observable, throwError } from 'rxjs';

/**
 * Some operations have one fixed errorId for every 400 (specification, Errors:
 * e.g. Payins:ERROR_IN_DELETE_PAYER). This reports every invalid-input
 * failure of the route, validation included, under that code, keeping the
 * message that names the fields.
 */
export function InvalidRequestsAs(code: ErrorCode, keep: readonly ErrorCode[] = []): MethodDecorator {
  @Injectable()
  class RecodeInvalid implements NestInterceptor {
    intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
      return next
        .handle()
        .pipe(
          catchError((error: unknown) =>
            throwError(() =>
              error instanceof DomainError && error.definition.kind === 'INVALID' && error.code !== code && !keep.includes(error.code)
                ? error.recode(code)
                : error,
            ),
          ),
        );
    }
  }
  return applyDecorators(UseInterceptors(RecodeInvalid));
}
