import { AsyncLocalStorage } from 'node:async_hooks';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as inspector from 'node:inspector';
import { Client } from 'pg';

/**
 * Preloaded (`--require`) into an API process the benchmark starts. It counts
 * the queries each HTTP request sends to PostgreSQL (every round trip goes
 * through `Client.prototype.query`; an AsyncLocalStorage started with the
 * request tells its queries from the background workers') and answers the
 * benchmark's messages over IPC: `stats` (requests finished and their
 * queries, RSS), and
 * `profile:start` / `profile:stop <file>` for a CPU profile of exactly the
 * load in between (the V8 profiler `--cpu-prof` uses, without start-up in it).
 */
const current = new AsyncLocalStorage<{ queries: number }>();
/** BENCH_SHOW_QUERIES=1 prints each statement a counted request sends; `stack` adds the service's frames that sent it. */
const SHOW_QUERIES = process.env.BENCH_SHOW_QUERIES;
let requests = 0;
let queries = 0;
const query = Client.prototype.query;
Client.prototype.query = function (this: Client, ...args: unknown[]) {
  const request = current.getStore();
  if (request) request.queries += 1;
  if (request && SHOW_QUERIES) {
    const q = args[0] as string | { text: string };
    // With `stack`, the service's own frames that sent it (where a statement comes from).
    const where =
      SHOW_QUERIES === 'stack'
        ? ` <- ${(new Error().stack ?? '')
            .split('\n')
            .filter((line) => line.includes('/dist/') && !line.includes('node_modules') && !line.includes('instrument.js'))
            .slice(0, 6)
            .map((line) =>
              line
                .trim()
                .replace(/^at /, '')
                .replace(/\(.*\/dist\/(.*)\)$/, '($1)'),
            )
            .join(' <- ')}`
        : '';
    process.stderr.write(`[query] ${(typeof q === 'string' ? q : q.text).replace(/\s+/g, ' ').slice(0, 160)}${where}\n`);
  }
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof Client.prototype.query;

// Counting costs a little (an AsyncLocalStorage per request): on only while the benchmark counts, not under load.
let counting = false;
const emit = http.Server.prototype.emit as (this: http.Server, event: string, ...args: unknown[]) => boolean;
http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
  if (event !== 'request' || !counting) return emit.call(this, event, ...args);
  const store = { queries: 0 };
  (args[1] as http.ServerResponse).once('finish', () => {
    requests += 1;
    queries += store.queries;
  });
  return current.run(store, () => emit.call(this, event, ...args));
} as typeof http.Server.prototype.emit;

let session: inspector.Session | null = null;

interface Message {
  bench?: 'stats' | 'count:on' | 'count:off' | 'profile:start' | 'profile:stop';
  file?: string;
}

process.on('message', (message: Message) => {
  if (message?.bench === 'count:on' || message?.bench === 'count:off') {
    counting = message.bench === 'count:on';
    process.send?.({ bench: 'counting' });
  } else if (message?.bench === 'stats') {
    process.send?.({ bench: 'stats', requests, queries, rss: process.memoryUsage().rss });
  } else if (message.bench === 'profile:start') {
    session = new inspector.Session();
    session.connect();
    session.post('Profiler.enable', () =>
      session!.post('Profiler.setSamplingInterval', { interval: 500 }, () =>
        session!.post('Profiler.start', () => process.send?.({ bench: 'profile:started' })),
      ),
    );
  } else if (message.bench === 'profile:stop' && session) {
    session.post('Profiler.stop', (error, result) => {
      if (!error) fs.writeFileSync(message.file!, JSON.stringify(result.profile));
      session!.disconnect();
      session = null;
      process.send?.({ bench: 'profile:stopped', error: error?.message });
    });
  }
});
