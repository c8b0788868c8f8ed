import { metrics } from '@pcs/observability';
import type { NextFunction, Request, Response } from 'express';
import * as crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

type WithId = IncomingMessage & { id?: string };

/**
 * The request's id: the caller's `x-request-id` when it is a plain token,
 * otherwise a new UUID; answered in the `x-request-id` header of every
 * response, errors included, and carried by every log line of the request.
 */
export function requestIdOf(request: IncomingMessage, response: ServerResponse): string {
  const withId = request as WithId;
  if (!withId.id) {
    const given = request.headers['x-request-id'];
    withId.id = typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : crypto.randomUUID();
    response.setHeader('x-request-id', withId.id);
  }
  return withId.id;
}

/**
 * The first middleware of every API: gives the request its id before a body
 * parser can refuse it, counts it in flight until it is answered, and times
 * it into http_request_duration_seconds by route template
 * (`/payment-intent/:paymentIntentId`, never the id itself; `none` for what
 * no route matched).
 */
export function observeRequests(inFlight: RequestsInFlight) {
  return (request: Request, response: Response, next: NextFunction) => {
    requestIdOf(request, response);
    inFlight.track(response);
    const stop = metrics.httpRequestDuration.startTimer();
    response.once('finish', () => {
      const route = (request.route as { path?: string } | undefined)?.path;
      stop({ method: request.method, route: route ? `${request.baseUrl}${route}` : 'none', status_code: String(response.statusCode) });
    });
    next();
  };
}

/**
 * The requests of one app whose handler has not answered yet. A request
 * counts until its answer is written (`end`), even when its client left
 * before: the handler goes on writing to the database either way, and
 * closing the database under it would cut its work in half (a refund
 * reserved and never sent) and hand a busy connection back to the pool.
 */
export class RequestsInFlight {
  private count = 0;
  private idle: (() => void)[] = [];

  track(response: ServerResponse): void {
    this.count += 1;
    let answered = false;
    const settle = () => this.settle();
    const end = response.end;
    response.end = function (this: ServerResponse, ...args: unknown[]) {
      if (!answered) {
        answered = true;
        settle();
      }
      return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse['end'];
  }

  /** True once no request is in flight; false if some still are after `timeoutMs`. */
  async drained(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<boolean>((resolve) => this.idle.push(() => resolve(true)));
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([idle, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private settle(): void {
    this.count -= 1;
    if (this.count === 0) for (const resolve of this.idle.splice(0)) resolve();
  }
}
