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
 * Sends real HTTP requests signed the way a client does: the HMAC of
 * JSON.stringify(body), or of `{}` when there is no body.
 */
export class SignedClient {
  constructor(
    private readonly server: Server,
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
    return request(this.server)
      .post(path)
      .set('api-key', this.credentials.apiKey)
      .set('signature', hmacHex(this.credentials.apiSecret, body))
      .set('content-type', contentType)
      .send(body);
  }

  private send(method: 'get' | 'delete' | 'post' | 'patch' | 'put', path: string, body?: unknown) {
    const payload = body === undefined ? '{}' : JSON.stringify(body);
    const test = request(this.server)
      [method](path)
      .set('api-key', this.credentials.apiKey)
      .set('signature', hmacHex(this.credentials.apiSecret, payload));
    return body === undefined ? test : test.set('content-type', 'application/json').send(payload);
  }
}
