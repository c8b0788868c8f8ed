import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Caller, callerHolds, CredentialScope, DomainError, signatureMatches, SignatureVersion } from '@pcs/kernel';
import { metrics } from '@pcs/observability';
import type { Request, Response } from 'express';
import { ApiAudit } from './api-audit.interceptor';
import { AuthenticatedRequest } from './caller.decorator';
import { IS_PUBLIC, PublicOptions } from './public.decorator';
import { CREDENTIAL_SCOPE } from './signed.decorator';
import { PendingUploadRequest, RawBodyRequest, readPendingUpload } from './json-body';
import { IS_PAYER_PAGE } from './payer-page';
import { SIGNATURE_VERSION_REQUIRED, SignatureVersionRule } from './signature-version.decorator';
import { RequestCredentials } from './ports';
import { isVersion3, messageMacMatches, nonceRecord, readMessageSignature, SIGNATURE_WINDOW_SECONDS } from './message-signature';
import { LimitScope, RateLimits, setRateLimitHeaders } from './rate-limits';

/** What the guard leaves on the request for the error filter (a payer's page) and the request log line (why it was refused). */
export interface GuardedRequest {
  payerPage?: boolean;
  refusal?: string;
}

/** How far a version 2 request's `timestamp` may be from the server's clock (contract §17). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Global, default-deny verification of a request's signature.
 * Version 3 (contract §29, `Signature-Input`): RFC 9421 over the method, the
 * path, the query and the body's Content-Digest (message-signature.ts), the
 * key named by `keyid`, each nonce accepted once, reads included.
 * Version 1 (contract §5, `api-key` + `signature`): accepted payloads are the
 * compact JSON serialization of the parsed body and the raw bytes as sent; a
 * request without a body signs `{}` or the empty string; an upload
 * (multipart) its raw bytes only. Version 2 (contract §17): with a
 * `timestamp` header (Unix seconds) the signature covers
 * `<timestamp>.<payload>`, the timestamp must be within 300 s of the server's
 * clock, and a mutating request is accepted once. Every failure is the same
 * 401, whatever part failed; /metrics counts the reasons. Once the key and
 * the signature verify, a request below the version its route, its method
 * (DELETE) or its empty body requires is 401 Auth:SIGNATURE_VERSION_REQUIRED.
 *
 * Rate limits (contract §17) are counted here too: a verified request against
 * its api-key's reads or writes, with the draft's RateLimit headers on its
 * answer; an unauthenticated one (a public route, or a refused signature)
 * against its client address. Over a limit: 429 Auth:RATE_LIMITED with
 * Retry-After. An address over its limit is refused before any verification.
 */
