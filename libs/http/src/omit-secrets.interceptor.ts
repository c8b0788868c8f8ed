import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { callerHolds } from '@pcs/kernel';
import { map, Observable } from 'rxjs';
import { AuthenticatedRequest } from './caller.decorator';

/** The preference (RFC 7240) a client sends to be answered without any credential's secret. */
export const OMIT_SECRETS_PREFERENCE = 'secrets=omit';

/** Whether a `Prefer` header asks for `secrets=omit` (among other preferences, any case, quoted or not). */
export function prefersSecretsOmitted(prefer: string | undefined): boolean {
  if (!prefer) return false;
  return prefer
    .split(',')
    .map((preference) => preference.trim().toLowerCase().replace(/"/g, ''))
    .some((preference) => preference === OMIT_SECRETS_PREFERENCE);
}

/**
 * `Prefer: secrets=omit` (contract §27: the dashboard holds no merchant's
 * secret). The specification shows a merchant's `apiSecret` to its owning
 * business; a client that must not hold them (the dashboard, which signs with
 * its business credential) asks to be answered without: every `apiSecret` in
 * the answer is null, and `Preference-Applied: secrets=omit` says so. A
 * restricted credential without `secrets:read` (contract §29) is always
 * answered so, whether it asks or not: the restriction is the server's.
 */
@Injectable()
export class OmitSecretsInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request & AuthenticatedRequest>();
    // A restricted credential without `secrets:read` is answered without, whatever it sends (contract §29).
    const withheld = request.caller ? !callerHolds(request.caller, 'secrets:read') : false;
    if (!withheld && !prefersSecretsOmitted(request.header('prefer'))) return next.handle();
    context.switchToHttp().getResponse<Response>().setHeader('Preference-Applied', OMIT_SECRETS_PREFERENCE);
    return next.handle().pipe(map((answer) => withoutSecrets(answer, 0)));
  }
}

/**
 * The answer with every `apiSecret` null, as deep as the service's
 * representations go. Only plain objects and arrays are walked: a file
 * (StreamableFile), a Buffer or a Date is answered as it is.
 */
export function withoutSecrets(value: unknown, depth: number): unknown {
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, depth + 1));
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [name, name === 'apiSecret' ? null : withoutSecrets(inner, depth + 1)]),
  );
}
