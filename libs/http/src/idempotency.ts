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
import { catchError, from, mergeMap, Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { errorBodyOf, statusOf } from './error-body';
import type { ApiArea } from './error-body';
import { IdempotencyKeys } from './persistence/idempotency-keys';

export const API_AREA = Symbol('API_AREA');
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

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
  private readonly keys: IdempotencyKeys;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(API_AREA) private readonly area: ApiArea,
    settings: RuntimeSettings,
  ) {
    this.keys = new IdempotencyKeys(dataSource, settings.idempotencyLeaseSeconds);
  }

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
    const claim = await this.keys.claim(scope, key, hash, holder).catch(async (error: unknown) => {
      // The claim may have committed without this process hearing so (the database went away
      // mid-statement): free it if so, once the database answers, so a retry need not wait the lease.
      if (isDatabaseUnavailable(error)) await this.keys.release(scope, key, holder);
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
      mergeMap((body) => from(this.keys.finish(scope, key, 200, JSON.stringify(body)).then(() => body))),
      catchError((error: unknown) =>
        from(
          (async () => {
            if (error instanceof DomainError && statusOf(error) < 500)
              await this.keys.finish(scope, key, statusOf(error), JSON.stringify(errorBodyOf(error, this.area)));
            // Unexpected (a 5xx, the database away): free the key for a retry of the same request, which completes the work.
            else await this.keys.release(scope, key, holder);
            throw error;
          })(),
        ),
      ),
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