@Injectable()
export class SignatureGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: RequestCredentials,
    private readonly limits: RateLimits,
    private readonly audit: ApiAudit,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const request = context.switchToHttp().getRequest<Request & RawBodyRequest & AuthenticatedRequest & GuardedRequest>();
    const open = this.reflector.getAllAndOverride<PublicOptions | undefined>(IS_PUBLIC, targets);
    if (open) {
      request.payerPage = this.reflector.getAllAndOverride<boolean>(IS_PAYER_PAGE, targets) === true;
      if (open.limited) await this.limitAddress(request);
      return true;
    }
    // An address that spent its budget on refused signatures gets nothing verified until its window ends.
    const blockedSeconds = this.limits.addressBlockedSeconds(request.ip ?? '');
    if (blockedSeconds > 0) throw rateLimited(request, 'address', blockedSeconds);
    const signed = this.readSignature(request);
    if ('refused' in signed) return this.refuse(request, signed.refused);
    const { apiKey, version, once } = signed;
    // The credential and its signature first: a caller that has not proved who it is learns nothing of the route.
    const verdict = await this.credentials.verify(apiKey, signed.matches, version);
    if ('refused' in verdict) return this.refuse(request, verdict.refused);
    // From here the credential is proved: a change it is refused is audited (contract §29), as the interceptor audits the rest.
    request.signedBy = { apiKey, version };
    if (version < this.versionRequired(request, targets)) {
      await this.auditRefusal(request, verdict.caller, 'version-required', 'Auth:SIGNATURE_VERSION_REQUIRED', 401);
      return this.refuse(request, 'version-required');
    }
    // A version 3 request (every method) and a version 2 change are accepted once. Checked before the rate is counted,
    // so that replaying a captured request spends the replaying address's budget, never the victim's quota.
    if (once && !(await this.credentials.acceptOnce(apiKey, once.record, once.createdSeconds, SIGNATURE_WINDOW_SECONDS))) {
      await this.auditRefusal(request, verdict.caller, 'replay', 'Auth:UNAUTHORIZED', 401);
      return this.refuse(request, 'replay');
    }
    // A restricted credential acts within its scopes only (contract §29): 403, audited.
    const needed = this.scopeRequired(request, targets);
    if (needed ? !callerHolds(verdict.caller, needed) : Boolean(verdict.caller.scopes)) {
      await this.auditRefusal(request, verdict.caller, `scope:${needed ?? 'none'}`, 'Auth:FORBIDDEN', 403);
      request.refusal = 'scope';
      metrics.authRefusals.inc({ reason: 'scope' });
      throw new DomainError('FORBIDDEN', undefined, { scope: needed ?? 'a full credential' });
    }
    const scope: LimitScope = request.method === 'GET' || request.method === 'HEAD' ? 'reads' : 'writes';
    const limit = await this.limits.count(scope, apiKey);
    if (limit) {
      setRateLimitHeaders(context.switchToHttp().getResponse<Response>(), limit);
      if (!limit.allowed) {
        // Refused for its rate, nothing done: its record goes, and it may be sent again, signature and all, after its wait.
        if (once) await this.credentials.forgetSigned(apiKey, once.record);
        // Not waited for: a refusal for the rate must stay cheap and fast (its entry changes nothing, and its failure is logged).
        void this.auditRefusal(request, verdict.caller, `rate-limited:${scope}`, 'Auth:RATE_LIMITED', 429);
        throw rateLimited(request, scope, limit.resetSeconds);
      }
    }
    // Through the door: only now is an upload's body read, up to its limit, its digest checked as it streams (contract §30).
    if (signed.uploadDigest) {
      try {
        await readPendingUpload(request, signed.uploadDigest);
      } catch (error) {
        if (error instanceof DomainError && error.code === 'UNAUTHORIZED') {
          await this.auditRefusal(request, verdict.caller, 'digest', 'Auth:UNAUTHORIZED', 401);
          return this.refuse(request, 'digest');
        }
        await this.auditRefusal(request, verdict.caller, 'upload', 'Validation:PAYLOAD_TOO_LARGE', 413);
        throw error;
      }
    }
    request.caller = verdict.caller;
    return true;
  }

  /**
   * The scope a restricted credential needs here (contract §29): `read` for
   * a read, the controller's write scope for a change (SignedController),
   * and none for a change of a controller that names none (no restricted
   * credential may make it).
   */
  private scopeRequired(request: Request, targets: Parameters<Reflector['getAllAndOverride']>[1]): CredentialScope | null {
    if (!MUTATING.has(request.method)) return 'read';
    return this.reflector.getAllAndOverride<CredentialScope | undefined>(CREDENTIAL_SCOPE, targets) ?? null;
  }

  /** A change refused to a verified credential, in the audit (reads are not audited, refused or not). */
  private async auditRefusal(request: Request & AuthenticatedRequest, caller: Caller, refusal: string, errorId: string, status: number) {
    if (MUTATING.has(request.method)) await this.audit.record(request, caller, { status, errorId, refusal });
  }

  /**
   * The request's signature as versions 3 (`Signature-Input`), 2 (`timestamp`)
   * or 1 read it: the api-key it names, a test of a secret against it, and
   * what records it as used. Nothing here looks a key up.
   */
  private readSignature(request: Request & RawBodyRequest): ReadSignature | { refused: RefusalReason } {
    const pending = (request as PendingUploadRequest).uploadPending === true;
    // An upload is let in before its body is read (contract §30): only a version-3 signature, which covers the headers and the
    // Content-Digest they announce, can be verified then. A version 1 or 2 signature over bytes not read is no proof.
    if (pending && !isVersion3(request)) return { refused: 'signature' };
    if (isVersion3(request)) {
      // The request itself: its line, headers, any body read, and whether an upload is pending (uploadBodyReader's mark).
      const read = readMessageSignature(request, Math.floor(Date.now() / 1000));
      if ('malformed' in read) return { refused: read.malformed === 'stale' ? 'stale' : 'malformed' };
      // keyid names the key; an api-key header, if sent too, must name the same one.
      const header = request.header('api-key');
      if (header !== undefined && header !== read.keyId) return { refused: 'signature' };
      return {
        apiKey: read.keyId,
        version: 3,
        matches: (secret) => messageMacMatches(secret, read),
        once: { record: nonceRecord(read.nonce), createdSeconds: read.created },
        uploadDigest: read.pendingDigest,
      };
    }
    const apiKey = request.header('api-key');
    const signature = request.header('signature')?.trim().toLowerCase();
    const timestamp = request.header('timestamp');
    if (!apiKey || !signature) return { refused: 'missing' };
    let payloads = signedPayloads(request);
    if (timestamp === undefined) return { apiKey, version: 1, matches: (secret) => signatureMatches(secret, signature, payloads) };
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS)
      return { refused: 'stale' };
    payloads = payloads.map((payload) => Buffer.concat([Buffer.from(`${timestamp}.`), Buffer.from(payload)]));
    return {
      apiKey,
      version: 2,
      matches: (secret) => signatureMatches(secret, signature, payloads),
      once: MUTATING.has(request.method) ? { record: signature, createdSeconds: Number(timestamp) } : undefined,
    };
  }

  /**
   * The lowest version this request may be signed with (contract §29): 3 for
   * every DELETE, for a change signed over no body (a version 1 or 2
   * signature of `{}` is also every GET's), and where the route says so; 1
   * otherwise.
   */
  private versionRequired(request: Request & RawBodyRequest, targets: Parameters<Reflector['getAllAndOverride']>[1]): SignatureVersion {
    if (!MUTATING.has(request.method)) return 1;
    if (request.method === 'DELETE' || signsNoBody(request)) return 3;
    const rule = this.reflector.getAllAndOverride<SignatureVersionRule | undefined>(SIGNATURE_VERSION_REQUIRED, targets);
    return rule && (!rule.when || rule.when(request.body)) ? rule.version : 1;
  }

  /** Unauthenticated traffic counts against its client address. */
  private async limitAddress(request: Request & GuardedRequest): Promise<void> {
    const limit = await this.limits.count('address', request.ip ?? '');
    if (limit && !limit.allowed) throw rateLimited(request, 'address', limit.resetSeconds);
  }

  /**
   * Every refusal is the same 401; only /metrics and the request's log line
   * tell the reasons apart (never the tenant). Each one counts against the
   * client's address: wrong signatures cannot be tried at full speed.
   */
  private async refuse(request: Request & GuardedRequest, reason: RefusalReason): Promise<never> {
    metrics.authRefusals.inc({ reason });
    request.refusal = reason;
    await this.limitAddress(request);
    // Only the route's own rule is told apart: that it takes version 2 is public (its OpenAPI says so).
    throw new DomainError(reason === 'version-required' ? 'SIGNATURE_VERSION_REQUIRED' : 'UNAUTHORIZED');
  }
}

