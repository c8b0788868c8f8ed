import * as crypto from 'node:crypto';
import type { Server } from 'node:http';
import request from 'supertest';

export interface ApiCredentials {
  readonly apiKey: string;
  readonly apiSecret: string;
}

export function hmacHex(secret: string, payload: string | Buffer): string {
  return crypto.createHmac('sha256', secret).update(payload).digest('hex');
}

/**
 * A version-3 signature (contract §29, RFC 9421 with HMAC-SHA256), written
 * here from the contract apart from the service's verifier: the headers to
 * send. The signature base is the RFC's lines for `@method`, `@path`,
 * `@query` (with a query), `content-digest` (with a body) and
 * `@signature-params`.
 */
export function signV3(
  credentials: ApiCredentials,
  method: string,
  url: string,
  body?: string | Buffer,
  options: { readonly created?: number; readonly nonce?: string; readonly keyId?: string } = {},
): Record<string, string> {
  const bytes = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
  const [path, query] = splitTarget(url);
  const headers: Record<string, string> = {};
  const lines: string[] = [`"@method": ${method.toUpperCase()}`, `"@path": ${path}`];
  const components = ['"@method"', '"@path"'];
  if (query !== undefined) {
    lines.push(`"@query": ?${query}`);
    components.push('"@query"');
  }
  if (bytes.length > 0) {
    headers['content-digest'] = `sha-256=:${crypto.createHash('sha256').update(bytes).digest('base64')}:`;
    lines.push(`"content-digest": ${headers['content-digest']}`);
    components.push('"content-digest"');
  }
  const created = options.created ?? Math.floor(Date.now() / 1000);
  const nonce = options.nonce ?? crypto.randomBytes(18).toString('base64url');
  const params = `(${components.join(' ')});created=${created};nonce="${nonce}";keyid="${options.keyId ?? credentials.apiKey}";alg="hmac-sha256"`;
  lines.push(`"@signature-params": ${params}`);
  headers['signature-input'] = `pcs=${params}`;
  headers['signature'] = `pcs=:${crypto.createHmac('sha256', credentials.apiSecret).update(lines.join('\n')).digest('base64')}:`;
  return headers;
}

function splitTarget(url: string): [string, string | undefined] {
  const at = url.indexOf('?');
  return at < 0 ? [url, undefined] : [url.slice(0, at), url.slice(at + 1)];
}

/**
 * The changes that take version-3 signatures (contract §29), written here
 * from the contract, apart from the service's own list: what §27 put behind
 * version 2 (payouts, settlement accounts, gateway accounts, webhook secret
 * rotation, disputes; PATCH /merchant with `account.settlementBank`), refunds
 * (total, partial, manual), every DELETE, merchant country processor changes
 * and webhook endpoints (create, update); and any change signed over no body.
 */
const VERSION_3_ONLY: readonly RegExp[] = [
  /^\/merchant\/[^/]+\/payout$/,
  /^\/payout\/[^/]+\/cancel$/,
  /^\/merchant\/[^/]+\/settlement-account\/[^/]+(\/confirm)?$/,
  /^\/merchant\/[^/]+\/gateway-account\/[^/]+$/,
  /^\/webhook-endpoint(\/[^/]+(\/rotate-secret)?)?$/,
  /^\/dispute\/[^/]+\/(evidence|submit|accept)$/,
  /^\/payment-intent\/[^/]+\/(refund|manual-refund)$/,
  /^\/merchant-country-processor(\/[^/]+)?$/,
];

export function takesVersion3Only(method: string, path: string, body?: unknown): boolean {
  if (method === 'get') return false;
  if (method === 'delete' || body === undefined || JSON.stringify(body) === '{}') return true;
  const route = path.split('?')[0];
  if (VERSION_3_ONLY.some((pattern) => pattern.test(route))) return true;
  const account = (body as { account?: unknown } | undefined)?.account;
  return (
    method === 'patch' &&
    /^\/merchant\/[^/]+$/.test(route) &&
    typeof account === 'object' &&
    account !== null &&
    'settlementBank' in account
  );
}

/**
 * Sends real HTTP requests signed the way a client does: the HMAC of
 * JSON.stringify(body) (version 1); the changes that take version 3
 * (contract §29) are signed so, each with a nonce of its own.
 */
export class SignedClient {
  constructor(
    /** An in-process app's server, or the base URL of one listening elsewhere. */
    private readonly server: Server | string,
    readonly credentials: ApiCredentials,
  ) {}

  get(path: string) {
    return this.send('get', path);
  }

  delete(path: string) {
    return this.send('delete', path);
  }

  post(path: string, body?: unknown) {
    return this.send('post', path, body);
  }

  patch(path: string, body?: unknown) {
    return this.send('patch', path, body);
  }

  put(path: string, body?: unknown) {
    return this.send('put', path, body);
  }

  /** A body of another media type (a file upload), signed over its bytes as sent. */
  upload(path: string, body: Buffer, contentType: string) {
    const test = request(this.server).post(path).set('content-type', contentType);
    if (!takesVersion3Only('post', path, { upload: true }))
      return test.set('api-key', this.credentials.apiKey).set('signature', hmacHex(this.credentials.apiSecret, body)).send(body);
    return test.set(signV3(this.credentials, 'POST', path, body)).send(body);
  }

  private send(method: 'get' | 'delete' | 'post' | 'patch' | 'put', path: string, body?: unknown) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const test = request(this.server)[method](path);
    if (takesVersion3Only(method, path, body)) test.set(signV3(this.credentials, method, path, payload));
    else test.set('api-key', this.credentials.apiKey).set('signature', hmacHex(this.credentials.apiSecret, payload ?? '{}'));
    return payload === undefined ? test : test.set('content-type', 'application/json').send(payload);
  }
}
