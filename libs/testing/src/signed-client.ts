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
 * The changes that take version-2 signatures only (contract §27), written
 * here from the contract, apart from the service's own list: payouts,
 * settlement accounts, gateway accounts, webhook secret rotation, disputes;
 * and PATCH /merchant when it carries `account.settlementBank`.
 */
const VERSION_2_ONLY: readonly RegExp[] = [
  /^\/merchant\/[^/]+\/payout$/,
  /^\/payout\/[^/]+\/cancel$/,
  /^\/merchant\/[^/]+\/settlement-account\/[^/]+(\/confirm)?$/,
  /^\/merchant\/[^/]+\/gateway-account\/[^/]+$/,
  /^\/webhook-endpoint\/[^/]+\/rotate-secret$/,
  /^\/dispute\/[^/]+\/(evidence|submit|accept)$/,
];

export function takesVersion2Only(method: string, path: string, body?: unknown): boolean {
  if (method === 'get') return false;
  const route = path.split('?')[0];
  if (VERSION_2_ONLY.some((pattern) => pattern.test(route))) return true;
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
 * JSON.stringify(body), or of `{}` when there is no body (version 1); the
 * changes that take only version 2 (contract §27) are signed so, over
 * `<timestamp>.<body>`, a repeat of the same body moved to a later second
 * (a version-2 change is accepted once), as the typed client does.
 */
export class SignedClient {
  /** Shared by every client of a credential in this process: two clients of one key in one second must not send the same signature. */
  private static readonly lastSent = new Map<string, number>();

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
    const test = request(this.server).post(path).set('api-key', this.credentials.apiKey).set('content-type', contentType);
    if (!takesVersion2Only('post', path)) return test.set('signature', hmacHex(this.credentials.apiSecret, body)).send(body);
    const timestamp = this.timestampFor(`${path}\n${body.toString('base64')}`);
    return test
      .set('timestamp', String(timestamp))
      .set('signature', hmacHex(this.credentials.apiSecret, Buffer.concat([Buffer.from(`${timestamp}.`), body])))
      .send(body);
  }

  private send(method: 'get' | 'delete' | 'post' | 'patch' | 'put', path: string, body?: unknown) {
    const payload = body === undefined ? '{}' : JSON.stringify(body);
    const test = request(this.server)[method](path).set('api-key', this.credentials.apiKey);
    if (takesVersion2Only(method, path, body)) {
      const timestamp = this.timestampFor(payload);
      test.set('timestamp', String(timestamp)).set('signature', hmacHex(this.credentials.apiSecret, `${timestamp}.${payload}`));
    } else test.set('signature', hmacHex(this.credentials.apiSecret, payload));
    return body === undefined ? test : test.set('content-type', 'application/json').send(payload);
  }

  /** Now, or the second after the last one this body was signed at (the signature covers body and timestamp, not the path). */
  private timestampFor(payload: string): number {
    let timestamp = Math.floor(Date.now() / 1000);
    const key = `${this.credentials.apiKey}\n${payload}`;
    const last = SignedClient.lastSent.get(key);
    if (last !== undefined && last >= timestamp) timestamp = last + 1;
    SignedClient.lastSent.set(key, timestamp);
    return timestamp;
  }
}
