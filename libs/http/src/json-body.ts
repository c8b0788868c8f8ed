import { ErrorRequestHandler, json, RequestHandler, urlencoded } from 'express';
import type { IncomingMessage } from 'node:http';
import { DomainError, ErrorCode, findCardData } from '@pcs/kernel';
import { ErrorResponder } from './error-body';

export interface RawBodyRequest {
  rawBody?: Buffer;
}

export const MAX_BODY_BYTES = 64 * 1024;

/** JSON bodies only, at most MAX_BODY_BYTES, raw bytes kept for signature checks. */
export function jsonBodyParser(): RequestHandler {
  return json({
    limit: MAX_BODY_BYTES,
    strict: true,
    type: () => true, // parse whatever arrives; requireJsonContentType() refuses other types first
    verify: (request: IncomingMessage & RawBodyRequest, _response, buffer) => {
      request.rawBody = buffer;
    },
  });
}

/** Routes that take HTML form posts (the sandbox gateway's page), parsed before the JSON rules apply. */
export const FORM_ROUTES = '/sandbox/gateway';

export function formBodyParser(): RequestHandler {
  return urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 });
}

/** A body in another media type is a 415, before anything tries to read it. */
export function requireJsonContentType(respond: ErrorResponder): RequestHandler {
  return (request, response, next) => {
    const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    const isForm = request.path.startsWith(FORM_ROUTES) && request.is('application/x-www-form-urlencoded');
    if (hasBody && !isForm && !request.is(['application/json', 'application/*+json'])) {
      respond(response, new DomainError('UNSUPPORTED_MEDIA_TYPE'));
      return;
    }
    next();
  };
}

/** Turns body-parser failures (malformed JSON, oversized body) into the error contract. */
export function jsonBodyErrors(respond: ErrorResponder): ErrorRequestHandler {
  return (error: { type?: string; status?: number }, _request, response, next) => {
    const code: ErrorCode | null =
      error.type === 'entity.too.large'
        ? 'PAYLOAD_TOO_LARGE'
        : error.type === 'entity.parse.failed'
          ? 'MALFORMED_JSON'
          : error.status && error.status >= 400 && error.status < 500
            ? 'MALFORMED_JSON'
            : null;
    if (code === null) return next(error);
    respond(response, new DomainError(code));
  };
}

/**
 * Refuses any request that carries card data in its body or query, before
 * anything reads, stores or logs it. The error names fields, never values.
 */
export function refuseCardData(respond: ErrorResponder): RequestHandler {
  return (request, response, next) => {
    const fields = [...findCardData(request.body ?? {}), ...findCardData(request.query ?? {}).map((f) => `query.${f}`)];
    if (fields.length === 0) return next();
    respond(
      response,
      new DomainError('CARD_DATA_NOT_ACCEPTED', `card data is not accepted (${fields.join(', ')})`, { fields: fields.join(', ') }),
    );
  };
}
