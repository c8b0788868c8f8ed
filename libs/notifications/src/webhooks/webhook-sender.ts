import { Injectable } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { guardedLookup, isAllowedLocalUrl, Lookup } from './webhook-url';

/** One attempt's outcome, as the delivery log keeps it. */
export interface AttemptOutcome {
  /** The HTTP status, or null when none came back. */
  readonly status: number | null;
  /** A short text when the attempt failed, null on a 2xx. */
  readonly error: string | null;
  readonly durationMs: number;
}

const MAX_ERROR = 200;

/** Name resolution for deliveries: the system's (dns.lookup). */
@Injectable()
export class WebhookResolver {
  readonly lookup: Lookup = dns.lookup;
}

/**
 * POSTs a webhook (contract §14): the exact body, its headers, a deadline
 * (15 s), no redirects followed, and only to addresses webhooks may reach —
 * checked on the address the socket connects to, after resolution.
 * Tests that need DNS answers this machine cannot give replace the
 * WebhookResolver (the one outside part), never the checks.
 */
@Injectable()
export class WebhookSender {
  constructor(
    private readonly settings: RuntimeSettings,
    private readonly resolver: WebhookResolver,
  ) {}

  async post(url: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
    const started = process.hrtime.bigint();
    const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
    const target = new URL(url);
    const loopback = isAllowedLocalUrl(target, this.settings.webhooks.allowLocalhost);
    const client = target.protocol === 'https:' ? https : http;
    const timeoutMs = this.settings.webhooks.timeoutMs;
    return new Promise<AttemptOutcome>((resolve) => {
      let settled = false;
      const finish = (status: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve({ status, error: error ? error.slice(0, MAX_ERROR) : null, durationMs: elapsed() });
      };
      const request = client.request(
        target,
        {
          method: 'POST',
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'payments-webhooks/1',
          },
          lookup: guardedLookup(loopback, this.resolver.lookup),
          agent: false,
        },
        (response) => {
          const status = response.statusCode ?? null;
          // The body is not needed; reading it lets the connection finish cleanly.
          response.resume();
          response.on('end', () =>
            finish(status, status !== null && status >= 200 && status < 300 ? null : `the receiver answered ${status}`),
          );
          response.on('error', (error) => finish(status, error.message));
        },
      );
      const deadline = setTimeout(() => {
        request.destroy();
        finish(null, `no answer within ${timeoutMs / 1000} s`);
      }, timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) => finish(null, describe(error)));
      request.end(body);
    });
  }
}

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRNOTALLOWED') return error.message;
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ENOTFOUND') return 'the host name does not resolve';
  if (error.code === 'ECONNRESET') return 'the connection was reset';
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
