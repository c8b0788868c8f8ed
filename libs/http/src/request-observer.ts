import { metrics, RequestsInFlight } from '@pcs/observability';
import type { NextFunction, Request, Response } from 'express';
import * as crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export { RequestsInFlight };

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
