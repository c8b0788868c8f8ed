import type { Request } from 'express';
import { ErrorRequestHandler, RequestHandler, text, urlencoded } from 'express';
import * as crypto from 'node:crypto';
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
  // An upload's body stays in the socket until the door has let it in (uploadBodyReader, readPendingUpload).
  const readUnlessPending: RequestHandler = (request, response, next) =>
    (request as Request & PendingUploadRequest).uploadPending ? next() : read(request, response, next);
  const parse: RequestHandler = (request, _response, next) => {
    if (typeof request.body !== 'string') return next(); // no body, or a form already parsed
    try {
      request.body = parseJsonBody(request.body);
      next();
    } catch (error) {
      next(error);
    }
  };
  return [readUnlessPending, parse];
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

/**
 * Routes that take HTML form posts (the sandbox gateway's page, the links' pay page, the B2B checkout, a
 * payer posted back from a processor's page), parsed before the JSON rules apply.
 */
export const FORM_ROUTES: readonly RegExp[] = [
  /^\/sandbox\/gateway\//,
  /^\/pay\//,
  /^\/checkout\//,
  /^\/setup\//,
  /^\/gateways\/[a-z-]+\/return\//,
];

export function isFormRoute(path: string): boolean {
  return FORM_ROUTES.some((route) => route.test(path));
}

/** Parses a form post on a form route; any other request passes untouched. */
export function formBodyParser(): RequestHandler {
  const parse = urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 });
  return (request, response, next) => (isFormRoute(request.path) ? parse(request, response, next) : next());
}

/**
 * The routes that take files (multipart/form-data): a dispute's evidence
 * (contract §21). Their body is not read before the door (contract §30):
 * the signature guard checks the key, the version-3 signature over the
 * headers (the `Content-Digest` they announce included) and the rate first;
 * only then is the body read (readPendingUpload), up to UPLOAD_BODY_LIMIT
 * (a 413 without reading further: the dispute's 10 MB of files and room for
 * the multipart framing), its SHA-256 checked against the announced digest
 * as the bytes stream in. The route parses it.
 */
export const UPLOAD_ROUTES: readonly RegExp[] = [/^\/dispute\/[^/]+\/evidence\/?$/];
export const UPLOAD_BODY_LIMIT = 11 * 1024 * 1024;

export function isUploadRoute(path: string): boolean {
  return UPLOAD_ROUTES.some((route) => route.test(path));
}

/** A request whose upload has not been read yet (its body left in the socket until the door has let it in). */
export interface PendingUploadRequest {
  uploadPending?: boolean;
}

/** Marks a multipart body of an upload route as pending: nothing of it is read here; the parsed body is empty. */
export function uploadBodyReader(): RequestHandler {
  return (request, _response, next) => {
    if (!isUploadRoute(request.path) || !request.is('multipart/form-data')) return next();
    (request as Request & PendingUploadRequest).uploadPending = true;
    request.body = {};
    next();
  };
}

/**
 * Reads a pending upload once its request is through the door: 413 when its
 * declared length is over the limit (nothing read) or when more than the
 * limit arrives (reading stops there), 401 when its bytes do not have the
 * SHA-256 its `Content-Digest` announced; then `rawBody`.
 */
export async function readPendingUpload(request: Request & PendingUploadRequest & RawBodyRequest, digest: Buffer): Promise<void> {
  const declared = request.headers['content-length'];
  if (declared !== undefined && !(Number(declared) <= UPLOAD_BODY_LIMIT)) throw new DomainError('PAYLOAD_TOO_LARGE');
  const hash = crypto.createHash('sha256');
  const chunks: Buffer[] = [];
  let received = 0;
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > UPLOAD_BODY_LIMIT) {
        request.off('data', onData);
        request.pause();
        return reject(new DomainError('PAYLOAD_TOO_LARGE'));
      }
      hash.update(chunk);
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => resolve());
    request.once('error', () => reject(new DomainError('MALFORMED_JSON')));
    request.resume();
  });
  const actual = hash.digest();
  if (!crypto.timingSafeEqual(actual, digest)) throw new DomainError('UNAUTHORIZED');
  request.rawBody = Buffer.concat(chunks);
  request.uploadPending = false;
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
    const isForm = isFormRoute(request.path) && request.is('application/x-www-form-urlencoded');
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
