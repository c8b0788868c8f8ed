import { ErrorRequestHandler, raw, RequestHandler, text, urlencoded } from 'express';
import type { IncomingMessage } from 'node:http';
import sjson from 'secure-json-parse';
import { DomainError, ErrorCode, inspectInput, InvalidRequestError } from '@pcs/kernel';
import { ErrorResponder } from './error-body';

export interface RawBodyRequest {
  rawBody?: Buffer;
}

export const MAX_BODY_BYTES = 64 * 1024;
/**
 * Objects and arrays nested deeper than this are refused before parsing. The
 * deepest request of either API is four levels; free-form `metadata` gets
 * room, and nothing downstream ever walks an unbounded depth.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * JSON bodies only, at most MAX_BODY_BYTES, raw bytes kept for signature
 * checks. The text is read (charset and content-encoding handled by
 * body-parser), its nesting measured without parsing, then parsed by
 * secure-json-parse, which refuses `__proto__` and `constructor.prototype`.
 */
export function jsonBodyParser(): RequestHandler[] {
  const read = text({
    limit: MAX_BODY_BYTES,
    type: () => true, // read whatever arrives; requireJsonContentType() refuses other types first
    defaultCharset: 'utf-8',
    verify: (request: IncomingMessage & RawBodyRequest, _response, buffer, encoding) => {
      if (!/^utf-?8$/i.test(encoding)) throw Object.assign(new Error('unsupported charset'), { type: 'charset.unsupported', status: 415 });
      request.rawBody = buffer;
    },
  });
  const parse: RequestHandler = (request, _response, next) => {
    if (typeof request.body !== 'string') return next(); // no body, or a form already parsed
    try {
      request.body = parseJsonBody(request.body);
      next();
    } catch (error) {
      next(error);
    }
  };
  return [read, parse];
}

export function parseJsonBody(source: string): unknown {
  const body = source.trim();
  if (body.length === 0) return {};
  // Only objects and arrays at the top (body-parser's "strict"); a bare string or number is not a request.
  if (body[0] !== '{' && body[0] !== '[') throw new DomainError('MALFORMED_JSON');
  if (nestingDepthExceeds(body, MAX_JSON_DEPTH)) throw new DomainError('JSON_TOO_DEEP', undefined, { maxDepth: MAX_JSON_DEPTH });
  try {
    return sjson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (error instanceof SyntaxError && /forbidden prototype property/.test(error.message)) {
      throw new InvalidRequestError(['body'], 'the body names __proto__ or constructor.prototype, which are not accepted field names');
    }
    throw new DomainError('MALFORMED_JSON');
  }
}

/** Whether objects and arrays nest deeper than `max`, counted on the text (brackets inside strings ignored). */
export function nestingDepthExceeds(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** Routes that take HTML form posts (the sandbox gateway's page, the links' pay page, the B2B checkout, the payer's return from dLocal), parsed before the JSON rules apply. */
export const FORM_ROUTES = ['/sandbox/gateway', '/pay', '/checkout', '/gateways/dlocal/return'];

export function formBodyParser(): RequestHandler {
  return urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 });
}

/**
 * The routes that take files (multipart/form-data): a dispute's evidence
 * (contract §21). Their body is read whole as raw bytes, which the
 * signature covers, up to UPLOAD_BODY_LIMIT (a 413 past it): the dispute's
 * 10 MB of files and room for the multipart framing. The route parses it.
 */
export const UPLOAD_ROUTES: readonly RegExp[] = [/^\/dispute\/[^/]+\/evidence\/?$/];
export const UPLOAD_BODY_LIMIT = 11 * 1024 * 1024;

export function isUploadRoute(path: string): boolean {
  return UPLOAD_ROUTES.some((route) => route.test(path));
}

/** A multipart body of an upload route as raw bytes (`rawBody`); the parsed body is empty. */
export function uploadBodyReader(): RequestHandler {
  const read = raw({
    type: () => true,
    limit: UPLOAD_BODY_LIMIT,
    verify: (request: IncomingMessage & RawBodyRequest, _response, buffer) => {
      request.rawBody = buffer;
    },
  });
  return (request, response, next) => {
    if (!isUploadRoute(request.path) || !request.is('multipart/form-data')) return next();
    read(request, response, (error?: unknown) => {
      if (error) return next(error);
      request.body = {};
      next();
    });
  };
}

/**
 * The processors' notification routes: public, verified by the processor's
 * own signature over what it sent (contracts §16, §20, §21), and never
 * refused for what they carry. A processor's ids are long digit strings
 * (a Mercado Pago chargeback id passes the Luhn check one time in ten).
 */
export const PROCESSOR_NOTIFICATION_ROUTES: readonly RegExp[] = [/^\/gateways\/[a-z-]+\/notifications\//, /^\/gateway\/callbacks\//];

export function isProcessorNotification(path: string): boolean {
  return PROCESSOR_NOTIFICATION_ROUTES.some((route) => route.test(path));
}

/** A body in another media type is a 415, before anything tries to read it. */
export function requireJsonContentType(respond: ErrorResponder): RequestHandler {
  return (request, response, next) => {
    const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    const isForm = FORM_ROUTES.some((route) => request.path.startsWith(`${route}/`)) && request.is('application/x-www-form-urlencoded');
    const isUpload = isUploadRoute(request.path) && request.is('multipart/form-data');
    if (hasBody && !isForm && !isUpload && !request.is(['application/json', 'application/*+json'])) {
      respond(response, new DomainError('UNSUPPORTED_MEDIA_TYPE'));
      return;
    }
    next();
  };
}

/** Turns body-reading failures (malformed JSON, oversized body, odd charset) into the error contract. */
export function jsonBodyErrors(respond: ErrorResponder): ErrorRequestHandler {
  return (error: { type?: string; status?: number }, _request, response, next) => {
    if (error instanceof DomainError) return respond(response, error);
    const code: ErrorCode | null =
      error.type === 'entity.too.large'
        ? 'PAYLOAD_TOO_LARGE'
        : error.type === 'charset.unsupported' || error.type === 'encoding.unsupported'
          ? 'UNSUPPORTED_MEDIA_TYPE'
          : error.status && error.status >= 400 && error.status < 500
            ? 'MALFORMED_JSON'
            : null;
    if (code === null) return next(error);
    respond(response, new DomainError(code));
  };
}

/**
 * The client input's inspection, one walk of the body and one of the query
 * for both of its rules, before the signature guard (such a request is
 * refused whoever sends it):
 * - text nothing downstream can hold (NUL, unpaired surrogates) and field
 *   names of the object machinery: 400 naming the fields;
 * - card data anywhere, before anything reads, stores or logs it: 400
 *   `CARD_DATA_NOT_ACCEPTED` naming fields, never values. The signed APIs'
 *   client input only: a processor's notification is verified by its
 *   signature instead (contract §21, "Card-data guard").
 */
export function inspectClientInput(respond: ErrorResponder): RequestHandler {
  return (request, response, next) => {
    const { unsafe, cardFields } = inspectInput(request.body ?? {}, request.query ?? {}, {
      cardData: !isProcessorNotification(request.path),
    });
    if (unsafe.length > 0) {
      const fields = [...new Set(unsafe.map((p) => p.field))];
      return respond(response, new InvalidRequestError(fields, unsafe.map((p) => `${p.field} ${p.reason}`).join('; ')));
    }
    if (cardFields.length > 0) {
      const fields = cardFields.join(', ');
      return respond(response, new DomainError('CARD_DATA_NOT_ACCEPTED', `card data is not accepted (${fields})`, { fields }));
    }
    next();
  };
}