function rateLimited(request: GuardedRequest, scope: LimitScope, retryAfter: number): DomainError {
  request.refusal = `rate-limited:${scope}`;
  return new DomainError('RATE_LIMITED', undefined, { retryAfter });
}

type RefusalReason = 'missing' | 'malformed' | 'signature' | 'version' | 'version-required' | 'stale' | 'replay' | 'digest';

interface ReadSignature {
  /** An upload's announced SHA-256, which its bytes must have when they are read (once the door has let it in). */
  readonly uploadDigest?: Buffer;
  readonly apiKey: string;
  readonly version: SignatureVersion;
  readonly matches: (secret: string) => boolean;
  /** What records the request as used, and until when it could be accepted. */
  readonly once?: { readonly record: string; readonly createdSeconds: number };
}

/** A request whose version 1 or 2 signature covers `{}` or nothing: what a GET's signature covers. An upload signs its bytes. */
function signsNoBody(request: Request & RawBodyRequest): boolean {
  if (request.is('multipart/form-data')) return false;
  return signedPayloads(request).some((payload) => payload === '{}' || payload === '');
}

function signedPayloads(request: Request & RawBodyRequest): (string | Buffer)[] {
  const raw = request.rawBody;
  // An upload (multipart/form-data) is verified over the bytes sent and nothing else (contract §27): its parsed
  // body is empty, and a signature over `{}` (any captured GET's) must not upload files.
  if (request.is('multipart/form-data')) return [raw ?? Buffer.alloc(0)];
  if (!raw || raw.length === 0) return ['{}', ''];
  return [JSON.stringify(request.body), raw];
}
