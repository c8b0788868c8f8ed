import {
  applyDecorators,
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { RuntimeSettings } from '@pcs/config';
import { isDatabaseUnavailable } from '@pcs/database';
import { Caller, DomainError, InvalidRequestError, uuidFrom } from '@pcs/kernel';
import type { Request } from 'express';
import * as crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { catchError, from, mergeMap, Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { errorBodyOf, statusOf } from './error-body';
import type { ApiArea } from './error-body';

export const API_AREA = Symbol('API_AREA');
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const RETENTION = '24 hours';

/** A stored response sent again as it was first sent (the error filter writes it). */
export class ReplayedResponse extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super('replayed response');
    this.name = 'ReplayedResponse';
  }
}

interface OperationRequest extends Request {
  caller?: Caller;
  operationId?: string;
}

/**
 * Idempotency-Key for an operation: scoped to the credentials' owner, kept 24
 * hours. The same key with the same request replays the first response
 * exactly; with a different request it is a 422; while the first is still
 * running, a 409.
 *
 * Surviving a crash: a request holds its key for a lease
 * (IDEMPOTENCY_LEASE_SECONDS), not for ever. The key also names the work:
 * the operation id handed to the service (`@OperationId()`) is derived from
 * the key, so the records the request writes carry ids that a retry derives
 * again. A retry after the lease (the first request died, or failed with a
 * 5xx) takes the key over and runs the operation once more with the same
 * ids; the service finds what the first run committed and carries it on —
 * replaying the committed result or completing the work, never doing it twice.
 */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      description:
        'Up to 255 characters. Same key and body within 24 h: the first response again. Different body: 422. Still running: 409. ' +
        'A request interrupted by a failure can be retried with the same key after about a minute; it completes the work, never repeats it.',
    }),
  );
}

/**
 * The id of this operation when the request names itself with an
 * Idempotency-Key (derived from the key: the same for every retry), undefined
 * otherwise. Services name the records the operation creates with it, and
 * look for what an earlier run under it committed.
 */
export const OperationId = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined => {
  return context.switchToHttp().getRequest<OperationRequest>().operationId;
});

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(API_AREA) private readonly area: ApiArea,
    private readonly settings: RuntimeSettings,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<OperationRequest>();
    const key = request.header(IDEMPOTENCY_HEADER);
    if (key === undefined || !request.caller) return next.handle();
    if (key.length === 0 || key.length > 255)
      throw new InvalidRequestError([IDEMPOTENCY_HEADER], `${IDEMPOTENCY_HEADER} must have 1 to 255 characters`);
    const scope = `${request.caller.businessId}:${request.caller.merchantId ?? '*'}`;
    const hash = crypto
      .createHash('sha256')
      .update(`${request.method} ${request.path} ${JSON.stringify(request.body ?? {})}`)
      .digest('hex');

    // This request's own mark on the key: only it frees what it took.
    const holder = crypto.randomUUID();
    const claimedAt = await this.claim(scope, key, hash, holder).catch(async (error: unknown) => {
      // The claim may have committed without this process hearing so (the database went away
      // mid-statement): free it if so, once the database answers, so a retry need not wait the lease.
      if (isDatabaseUnavailable(error)) await this.release(scope, key, holder);
      throw error;
    });
    if (!claimedAt) {
      const [row] = await this.dataSource.query(
        `SELECT request_hash, state, response_status, response_body FROM idempotency_key WHERE scope = $1 AND key = $2`,
        [scope, key],
      );
      if (row && row.request_hash !== hash) throw new DomainError('IDEMPOTENCY_KEY_REUSED');
      if (!row || row.state === 'IN_PROGRESS') throw new DomainError('IDEMPOTENCY_REQUEST_IN_PROGRESS');
      throw new ReplayedResponse(row.response_status, row.response_body);
    }
    // The key's creation time is part of the name: a key reused after its 24 hours names new work.
    request.operationId = uuidFrom(`idempotency\n${scope}\n${key}\n${claimedAt.toISOString()}`);

    return next.handle().pipe(
      mergeMap((body) => from(this.finish(scope, key, 200, JSON.stringify(body)).then(() => body))),
      catchError((error: unknown) =>
        from(
          (async () => {
            if (error instanceof DomainError && statusOf(error) < 500)
              await this.finish(scope, key, statusOf(error), JSON.stringify(errorBodyOf(error, this.area)));
            // Unexpected (a 5xx, the database away): free the key for a retry of the same request, which completes the work.
            else await this.release(scope, key, holder);
            throw error;
          })(),
        ),
      ),
    );
  }

  /**
   * Takes the key for this request and returns when the key was first taken;
   * null when another live request holds it or it is done. A key still IN
   * PROGRESS past its lease was held by a request that died: the same request
   * takes it over.
   */
  private async claim(scope: string, key: string, hash: string, holder: string): Promise<Date | null> {
    const lease = `${this.settings.idempotencyLeaseSeconds} seconds`;
    await this.dataSource.query(`DELETE FROM idempotency_key WHERE scope = $1 AND key = $2 AND expires_at < now()`, [scope, key]);
    const inserted: { created_at: Date }[] = await this.dataSource.query(
      `INSERT INTO idempotency_key (scope, key, request_hash, state, locked_until, expires_at, holder)
       VALUES ($1, $2, $3, 'IN_PROGRESS', now() + $4::interval, now() + interval '${RETENTION}', $5)
       ON CONFLICT DO NOTHING RETURNING created_at`,
      [scope, key, hash, lease, holder],
    );
    if (inserted.length === 1) return inserted[0].created_at;
    // TypeORM answers an UPDATE with [rows, affected count].
    const [takenOver]: [{ created_at: Date }[], number] = await this.dataSource.query(
      `UPDATE idempotency_key SET locked_until = now() + $4::interval, holder = $5
       WHERE scope = $1 AND key = $2 AND request_hash = $3 AND state = 'IN_PROGRESS' AND locked_until <= now()
       RETURNING created_at`,
      [scope, key, hash, lease, holder],
    );
    return takenOver[0]?.created_at ?? null;
  }

  /**
   * Frees the key this request holds (`holder`) after it failed, so that its
   * retry need not wait for the lease. When the database is what failed, the
   * key is freed as soon as it answers again: tried in the background with a
   * growing pause while the lease lasts (past the lease it is free anyway).
   * A claim another request made meanwhile is never touched.
   */
  private async release(scope: string, key: string, holder: string): Promise<void> {
    const free = () =>
      this.dataSource
        .query(`UPDATE idempotency_key SET locked_until = now() WHERE scope = $1 AND key = $2 AND state = 'IN_PROGRESS' AND holder = $3`, [
          scope,
          key,
          holder,
        ])
        .then(
          () => true,
          () => false,
        );
    if (await free()) return;
    const until = Date.now() + this.settings.idempotencyLeaseSeconds * 1000;
    void (async () => {
      for (let pause = 250; Date.now() < until && !(await free()); pause = Math.min(pause * 2, 2_000)) await sleep(pause);
    })();
  }

  private async finish(scope: string, key: string, status: number, body: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_key SET state = 'DONE', locked_until = NULL, response_status = $3, response_body = $4 WHERE scope = $1 AND key = $2`,
      [scope, key, status, body],
    );
  }
}
