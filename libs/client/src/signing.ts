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

/** What a version-3 request carries (contract §29): the headers to add, and the signature base they sign. */
export interface MessageSignatureHeaders {
  readonly 'content-digest'?: string;
  readonly 'signature-input': string;
  readonly signature: string;
}

/**
 * Signs a request version 3 (contract §29): RFC 9421 HTTP Message Signatures
 * with HMAC-SHA256, the body bound by RFC 9530 `Content-Digest`. The
 * signature base is RFC 9421 §2.5's lines for `@method`, `@path`, `@query`
 * (when the URL has one), `content-digest` (when there is a body) and
 * `@signature-params`; `keyid` names the api-key, `created` the time (the
 * service accepts 300 s either way) and a random `nonce` makes each request
 * its own (the service accepts a nonce once, reads included).
 */
export async function signMessage(
  credentials: ApiCredentials,
  request: { readonly method: string; readonly url: string | URL; readonly body?: Uint8Array | string },
  options: { readonly created?: number; readonly nonce?: string } = {},
): Promise<{ headers: MessageSignatureHeaders; base: string }> {
  const url = typeof request.url === 'string' ? new URL(request.url, 'http://localhost') : request.url;
  const body = typeof request.body === 'string' ? encoder.encode(request.body) : request.body;
  const lines = [`"@method": ${request.method.toUpperCase()}`, `"@path": ${url.pathname || '/'}`];
  const components = ['"@method"', '"@path"'];
  if (url.search) {
    lines.push(`"@query": ${url.search}`);
    components.push('"@query"');
  }
  let digest: string | undefined;
  if (body && body.length > 0) {
    digest = `sha-256=:${base64(new Uint8Array(await crypto.subtle.digest('SHA-256', body)))}:`;
    lines.push(`"content-digest": ${digest}`);
    components.push('"content-digest"');
  }
  const created = options.created ?? Math.floor(Date.now() / 1000);
  const nonce = options.nonce ?? base64url(crypto.getRandomValues(new Uint8Array(18)));
  const parameters = `(${components.join(' ')});created=${created};nonce="${nonce}";keyid="${credentials.apiKey}";alg="hmac-sha256"`;
  lines.push(`"@signature-params": ${parameters}`);
  const base = lines.join('\n');
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(credentials.apiSecret), encoder.encode(base)));
  return {
    headers: { ...(digest ? { 'content-digest': digest } : {}), 'signature-input': `pcs=${parameters}`, signature: `pcs=:${base64(mac)}:` },
    base,
  };
}

/** openapi-fetch middleware: every request leaves signed, version 3 (contract §29), with a nonce of its own. */
export function signingMiddleware(credentials: ApiCredentials): Middleware {
  return {
    async onRequest({ request }) {
      // The body's bytes exactly as they leave (a file upload is binary: never signed through a text decoding).
      const body = request.body === null ? undefined : new Uint8Array(await request.clone().arrayBuffer());
      const { headers } = await signMessage(credentials, { method: request.method, url: request.url, body });
      for (const [name, value] of Object.entries(headers)) request.headers.set(name, value as string);
      return request;
    },
  };
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function base64url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Equal strings in time that does not depend on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
