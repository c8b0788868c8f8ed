import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CredentialService } from '@pcs/businesses';
import { DomainError } from '@pcs/kernel';
import { metrics } from '@pcs/observability';
import type { Request } from 'express';
import { AuthenticatedRequest } from './caller.decorator';
import { IS_PUBLIC } from './public.decorator';
import { RawBodyRequest } from './json-body';

/** How far a version 2 request's `timestamp` may be from the server's clock (contract §17). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Global, default-deny verification of `api-key` + `signature` (contract §5).
 * Accepted payloads: the compact JSON serialization of the parsed body and
 * the raw bytes as sent; a request without a body signs `{}` or the empty
 * string. Version 2 (contract §17): with a `timestamp` header (Unix seconds)
 * the signature covers `<timestamp>.<payload>`, the timestamp must be within
 * 300 s of the server's clock, and a mutating request is accepted once. Every
 * failure is the same 401, whatever part failed; /metrics counts the reasons.
 */
@Injectable()
export class SignatureGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<Request & RawBodyRequest & AuthenticatedRequest>();
    const apiKey = request.header('api-key');
    const signature = request.header('signature')?.trim().toLowerCase();
    const timestamp = request.header('timestamp');
    if (!apiKey || !signature) return refuse('missing');
    let payloads = signedPayloads(request);
    if (timestamp !== undefined) {
      if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS)
        return refuse('stale');
      payloads = payloads.map((payload) => Buffer.concat([Buffer.from(`${timestamp}.`), Buffer.from(payload)]));
    }
    const verdict = await this.credentials.verify(apiKey, signature, payloads, timestamp === undefined ? 1 : 2);
    if ('refused' in verdict) return refuse(verdict.refused);
    // A captured version 2 change cannot be sent again: (api-key, signature) is accepted once.
    if (timestamp !== undefined && MUTATING.has(request.method)) {
      if (!(await this.credentials.acceptOnce(apiKey, signature, Number(timestamp), TIMESTAMP_TOLERANCE_SECONDS))) return refuse('replay');
    }
    request.caller = verdict.caller;
    return true;
  }
}

/** Every refusal is the same 401; only /metrics tells the reasons apart (never the tenant). */
function refuse(reason: 'missing' | 'signature' | 'version' | 'stale' | 'replay'): never {
  metrics.authRefusals.inc({ reason });
  throw new DomainError('UNAUTHORIZED');
}

function signedPayloads(request: Request & RawBodyRequest): (string | Buffer)[] {
  const raw = request.rawBody;
  if (!raw || raw.length === 0) return ['{}', ''];
  return [JSON.stringify(request.body), raw];
}
