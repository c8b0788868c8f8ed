import { DomainError, ErrorKind } from '@pcs/kernel';
import type { Response } from 'express';

/** The specification's error body (Errors section). */
export interface ErrorBody {
  message: string;
  showMessage: { EN: string; ES: string };
  needUpdate: boolean;
  errorId: string;
  /** Only for Payins:SETTLEMENT_ACCOUNT_ON_HOLD: when payouts to the account may leave. */
  holdUntil?: string;
  /** Only for Payins:SETTLEMENT_ACCOUNT_RETURNED: the payout a bank gave back from the account. */
  returnedPayoutId?: string;
  /** Only for Payins:AMOUNT_BELOW_MINIMUM: the smallest amount the processor collects (major units). */
  minimumAmount?: number;
}

export type ApiArea = 'Payins' | 'B2B';

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  INVALID: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  HEADERS_TOO_LARGE: 431,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  TOO_MANY_REQUESTS: 429,
};

/** How long a client should wait before trying again when the service is unavailable (contract §17). */
export const RETRY_AFTER_SECONDS = 5;

export function statusOf(error: DomainError): number {
  return STATUS_BY_KIND[error.definition.kind];
}

export function errorBodyOf(error: DomainError, area: ApiArea): ErrorBody {
  const fields = Object.fromEntries((error.definition.fields ?? []).filter((f) => f in error.params).map((f) => [f, error.params[f]]));
  return {
    message: error.message,
    showMessage: error.texts(),
    needUpdate: false,
    errorId: `${error.definition.area ?? area}:${error.definition.code}`,
    ...fields,
  };
}

export type ErrorResponder = (response: Response, error: DomainError) => void;

export function errorResponder(area: ApiArea): ErrorResponder {
  return (response, error) => {
    if (error.definition.kind === 'UNAVAILABLE') response.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    if (error.definition.kind === 'TOO_MANY_REQUESTS') response.setHeader('Retry-After', String(error.params.retryAfter ?? 1));
    // Explicitly: a route may have set another content type (an HTML page) before failing.
    response.status(statusOf(error)).type('application/json').json(errorBodyOf(error, area));
  };
}
