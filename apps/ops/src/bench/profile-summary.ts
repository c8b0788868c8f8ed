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
export function summarizeProfile(file: string): ProfileShare[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const category = new Map<number, string>();
  const classify = (node: ProfileNode, inherited: string) => {
    const { functionName, url } = node.callFrame;
    let own = inherited;
    if (functionName === '(idle)') own = 'idle (waiting, mostly for PostgreSQL)';
    else if (functionName === '(garbage collector)') own = 'garbage collection';
    else if (functionName === '(program)') own = 'native (V8, libuv, OpenSSL, not attributed)';
    else if (url) own = CATEGORIES.find(([, pattern]) => pattern.test(url))?.[0] ?? 'other';
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

if (require.main === module) {
  for (const file of process.argv.slice(2)) {
    process.stdout.write(`${file}\n`);
    for (const row of summarizeProfile(file)) process.stdout.write(`  ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.what}\n`);
  }
}
