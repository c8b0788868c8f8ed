import { CallHandler, ExecutionContext, HttpException, Inject, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RuntimeSettings } from '@pcs/config';
import { AuditEntry, AuditLog, auditKeyOf } from '@pcs/dashboard-identity';
import { Caller, DomainError } from '@pcs/kernel';
import type { Request, Response } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { statusOf } from './error-body';
import { AuthenticatedRequest } from './caller.decorator';
import { API_AREA, ReplayedResponse } from './idempotency';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A request as the audit sees it: its verified caller, the route's template and parameters. */
export type AuditedRequest = Request & AuthenticatedRequest & { route?: { path?: string } };

/**
 * The API's audit (contract §27, PCI DSS 10.2): the entry of one request of a
 * verified credential. The actor is the credential's api-key with its
 * business (and merchant); the entry says the API, the route's template, the
 * resource (the route's parameters, or the id the answer created) and the
 * result with its status and errorId. Never a body, a query string or a
 * secret. If the entry cannot be written, the failure is logged.
 */
@Injectable()
export class ApiAudit {
  private readonly logger = new Logger('ApiAudit');
  private readonly log: AuditLog;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    settings: RuntimeSettings,
    @Inject(API_AREA) readonly area: string,
  ) {
    const keys = [settings.secretsMasterKey, ...(settings.secretsMasterKeyPrevious ? [settings.secretsMasterKeyPrevious] : [])];
    this.log = new AuditLog(dataSource, keys.map(auditKeyOf));
  }

  async record(request: AuditedRequest, caller: Caller, outcome: Outcome): Promise<void> {
    const params = Object.fromEntries(Object.entries(request.params ?? {}).map(([name, value]) => [name, String(value).slice(0, 100)]));
    const resource = outcome.created ?? Object.values(params)[0] ?? null;
    const entry: AuditEntry = {
      businessId: caller.businessId,
      userId: null,
      email: `api-key:${request.signedBy?.apiKey ?? 'unknown'}`,
      action: `api:${request.method} ${request.route?.path ?? request.path.split('?')[0]}`,
      target: resource,
      result: outcome.status < 400 ? 'succeeded' : outcome.status < 500 ? 'refused' : 'failed',
      detail: {
        api: this.area,
        merchantId: caller.merchantId,
        params,
        status: outcome.status,
        ...(outcome.errorId ? { errorId: outcome.errorId } : {}),
        ...(outcome.replayed ? { replayed: true } : {}),
        ...(outcome.refusal ? { refusal: outcome.refusal } : {}),
      },
      address: request.ip ?? null,
    };
    try {
      await this.log.append(entry);
    } catch (error) {
      this.logger.error(`could not audit ${entry.action} of ${caller.businessId}: ${(error as Error).message}`);
    }
  }
}

/**
 * Every change made through the APIs is audited (contract §27): each
 * mutating request a verified credential sends, whether it succeeded or was
 * refused, is appended to the audit chain of §22 before its answer leaves
 * (ApiAudit). A request refused by the signature guard after its credential
 * verified (a version below its route's, a replayed signature, over its rate)
 * is audited by the guard; one refused before names no one and is counted in
 * /metrics instead (an anonymous caller cannot grow the log).
 */
@Injectable()
export class ApiAuditInterceptor implements NestInterceptor {
  constructor(private readonly audit: ApiAudit) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuditedRequest>();
    const caller = request.caller;
    if (!caller || !MUTATING.has(request.method)) return next.handle();
    const response = context.switchToHttp().getResponse<Response>();
    const run = async (): Promise<unknown> => {
      let answer: unknown;
      try {
        answer = await lastValueFrom(next.handle(), { defaultValue: undefined });
      } catch (error) {
        await this.audit.record(request, caller, outcomeOf(error, this.audit.area));
        throw error;
      }
      await this.audit.record(request, caller, { status: response.statusCode, created: createdIdOf(answer) });
      return answer;
    };
    return from(run());
  }
}

export interface Outcome {
  readonly status: number;
  /** Why the signature guard refused a verified credential's request (`version-required`, `replay`, `rate-limited:writes`). */
  readonly refusal?: string;
  readonly errorId?: string;
  readonly created?: string | null;
  readonly replayed?: boolean;
}

/** What an error will be answered with (the error filter's mapping), without its texts. */
export function outcomeOf(error: unknown, area: string): Outcome {
  if (error instanceof ReplayedResponse) return { status: error.status, replayed: true };
  if (error instanceof DomainError)
    return { status: statusOf(error), errorId: `${error.definition.area ?? area}:${error.definition.code}` };
  if (error instanceof HttpException) return { status: error.getStatus() };
  return { status: 500 };
}

/** The id a creation answered (a top-level `…Id` field), so that the entry names what was created. */
function createdIdOf(answer: unknown): string | null {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return null;
  for (const [name, value] of Object.entries(answer)) if (/Id$/.test(name) && typeof value === 'string') return value.slice(0, 100);
  return null;
}
