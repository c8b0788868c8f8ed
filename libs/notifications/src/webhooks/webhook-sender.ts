import { Injectable, OnModuleDestroy } from '@nestjs/common';
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

/**
 * Sockets kept open per receiver host (Node's agent pools by host and port):
 * enough for every attempt the delivery workers make at once (DELIVERY_WORKERS
 * × DELIVERY_BATCH), so none waits in the agent's queue while its deadline runs.
 */
export const SOCKETS_PER_HOST = 256;

/** Name resolution for deliveries: the system's (dns.lookup). */
@Injectable()
export class WebhookResolver {
  readonly lookup: Lookup = dns.lookup;
}

/**
 * POSTs a webhook (contract §14): the exact body, its headers, a deadline
 * (15 s), no redirects followed, and only to addresses webhooks may reach —
 * checked on the address the socket connects to, after resolution.
 * Connections are kept alive and reused per host (one agent per protocol
 * for this sender): a receiver taking many events is not asked for a new
 * TCP (and TLS) handshake each time. A kept socket the receiver closed
 * meanwhile fails its next request with a reset before any answer; that
 * request is sent once more on a new connection, as Node's documentation
 * advises (delivery is at least once anyway).
 * Tests that need DNS answers this machine cannot give replace the
 * WebhookResolver (the one outside part), never the checks.
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_HOST, maxFreeSockets: 32, scheduling: 'lifo', timeout: 30_000 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_HOST, maxFreeSockets: 32, scheduling: 'lifo', timeout: 30_000 }),
  };

  constructor(
    private readonly settings: RuntimeSettings,
    private readonly resolver: WebhookResolver,
  ) {}

  onModuleDestroy(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
    const started = process.hrtime.bigint();
    const outcome = await this.send(url, headers, body, started, true);
    // The second send never answers 'stale socket' (it may not send again).
    return outcome === 'stale socket' ? ((await this.send(url, headers, body, started, false)) as AttemptOutcome) : outcome;
  }

  private send(
    url: string,
    headers: Record<string, string>,
    body: string,
    started: bigint,
    mayResend: boolean,
  ): Promise<AttemptOutcome | 'stale socket'> {
    const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
    const target = new URL(url);
    const loopback = isAllowedLocalUrl(target, this.settings.webhooks.allowLocalhost);
    const secure = target.protocol === 'https:';
    const client = secure ? https : http;
    const timeoutMs = Math.max(1, this.settings.webhooks.timeoutMs - elapsed());
    return new Promise<AttemptOutcome | 'stale socket'>((resolve) => {
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
          agent: this.agents[secure ? 'https:' : 'http:'],
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
        finish(null, `no answer within ${this.settings.webhooks.timeoutMs / 1000} s`);
      }, timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept socket closed by the receiver between two deliveries: nothing was answered, so send again on a new one.
        if (!settled && mayResend && request.reusedSocket && error.code === 'ECONNRESET') {
          settled = true;
          clearTimeout(deadline);
          resolve('stale socket');
          return;
        }
        finish(null, describe(error));
      });
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
