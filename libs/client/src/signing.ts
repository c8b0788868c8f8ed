import type { Middleware } from 'openapi-fetch';

/** An API's credentials: the api-key header and the secret that keys the HMAC (never sent). */
export interface ApiCredentials {
  readonly apiKey: string;
  readonly apiSecret: string;
}

const encoder = new TextEncoder();

function hmacKey(secret: string) {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** Lowercase hex HMAC-SHA256 of text or bytes (Web Crypto: the same code runs in Node 20+ and in browsers). */
export async function hmacSha256Hex(secret: string, payload: string | Uint8Array): Promise<string> {
  const bytes = typeof payload === 'string' ? encoder.encode(payload) : payload;
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), bytes));
  return Array.from(signature, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The `signature` header of a request: the HMAC of the body exactly as sent,
 * or of `{}` when there is none (GET, DELETE) — version 1 (contract §5); with
 * a `timestamp` (Unix seconds), of `<timestamp>.<body>` — version 2, which
 * the service accepts within 300 s and, for a change, only once (§17).
 */
export function signRequestBody(secret: string, body: string | undefined, timestamp?: number): Promise<string> {
  const payload = body === undefined || body === '' ? '{}' : body;
  return hmacSha256Hex(secret, timestamp === undefined ? payload : `${timestamp}.${payload}`);
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * openapi-fetch middleware: every request leaves signed, version 2 (`api-key`,
 * `timestamp`, `signature`). The signature covers the timestamp and the body,
 * not the path, and the service accepts a change's signature once: two
 * changes with the same body in one second (a retry with its
 * Idempotency-Key, two DELETEs, two empty refunds) would carry the same
 * signature, and the second would be refused as a replay. The client moves
 * such a repeat to a later second of its own, within the service's 300 s.
 */
export function signingMiddleware(credentials: ApiCredentials): Middleware {
  const lastSent = new Map<string, number>();
  return {
    async onRequest({ request }) {
      // The body's bytes exactly as they leave (a file upload is binary: never signed through a text decoding).
      const bytes = request.body === null ? undefined : new Uint8Array(await request.clone().arrayBuffer());
      const body = bytes === undefined ? undefined : new TextDecoder().decode(bytes);
      let timestamp = Math.floor(Date.now() / 1000);
      if (MUTATING.has(request.method)) {
        const change = body === undefined || body === '' ? '{}' : body;
        const last = lastSent.get(change);
        if (last !== undefined && last >= timestamp) timestamp = last + 1;
        lastSent.set(change, timestamp);
        for (const [sent, at] of lastSent) if (at < timestamp - 300) lastSent.delete(sent);
      }
      request.headers.set('api-key', credentials.apiKey);
      request.headers.set('timestamp', String(timestamp));
      const signed =
        bytes === undefined || bytes.length === 0 ? encoder.encode(`${timestamp}.{}`) : concat(encoder.encode(`${timestamp}.`), bytes);
      request.headers.set('signature', await hmacSha256Hex(credentials.apiSecret, signed));
      return request;
    },
  };
}

/** Equal strings in time that does not depend on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
