import {
  CallHandler,
  ExecutionContext,
  HttpException,
  Inject,
  Injectable,
  Logger,
  NestInterceptor,
  OnApplicationBootstrap,
  BeforeApplicationShutdown,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { InjectDataSource } from '@nestjs/typeorm';
import { AuditRide, auditUnavailable, currentRide, rideRolledBack, runRiding, transactionDepthOf } from '@pcs/database';
import { AuditEntry, Caller, DomainError } from '@pcs/kernel';
import type { Request } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DataSource, EntitySubscriberInterface, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { statusOf } from './error-body';
import { AuthenticatedRequest } from './caller.decorator';
import { API_AREA, ReplayedResponse } from './idempotency';
import { AuditTrail } from './ports';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A request as the audit sees it: its verified caller, the route's template and parameters. */
export type AuditedRequest = Request & AuthenticatedRequest & { route?: { path?: string } };

/**
 * The API's audit (contract §27, §29, PCI DSS 10.2): the entry of one request
 * of a verified credential. The actor is the credential's api-key with its
 * business (and merchant); the entry says the API, the route's template, the
 * resource (the route's parameters, or the id the answer created) and the
 * result with its status and errorId. Never a body, a query string or a
 * secret.
 *
 * A change's entry is written with the change (AuditRide, libs/database):
 * as a CTE of the statement that records the change's events, or, for a
 * change without events, by the first transaction of the request to commit,
 * just before COMMIT (this TypeORM subscriber). The change and its entry
 * commit together or not at all: an entry that cannot be written takes the
 * change with it, and the request answers 503 `AUDIT_UNAVAILABLE`. At most
 * one statement, no lock: the entry is sealed into the chain later
 * (AuditSealer, which every API process runs). A request that commits no
 * transaction (refused, replayed) has its entry written after it, on its own.
 */
@Injectable()
export class ApiAudit implements EntitySubscriberInterface, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ApiAudit');
  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly log: AuditTrail,
    @Inject(API_AREA) readonly area: string,
  ) {
    dataSource.subscribers.push(this);
  }

  onApplicationBootstrap(): void {
    this.log.start();
  }

  /**
   * Seals once more what was written before the process stops: before the application's shutdown hooks,
   * which close the database connections (on onApplicationShutdown the last round found no connection,
   * and the next process sealed this one's entries under its own key).
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.log.stop();
  }

  /** Runs a request's handler with its change's entry riding its change (see AuditRide); answers whether the change carried it. */
  async riding<T>(entryOf: (created: string | null) => AuditEntry, work: () => Promise<T>): Promise<{ answer: T; written: boolean }> {
    const ride: AuditRide = { state: 'waiting', runner: null, depth: 0, insertion: (created) => this.log.insertion(entryOf(created)) };
    try {
      const answer = await runRiding(ride, work);
      return { answer, written: ride.state === 'written' };
    } catch (error) {
      throw new RideFailure(error, ride.state === 'written');
    } finally {
      ride.state = 'closed';
    }
  }

  /** TypeORM, before COMMIT of any transaction of this data source: the waiting entry of the request it serves, if any. */
  beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> | void {
    const ride = currentRide();
    if (!ride || ride.state !== 'waiting' || transactionDepthOf(event.queryRunner) !== 1) return;
    ride.state = 'writing';
    ride.runner = event.queryRunner;
    ride.depth = 1;
    const { sql, parameters } = ride.insertion(createdIdOf((event.queryRunner.data as { result?: unknown }).result));
    return event.queryRunner.query(sql, parameters).then(
      () => undefined,
      (error: unknown) => {
        // No entry, no change: the transaction rolls back, and the request answers 503.
        this.logger.error(`could not write an API audit entry: ${(error as Error).message}; its change is rolled back`);
        throw auditUnavailable();
      },
    );
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const ride = currentRide();
    if (ride?.runner === event.queryRunner && ride.state === 'writing' && transactionDepthOf(event.queryRunner) === 0)
      ride.state = 'written';
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    rideRolledBack(event.queryRunner);
  }

  /** The entry of a request with its outcome. */
  entryOf(request: AuditedRequest, caller: Caller, outcome: Outcome): AuditEntry {
    const params = Object.fromEntries(Object.entries(request.params ?? {}).map(([name, value]) => [name, String(value).slice(0, 100)]));
    const resource = outcome.created ?? Object.values(params)[0] ?? null;
    return {
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
        ...(outcome.afterChange ? { afterChange: true } : {}),
      },
      address: request.ip ?? null,
    };
  }

  /**
   * The entry of a request no transaction carried, on its own (one INSERT).
   * A refusal's entry that cannot be written is logged (the refusal changed
   * nothing); a change's is thrown (503 `AUDIT_UNAVAILABLE`).
   */
  async record(request: AuditedRequest, caller: Caller, outcome: Outcome, options: { required?: boolean } = {}): Promise<void> {
    const entry = this.entryOf(request, caller, outcome);
    try {
      await this.log.append(entry);
    } catch (error) {
      this.logger.error(`could not audit ${entry.action} of ${caller.businessId}: ${(error as Error).message}`);
      if (options.required) throw auditUnavailable();
    }
  }
}

/** A handler's failure, and whether its request's change had already committed with its entry. */
class RideFailure extends Error {
  constructor(
    readonly failure: unknown,
    readonly written: boolean,
  ) {
    super('the request failed');
  }
}

/**
 * Every change made through the APIs is audited (contract §27, §29): each
 * mutating request a verified credential sends, whether it succeeded or was
 * refused. A change's entry commits with the change (ApiAudit.riding); a
 * refusal's is written before its answer leaves; a request that failed after
 * its change committed gets a second entry saying so (`afterChange`). A
 * request refused by the signature guard after its credential verified (a
 * version below its route's, a replayed signature, over its rate) is audited
 * by the guard; one refused before names no one and is counted in /metrics
 * instead (an anonymous caller cannot grow the log).
 */
@Injectable()
export class ApiAuditInterceptor implements NestInterceptor {
  constructor(private readonly audit: ApiAudit) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuditedRequest>();
    const caller = request.caller;
    if (!caller || !MUTATING.has(request.method)) return next.handle();
    const status =
      (Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined) ?? (request.method === 'POST' ? 201 : 200);
    const run = async (): Promise<unknown> => {
      let ridden: { answer: unknown; written: boolean };
      try {
        ridden = await this.audit.riding(
          (created) => this.audit.entryOf(request, caller, { status, created }),
          () => lastValueFrom(next.handle(), { defaultValue: undefined }),
        );
      } catch (failure) {
        const { failure: cause, written } = failure as RideFailure;
        await this.audit.record(request, caller, { ...outcomeOf(cause, this.audit.area), afterChange: written });
        throw cause;
      }
      if (!ridden.written) await this.audit.record(request, caller, { status, created: createdIdOf(ridden.answer) }, { required: true });
      return ridden.answer;
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
  /** The request failed after its change had committed with its entry (this is its second entry). */
  readonly afterChange?: boolean;
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
