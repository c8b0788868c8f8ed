import * as fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where a function's self time goes in the breakdown, by the file it lives in. */
const CATEGORIES: readonly (readonly [string, RegExp])[] = [
  ['signing and credential lookup', /\/dist\/libs\/(businesses|http\/src\/signature)|node:internal\/crypto/],
  [
    'validation (class-validator, class-transformer, our DTO checks)',
    /node_modules\/(class-validator|class-transformer|validator|libphonenumber)|\/dist\/libs\/(http\/src\/(validation|json-body|validation-decorators)|kernel\/src\/input)/,
  ],
  ['ORM (TypeORM)', /node_modules\/typeorm\//],
  ['PostgreSQL driver (pg)', /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+|buffer-writer|packet-reader)\//],
  ['job queue (pg-boss)', /node_modules\/pg-boss\//],
  ['logging (pino)', /node_modules\/(pino|pino-http|nestjs-pino|sonic-boom|thread-stream|fast-redact|pino-std-serializers)\//],
  [
    'framework (Nest, Express, body parsing, rxjs)',
    /node_modules\/(@nestjs|express|router|body-parser|raw-body|path-to-regexp|rxjs|finalhandler|qs|send|on-finished|type-is|content-type|iconv-lite|accepts|secure-json-parse|mime|debug|depd|statuses|http-errors|parseurl|media-typer|negotiator|vary|utils-merge|cookie|merge-descriptors|encodeurl|escape-html|etag|fresh|proxy-addr|range-parser|serve-static|forwarded)\//,
  ],
  ['our own code', /\/dist\/(libs|apps)\//],
  ['Node runtime (http, net, streams, timers)', /^node:|^internal\//],
];

/** The benchmark's own profiler session in the API process: not the API's cost, left out of the ledger. */
const PROFILER = 'the profiler itself (benchmark only)';

/**
 * The per-layer cost ledger (issue 23): the pieces a request goes through,
 * each by the files it lives in (ours and its libraries'). A sample counts
 * for the function on top of the stack (a built-in without a file for its
 * nearest caller with one), as in the categories above, so a layer's figure
 * is the CPU spent in its own code and its libraries, not in what it awaits;
 * Node's own functions count for the layer that called them (the socket
 * writes of a statement are the statement's), and only what no layer called
 * (the HTTP server reading and parsing requests, timers) is Node's runtime.
 * Checked in order: the first pattern that matches the file wins.
 */
const LAYERS: readonly (readonly [string, RegExp])[] = [
  [PROFILER, /\/dist\/apps\/ops\/src\/bench\//],
  [
    'request id and request metrics (observer, prom-client)',
    /\/dist\/libs\/(http\/src\/request-observer|observability)\/|node_modules\/(prom-client|tdigest|bintrees)\//,
  ],
  [
    'logging (pino, one line per request)',
    /node_modules\/(pino|pino-http|nestjs-pino|sonic-boom|thread-stream|fast-redact|pino-std-serializers|on-exit-leak-free)\/|\/dist\/libs\/http\/src\/log-/,
  ],
  [
    'body parsing and its walks',
    /node_modules\/(body-parser|raw-body|iconv-lite|content-type|type-is|media-typer|bytes|secure-json-parse)\/|\/dist\/libs\/http\/src\/json-body/,
  ],
  ['signature and caller lookup (HMAC, credential cache)', /\/dist\/libs\/(http\/src\/signature|businesses\/)|node:internal\/crypto/],
  ['rate limits (count per api-key)', /\/dist\/libs\/http\/src\/rate-limits|node_modules\/rate-limiter-flexible\//],
  ['idempotency', /\/dist\/libs\/http\/src\/idempotency/],
  [
    'validation (class-validator, class-transformer, our pipe)',
    /node_modules\/(class-validator|class-transformer|validator|libphonenumber-js)\/|\/dist\/libs\/(http\/src\/(validation|validation-decorators)|kernel\/src\/input)/,
  ],
  ['event recording (outbox rows and jobs)', /\/dist\/libs\/(events|jobs)\/src|node_modules\/pg-boss\//],
  [
    'statements (TypeORM, pg, our repositories)',
    /node_modules\/(typeorm|pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+|buffer-writer|packet-reader)\/|\/dist\/libs\/(database\/|[a-z-]+\/src\/persistence\/)/,
  ],
  [
    'background work (dispatch, webhooks, mail, sweeps)',
    /\/dist\/libs\/(notifications|mail)\/|payment-intent-sweeps|\/expiry\/|\/reconciliation\//,
  ],
  ['errors and representations', /\/dist\/libs\/(http\/src\/(error|errors-as|client-errors)|[a-z-]+\/src\/[a-z-]+\.representation)/],
  ['tenancy, rules and the aggregate (our services, domain)', /\/dist\/(libs|apps)\//],
  [
    'framework (Nest, Express, rxjs, reflect-metadata)',
    /node_modules\/(@nestjs|express|router|path-to-regexp|rxjs|finalhandler|qs|send|on-finished|accepts|mime|debug|depd|statuses|http-errors|parseurl|negotiator|vary|utils-merge|cookie|merge-descriptors|encodeurl|escape-html|etag|fresh|proxy-addr|range-parser|forwarded|reflect-metadata|tslib)\//,
  ],
  ['Node runtime (HTTP server, sockets, streams, timers)', /^node:|^internal\//],
];

export interface ProfileShare {
  what: string;
  ms: number;
  share: number;
}

/**
 * A CPU profile's time by category: each sample counts for the function on
 * top of the stack, or for the nearest caller that has a file when that
 * function is a built-in (JSON.stringify counts where it was called from).
 * Idle is the process waiting: mostly for PostgreSQL's answers.
 */
export function summarizeProfile(file: string, by: 'categories' | 'layers' = 'categories'): ProfileShare[] {
  const CATEGORIES_USED = by === 'layers' ? LAYERS : CATEGORIES;
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const category = new Map<number, string>();
  const classify = (node: ProfileNode, inherited: string) => {
    const { functionName, url } = node.callFrame;
    let own = inherited;
    if (functionName === '(idle)') own = 'idle (waiting, mostly for PostgreSQL)';
    else if (functionName === '(garbage collector)') own = 'garbage collection';
    else if (functionName === '(program)') own = 'native (V8, libuv, OpenSSL, not attributed)';
    else if (
      url &&
      by === 'layers' &&
      /^node:|^internal\//.test(url) &&
      LAYERS.some(([name]) => name === inherited && !name.startsWith('Node'))
    )
      // Node's own code called by a layer (a socket write under pg's query, under Express's send) is that layer's cost.
      own = inherited;
    else if (url) own = CATEGORIES_USED.find(([, pattern]) => pattern.test(url))?.[0] ?? 'other';
    category.set(node.id, own);
    for (const child of node.children ?? []) classify(byId.get(child)!, own);
  };
  classify(profile.nodes[0], 'native (V8, libuv, OpenSSL, not attributed)');
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const what = category.get(id) ?? 'other';
    totals.set(what, (totals.get(what) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const all = [...totals.values()].reduce((a, b) => a + b, 0);
  return [...totals.entries()].map(([what, us]) => ({ what, ms: us / 1000, share: us / all })).sort((a, b) => b.ms - a.ms);
}

/**
 * The ledger of a profile taken over `requests` requests: CPU microseconds
 * per request in each layer (idle excluded: it is waiting, not spending).
 */
export function layerLedger(file: string, requests: number): { what: string; microseconds: number; share: number }[] {
  const busy = summarizeProfile(file, 'layers').filter((row) => !row.what.startsWith('idle') && row.what !== PROFILER);
  const total = busy.reduce((sum, row) => sum + row.ms, 0);
  return busy.map((row) => ({ what: row.what, microseconds: (row.ms * 1000) / requests, share: row.ms / total }));
}

if (require.main === module) {
  const by = process.argv.includes('--layers') ? 'layers' : 'categories';
  for (const file of process.argv.slice(2).filter((a) => !a.startsWith('--'))) {
    process.stdout.write(`${file}\n`);
    for (const row of summarizeProfile(file, by)) process.stdout.write(`  ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.what}\n`);
  }
}
