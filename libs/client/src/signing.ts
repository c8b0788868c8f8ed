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

/** Lowercase hex HMAC-SHA256 (Web Crypto: the same code runs in Node 20+ and in browsers). */
export async function hmacSha256Hex(secret: string, payload: string): Promise<string> {
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(payload)));
  return Array.from(signature, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The `signature` header of a request (contract §5): the HMAC of the body
 * exactly as sent, or of `{}` when there is none (GET, DELETE).
 */
export function signRequestBody(secret: string, body: string | undefined): Promise<string> {
  return hmacSha256Hex(secret, body === undefined || body === '' ? '{}' : body);
}

/** openapi-fetch middleware: every request leaves with `api-key` and the `signature` of its body. */
export function signingMiddleware(credentials: ApiCredentials): Middleware {
  return {
    async onRequest({ request }) {
      const body = request.body === null ? undefined : await request.clone().text();
      request.headers.set('api-key', credentials.apiKey);
      request.headers.set('signature', await signRequestBody(credentials.apiSecret, body));
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
