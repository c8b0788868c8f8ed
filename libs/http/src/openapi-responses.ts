import { OpenAPIObject } from '@nestjs/swagger';

type Responses = Record<string, { description: string; content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }>;

/** Answers every route can give, whatever its controller says: the body handling and the error filter are shared. */
const SHARED_ANSWERS: Record<string, string> = {
  '400':
    'Invalid input (Validation:INVALID_REQUEST, Validation:MALFORMED_JSON, Validation:JSON_TOO_DEEP, Validation:CARD_DATA_NOT_ACCEPTED or an operation code)',
  '413': 'Validation:PAYLOAD_TOO_LARGE: the body is larger than the API accepts',
  '415': 'Validation:UNSUPPORTED_MEDIA_TYPE: a body that is not application/json in UTF-8',
  '500': 'Internal:INTERNAL_ERROR: an unexpected failure; nothing was half-written, and a retry with the same Idempotency-Key is safe',
  '503':
    'Payins:SERVICE_UNAVAILABLE (B2B:SERVICE_UNAVAILABLE on the B2B API): the database cannot be reached right now, or ' +
    'Payins:GATEWAY_UNREACHABLE: an outside processor did not answer, or Payins:AUDIT_UNAVAILABLE: the change could not be ' +
    'recorded in the audit log (contract §29); nothing was changed. ' +
    'Retry-After gives the seconds to wait; a retry with the same Idempotency-Key is safe',
};

/** Answered without the database: never a 503 of the shared kind. */
const WITHOUT_DATABASE = new Set(['/metrics']);
/** Never rate-limited (contract §17). */
const UNLIMITED = new Set(['/health', '/metrics']);

const RATE_LIMITED_SIGNED =
  "Auth:RATE_LIMITED: over the api-key's rate (reads and writes apart, contract §17), or too many refused requests from this address; " +
  'nothing was changed. Wait Retry-After seconds; a version 2 request refused for its rate may be sent again unchanged within its 300 s';
const RATE_LIMITED_PUBLIC = 'Auth:RATE_LIMITED: too many requests from this client address (contract §17); wait Retry-After seconds';
const RETRY_AFTER_HEADER = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
};
/** On every answer of a signed operation that got past the signature (the IETF draft's fields); defined once under components. */
const RATE_LIMIT_HEADER_DEFINITIONS = {
  'RateLimit-Policy': {
    description: 'The api-key\'s quota for this kind of request: `"default";q=<requests>;w=<seconds>` (bursts of up to twice q pass)',
    schema: { type: 'string', example: '"default";q=50;w=1' },
  },
  RateLimit: {
    description: 'What is left of it: `"default";r=<remaining>;t=<seconds until the window starts afresh>`',
    schema: { type: 'string', example: '"default";r=49;t=1' },
  },
};
const RATE_LIMIT_HEADERS = Object.fromEntries(
  Object.keys(RATE_LIMIT_HEADER_DEFINITIONS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

/**
 * Every answer an operation can give is in the document, each error with the
 * specification's error body: the shared answers of the body handling (400,
 * 413, 415) and of the error filter (500), 401 on every signed operation, and
 * the error body on error answers a controller declared by description only.
 */
export function documentEveryAnswer(document: OpenAPIObject): OpenAPIObject {
  if (!document.components?.schemas?.ErrorResponse) return document;
  const errorBody = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } };
  document.components.headers = { ...document.components.headers, ...RATE_LIMIT_HEADER_DEFINITIONS };
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = methods[method];
      if (!operation) continue;
      const responses = operation.responses as Responses;
      const signed = operation.security === undefined || operation.security.length > 0;
      const { '503': unavailable, ...always } = SHARED_ANSWERS;
      const shared = {
        ...always,
        ...(WITHOUT_DATABASE.has(path) ? {} : { '503': unavailable }),
        ...(signed
          ? {
              '401': 'Auth:UNAUTHORIZED: a missing or unknown api-key, or a signature that does not match the body',
              '403':
                'Auth:FORBIDDEN: a restricted credential (contract §29) outside its scopes: `read` for a read; `payments:write`, ' +
                '`merchants:write` or `money:write` for a change, as its area needs; nothing was changed',
            }
          : {}),
        ...(UNLIMITED.has(path) ? {} : { '429': signed ? RATE_LIMITED_SIGNED : RATE_LIMITED_PUBLIC }),
      };
      for (const [status, description] of Object.entries(shared)) responses[status] ??= { description };
      if (responses['429']) responses['429'].headers = { ...RETRY_AFTER_HEADER, ...(signed ? RATE_LIMIT_HEADERS : {}) };
      if (signed) {
        for (const [status, response] of Object.entries(responses)) {
          if (Number(status) < 300) response.headers = { ...response.headers, ...RATE_LIMIT_HEADERS };
        }
      }
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) >= 400 && !response.content) response.content = errorBody;
      }
      operation.responses = Object.fromEntries(
        Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
      ) as typeof operation.responses;
    }
  }
  return document;
}

/**
 * A body whose fields are all optional may be left out (it reads as `{}`, and
 * `{}` is what is signed): such a request body is documented as not required,
 * so that a generated client may send none (an empty refund refunds all).
 */
export function optionalBodiesOptional(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, { required?: string[] }>;
  for (const methods of Object.values(document.paths)) {
    for (const operation of [methods.post, methods.put, methods.patch]) {
      const body = operation?.requestBody;
      if (!body || !('content' in body)) continue;
      const schema = body.content['application/json']?.schema;
      if (!schema) continue;
      const resolved = '$ref' in schema ? schemas[schema.$ref.split('/').pop()!] : schema;
      if (resolved && !resolved.required?.length) body.required = false;
    }
  }
  return document;
}
