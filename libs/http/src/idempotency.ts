import { applyDecorators, CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { Caller, DomainError, InvalidRequestError } from '@pcs/kernel';
import type { Request } from 'express';
import * as crypto from 'node:crypto';
import { catchError, from, mergeMap, Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { errorBodyOf, statusOf } from './error-body';
import type { ApiArea } from './error-body';

export const API_AREA = Symbol('API_AREA');
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const RETENTION = '24 hours';

/** A stored response sent again as it was first sent (the error filter writes it). */
export class ReplayedResponse {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {}
}

/**
 * Idempotency-Key for an operation: scoped to the credentials' owner, kept 24
 * hours. The same key with the same request replays the first response
 * exactly; with a different request it is a 422; while the first is still
 * running, a 409. A request that failed unexpectedly (5xx) frees its key.
 */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      description: 'Up to 255 characters. Same key and body within 24 h: the first response again. Different body: 422. Still running: 409.',
    }),
  );
}

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(API_AREA) private readonly area: ApiArea,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request & { caller?: Caller }>();
    const key = request.header(IDEMPOTENCY_HEADER);
    if (key === undefined || !request.caller) return next.handle();
    if (key.length === 0 || key.length > 255) throw new InvalidRequestError([IDEMPOTENCY_HEADER], `${IDEMPOTENCY_HEADER} must have 1 to 255 characters`);
    const scope = `${request.caller.businessId}:${request.caller.merchantId ?? '*'}`;
    const hash = crypto.createHash('sha256').update(`${request.method} ${request.path} ${JSON.stringify(request.body ?? {})}`).digest('hex');

    if (!(await this.claim(scope, key, hash))) {
      const [row] = await this.dataSource.query(`SELECT request_hash, state, response_status, response_body FROM idempotency_key WHERE scope = $1 AND key = $2`, [scope, key]);
      if (!row || row.state === 'IN_PROGRESS') {
        if (row && row.request_hash !== hash) throw new DomainError('IDEMPOTENCY_KEY_REUSED');
        throw new DomainError('IDEMPOTENCY_REQUEST_IN_PROGRESS');
      }
      if (row.request_hash !== hash) throw new DomainError('IDEMPOTENCY_KEY_REUSED');
      throw new ReplayedResponse(row.response_status, row.response_body);
    }

    return next.handle().pipe(
      mergeMap((body) => from(this.finish(scope, key, 200, JSON.stringify(body)).then(() => body))),
      catchError((error: unknown) =>
        from(
          (async () => {
            if (error instanceof DomainError && statusOf(error) < 500) await this.finish(scope, key, statusOf(error), JSON.stringify(errorBodyOf(error, this.area)));
            else await this.dataSource.query(`DELETE FROM idempotency_key WHERE scope = $1 AND key = $2`, [scope, key]);
            throw error;
          })(),
        ),
      ),
    );
  }

  /** Takes the key for this request; false when another request holds or held it. */
  private async claim(scope: string, key: string, hash: string): Promise<boolean> {
    await this.dataSource.query(`DELETE FROM idempotency_key WHERE scope = $1 AND key = $2 AND expires_at < now()`, [scope, key]);
    const inserted = await this.dataSource.query(
      `INSERT INTO idempotency_key (scope, key, request_hash, state, expires_at) VALUES ($1, $2, $3, 'IN_PROGRESS', now() + interval '${RETENTION}')
       ON CONFLICT DO NOTHING RETURNING key`,
      [scope, key, hash],
    );
    return inserted.length === 1;
  }

  private async finish(scope: string, key: string, status: number, body: string): Promise<void> {
    await this.dataSource.query(`UPDATE idempotency_key SET state = 'DONE', response_status = $3, response_body = $4 WHERE scope = $1 AND key = $2`, [scope, key, status, body]);
  }
}
