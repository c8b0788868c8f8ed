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
import { isDatabaseUnavailable, queryPrepared } from '@pcs/database';
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

/** A key's row as another request left it. */
interface HeldKey {
  request_hash: string;
  state: 'IN_PROGRESS' | 'DONE';
  response_status: number | null;
  response_body: string | null;
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
      .update(`${request.method} ${request.path} `)
      .update(request.is('multipart/form-data') ? uploadIdentity(request) : JSON.stringify(request.body ?? {}))
      .digest('hex');

    // This request's own mark on the key: only it frees what it took.
    const holder = crypto.randomUUID();
    const claim = await this.claim(scope, key, hash, holder).catch(async (error: unknown) => {
      // The claim may have committed without this process hearing so (the database went away
      // mid-statement): free it if so, once the database answers, so a retry need not wait the lease.
      if (isDatabaseUnavailable(error)) await this.release(scope, key, holder);
      throw error;
    });
    const { claimedAt } = claim;
    if (!claimedAt) {
      const row = claim.held;
      if (row && row.request_hash !== hash) throw new DomainError('IDEMPOTENCY_KEY_REUSED');
      if (!row || row.state === 'IN_PROGRESS') throw new DomainError('IDEMPOTENCY_REQUEST_IN_PROGRESS');
      throw new ReplayedResponse(row.response_status!, row.response_body!);
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
   * Takes the key for this request, in one statement, and returns when the
   * key was first taken; otherwise (`claimedAt` null: another live request
   * holds it, or it is done) the key's row as it was, if it was there. A key
   * past its 24 hours is taken as new (new time, new request); a key still
   * IN PROGRESS past its lease was held by a request that died: the same
   * request takes it over, keeping its time. A few other expired keys are
   * deleted by the same statement, so the table holds about a day of keys.
   */
  private async claim(scope: string, key: string, hash: string, holder: string): Promise<{ claimedAt: Date | null; held: HeldKey | null }> {
    const [row] = await queryPrepared<{ claimed_at: Date | null } & Partial<HeldKey>>(
      this.dataSource.manager,
      `WITH purged AS (
         DELETE FROM idempotency_key WHERE ctid IN (
           SELECT ctid FROM idempotency_key WHERE expires_at < now() AND NOT (scope = $1 AND key = $2) LIMIT 20 FOR UPDATE SKIP LOCKED)
       ), claimed AS (
         INSERT INTO idempotency_key AS k (scope, key, request_hash, state, locked_until, expires_at, holder)
         VALUES ($1, $2, $3, 'IN_PROGRESS', now() + $4::interval, now() + interval '${RETENTION}', $5)
         ON CONFLICT (scope, key) DO UPDATE SET
           locked_until = EXCLUDED.locked_until,
           holder = EXCLUDED.holder,
           request_hash = CASE WHEN k.expires_at < now() THEN EXCLUDED.request_hash ELSE k.request_hash END,
           state = CASE WHEN k.expires_at < now() THEN 'IN_PROGRESS' ELSE k.state END,
           response_status = CASE WHEN k.expires_at < now() THEN NULL ELSE k.response_status END,
           response_body = CASE WHEN k.expires_at < now() THEN NULL ELSE k.response_body END,
           created_at = CASE WHEN k.expires_at < now() THEN now() ELSE k.created_at END,
           expires_at = CASE WHEN k.expires_at < now() THEN EXCLUDED.expires_at ELSE k.expires_at END
         WHERE k.expires_at < now()
            OR (k.request_hash = EXCLUDED.request_hash AND k.state = 'IN_PROGRESS' AND k.locked_until <= now())
         RETURNING created_at
       )
       SELECT c.created_at AS claimed_at, h.request_hash, h.state, h.response_status, h.response_body
         FROM (SELECT 1) AS one
         LEFT JOIN claimed c ON true
         LEFT JOIN idempotency_key h ON c.created_at IS NULL AND h.scope = $1 AND h.key = $2 AND h.expires_at >= now()`,
      [scope, key, hash, `${this.settings.idempotencyLeaseSeconds} seconds`, holder],
    );
    return {
      claimedAt: row.claimed_at,
      held: row.request_hash ? (row as HeldKey) : null,
    };
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

/**
 * What a file upload is, for its Idempotency-Key: its bytes with the
 * multipart boundary taken out. A client picks a new random boundary for
 * every request (a retry of the same files included); the parts themselves
 * are the request.
 */
function uploadIdentity(request: Request & { rawBody?: Buffer }): string {
  const raw = (request.rawBody ?? Buffer.alloc(0)).toString('latin1');
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.header('content-type') ?? '');
  const delimiter = boundary ? (boundary[1] ?? boundary[2]) : null;
  return delimiter ? raw.split(delimiter).join('') : raw;
}
