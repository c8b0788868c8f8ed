import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CredentialService } from '@pcs/businesses';
import { DomainError } from '@pcs/kernel';
import type { Request } from 'express';
import { AuthenticatedRequest } from './caller.decorator';
import { IS_PUBLIC } from './public.decorator';
import { RawBodyRequest } from './json-body';

/**
 * Global, default-deny verification of `api-key` + `signature` (contract §5).
 * Accepted payloads: the compact JSON serialization of the parsed body and
 * the raw bytes as sent; a request without a body signs `{}` or the empty
 * string. Every failure is the same 401, whatever part failed.
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
    const signature = request.header('signature');
    if (!apiKey || !signature) throw new DomainError('UNAUTHORIZED');
    const caller = await this.credentials.authenticate(apiKey, signature.trim().toLowerCase(), signedPayloads(request));
    if (!caller) throw new DomainError('UNAUTHORIZED');
    request.caller = caller;
    return true;
  }
}

function signedPayloads(request: Request & RawBodyRequest): (string | Buffer)[] {
  const raw = request.rawBody;
  if (!raw || raw.length === 0) return ['{}', ''];
  return [JSON.stringify(request.body), raw];
}
