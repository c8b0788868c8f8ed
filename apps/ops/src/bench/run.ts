import 'reflect-metadata';
/**
 * `npm run bench`: every scenario of the benchmark and the table it prints.
 * Long on purpose: a figure's setup, its load and its measurement sit
 * together so that a reader can check what a row measures; the pieces shared
 * with other commands (the bare endpoint, the stack floor, the CPU profile
 * summary, the cluster) are in files of their own beside it.
 */
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { FOUNDATION_LAYERS } from '@pcs/http';
import autocannon from 'autocannon';
import { BusinessService } from '@pcs/businesses';
import { loadDotEnv, loadEnvironment, RuntimeSettings, RuntimeSettingsModule } from '@pcs/config';
import { DatabaseModule, freePort, inTransaction, migrateDatabase, transactionOf } from '@pcs/database';
import { EventRecorder, EventsModule } from '@pcs/events';
import { asBusinessId } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { ChildProcess, fork } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { OpsModule } from '../ops.module';
import { freshDatabase as freshDatabaseLogged } from './fresh-database';
import { layerLedger, summarizeProfile } from './profile-summary';

/**
 * `npm run bench`: a fresh database (a new one on DATABASE_URL's server, or
 * an embedded PostgreSQL), the payins and B2B APIs and a bare node:http + pg
 * endpoint as separate processes, and autocannon against them. Prints every
 * figure with its ratio to the bare endpoint; asserts nothing.
 *
 * BENCH_SECONDS (default 15) per run; BENCH_PAYINS, the ledger sizes measured
 * in one run (default 100000,1000000); BENCH_SCENARIOS, a comma list of
 * ledger, floor, layers, create, confirm, checks, link, b2b, refund, prepared, cluster, tracing, webhooks, settlement (default all);
 * BENCH_SWEEP, the available transactions one payout sweeps in the settlement scenario (default 100000);
 * BENCH_KEEP_DATABASE=1 keeps the database on DATABASE_URL's server afterwards, for
 * inspection (EXPLAIN); BENCH_PROFILE=1 writes a CPU profile of the payins API under the creation
 * load to test-output/bench and prints its breakdown.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const SIZES = (process.env.BENCH_PAYINS ?? '100000,1000000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const SCENARIOS = new Set((process.env.BENCH_SCENARIOS ?? 'all').split(',').map((s) => s.trim()));
const want = (scenario: string) => SCENARIOS.has('all') || SCENARIOS.has(scenario);
const PROFILE = process.env.BENCH_PROFILE === '1';
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

interface Seeded {
  businessId: string;
  merchantId: string;
  payerId: string;
  countryId: string;
  apiKey: string;
  apiSecret: string;
}

interface Figures {
  requests: number;
  p50: number;
  p99: number;
  errors: number;
}

interface Row {
  what: string;
  figures: Figures;
  /** The bare endpoint's figures this row is compared with. */
  bare?: Figures;
  /** Issue 34's targets: the least ratio to the bare endpoint (or the bare page query), and to the stack's floor. */
  target?: number;
  floorTarget?: number;
  /** The most p99 milliseconds (issue 23: the amount-range page at a million payins, 10 connections). */
  p99Target?: number;
  roundTrips?: number;
}

async function main(): Promise<void> {
  loadDotEnv();
  const env = loadEnvironment();
  const { url, cleanup } = await freshDatabase(env.DATABASE_URL);
  const children: ChildProcess[] = [];
  const rows: Row[] = [];
  const notes: string[] = [];
  try {
    await migrateDatabase(url, log);
    const masterKey = crypto.randomBytes(32);
    const seeded = await seed(url, masterKey);
    const sign = (payload: string) => crypto.createHmac('sha256', seeded.apiSecret).update(payload).digest('hex');
    const apiEnv = {
      DATABASE_URL: url,
      // The benchmark's own database, made by DATABASE_URL's user (its owner): a development run, not a deployment.
      PCS_ALLOW_OWNER_ROLE: '1',
      SECRETS_MASTER_KEY: masterKey.toString('base64'),
      // The default level: a line per request, as in production (to /dev/null: see Instrumented.start).
      LOG_LEVEL: 'info',
      DATABASE_POOL_SIZE: process.env.BENCH_API_POOL_SIZE ?? '20',
      // The webhook figure's receiver listens on loopback.
      WEBHOOKS_ALLOW_LOCALHOST: 'true',
      // Required with DATABASE_URL; nothing the benchmark does sends mail.
      SMTP_URL: 'smtp://127.0.0.1:2525',
      // Limits counted on every request, as in production, with quotas no load here reaches (the checks row measures their cost).
      RATE_LIMIT_READS_PER_SECOND: '1000000',
      RATE_LIMIT_WRITES_PER_SECOND: '1000000',
      RATE_LIMIT_ADDRESS_PER_SECOND: '1000000',
    };
    const api = await Instrumented.start(path.resolve(__dirname, '../../../payins-api/src/main.js'), 'PAYINS_API_PORT', apiEnv);
    children.push(api.child);
    const bare = await Instrumented.start(path.resolve(__dirname, 'bare-endpoint.js'), 'BENCH_PORT', {
      BENCH_DATABASE_URL: url,
      BENCH_SECRET: seeded.apiSecret,
      BENCH_POOL_SIZE: '10',
      BENCH_CONTEXT: JSON.stringify(seeded),
    });
    children.push(bare.child);
    const getHeaders = { 'api-key': seeded.apiKey, signature: sign('{}') };
    const post = (body: object) => {
      const json = JSON.stringify(body);
      return { body: json, headers: { 'content-type': 'application/json', 'api-key': seeded.apiKey, signature: sign(json) } };
    };

    // The ledger at each size: the bare endpoint runs the same page query (no count).
    if (want('ledger')) {
      const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
      const until = new Date().toISOString().slice(0, 10);
      const filters = [
        ['selective', `status=APPROVED&currency=UYU&dateFrom=${from}&dateUntil=${until}`],
        ['broad', 'currency=USD&sort=AMOUNT&order=DESC'],
        ['amount range', 'currency=USD&minAmount=5000&maxAmount=9000&sort=AMOUNT&order=DESC'],
      ] as const;
      for (const size of SIZES) {
        await growPayins(url, seeded, size);
        for (const [kind, query] of filters) {
          const ours = `${api.url}/payin?${query}&limit=20`;
          const theirs = `${bare.url}/ledger?${query}&limit=20`;
          await load({ url: ours, method: 'GET', headers: getHeaders, connections: 2, duration: 2 });
          await load({ url: theirs, method: 'GET', headers: getHeaders, connections: 2, duration: 2 });
          const roundTrips = await api.roundTrips(10, () => fetch(ours, { headers: getHeaders }));
          for (const connections of [1, 10]) {
            const run = () => load({ url: ours, method: 'GET', headers: getHeaders, connections, duration: SECONDS });
            const figures =
              kind === 'selective' && connections === 10 && size === SIZES[SIZES.length - 1]
                ? await profiled(api, 'ledger', notes, run)
                : await run();
            const bareFigures = await load({ url: theirs, method: 'GET', headers: getHeaders, connections, duration: SECONDS });
            rows.push({
              what: `GET /payin, ${kind} (${query}), ${size.toLocaleString('en-US')} payins, ${connections} connection${connections > 1 ? 's' : ''}`,
              figures,
              bare: bareFigures,
              target: 0.5,
              ...(size >= 1_000_000 ? { p99Target: 50 } : {}),
              roundTrips,
            });
          }
        }
      }
    }

    if (want('settlement')) await settlement({ url, masterKey, seeded, api, bare, getHeaders, post, rows, notes });

    const creation = post({
      currency: 'UYU',
      amount: 1220,
      payinType: 'DEFAULT',
      externalReference: 'bench',
      payerId: seeded.payerId,
      offSession: false,
      invoiceNumber: 1,
      country: 'URY',
    });
    await load({ url: `${bare.url}/`, method: 'POST', ...creation, connections: 10, duration: 3 });
    const bareCreate = await cpuDuring(bare.child.pid!, 'the bare endpoint', notes, () =>
      load({ url: `${bare.url}/`, method: 'POST', ...creation, connections: 50, duration: SECONDS }),
    );
    rows.push({
      what: 'bare node:http + pg: HMAC check + one INSERT, 50 connections',
      figures: bareCreate,
      bare: bareCreate,
      roundTrips: 1,
    });

    // Issue 23: the stack's floor (a minimal Nest app doing the bare endpoint's work) and the same route in our HTTP foundation.
    let floorCreate: Figures | null = null;
    const floorEnv = {
      BENCH_DATABASE_URL: url,
      BENCH_SECRET: seeded.apiSecret,
      BENCH_POOL_SIZE: '10',
      BENCH_CONTEXT: JSON.stringify(seeded),
      BENCH_MASTER_KEY: masterKey.toString('base64'),
    };
    if (want('floor')) {
      for (const variant of ['floor', 'foundation'] as const) {
        const server = await Instrumented.start(path.resolve(__dirname, 'stack-floor.js'), 'BENCH_PORT', {
          ...floorEnv,
          BENCH_VARIANT: variant,
        });
        children.push(server.child);
        const target = variant === 'floor' ? `${server.url}/` : `${server.url}/bench-creation`;
        await load({ url: target, method: 'POST', ...creation, connections: 10, duration: 3 });
        const roundTrips = await server.roundTrips(50, () => fetch(target, { method: 'POST', ...creation }));
        const figures = await cpuDuring(server.child.pid!, `the ${variant === 'floor' ? "stack's floor" : 'foundation'}`, notes, () =>
          load({ url: target, method: 'POST', ...creation, connections: 50, duration: SECONDS }),
        );
        if (variant === 'floor') floorCreate = figures;
        rows.push({
          what:
            variant === 'floor'
              ? "the stack's floor: minimal Nest + Express, a class-validator DTO, the HMAC check, one INSERT through TypeORM, 50 connections"
              : 'the same route in our HTTP foundation (every global middleware, guard, pipe, filter, logger, metric), 50 connections',
          figures,
          bare: bareCreate,
          ...(variant === 'floor' ? {} : { floorTarget: 0.7 }),
          roundTrips,
        });
        server.child.kill('SIGTERM');
      }
    }

    // The foundation's cost layer by layer: the same route without one global piece at a time (FOUNDATION_LAYERS),
    // the whole foundation measured again beside them, in two interleaved rounds (the machine drifts between runs).
    if (want('layers')) {
      const variants = ['', ...FOUNDATION_LAYERS] as const;
      const measured = new Map<string, Figures[]>(variants.map((variant) => [variant, []]));
      const queries = new Map<string, number>();
      for (let round = 0; round < 2; round++) {
        for (const variant of variants) {
          const server = await Instrumented.start(path.resolve(__dirname, 'stack-floor.js'), 'BENCH_PORT', {
            ...floorEnv,
            BENCH_VARIANT: 'foundation',
            ...(variant ? { BENCH_WITHOUT: variant } : {}),
          });
          children.push(server.child);
          const target = `${server.url}/bench-creation`;
          await load({ url: target, method: 'POST', ...creation, connections: 10, duration: 3 });
          if (round === 0) queries.set(variant, await server.roundTrips(50, () => fetch(target, { method: 'POST', ...creation })));
          measured.get(variant)!.push(await load({ url: target, method: 'POST', ...creation, connections: 50, duration: SECONDS }));
          server.child.kill('SIGTERM');
        }
      }
      const best = (variant: string) => measured.get(variant)!.reduce((a, b) => (b.requests > a.requests ? b : a));
      const whole = best('');
      for (const variant of variants) {
        const figures = best(variant);
        rows.push({
          what: variant
            ? `the foundation without ${variant}, 50 connections (best of 2)`
            : 'the whole foundation again, 50 connections (best of 2)',
          figures,
          bare: bareCreate,
          roundTrips: queries.get(variant),
        });
        if (variant)
          notes.push(
            `foundation without ${variant}: ${measured
              .get(variant)!
              .map((f) => f.requests.toFixed(0))
              .join(' and ')} requests/s in the two rounds, ` +
              `best ${(figures.requests / whole.requests).toFixed(2)} × the whole foundation's best (${measured
                .get('')!
                .map((f) => f.requests.toFixed(0))
                .join(' and ')}): ` +
              `the layer takes ${(100 * (1 - whole.requests / figures.requests)).toFixed(0)} % of a request's time`,
          );
      }
    }

    let creationLedger: { requests: number; layers: ReturnType<typeof layerLedger>; file: string } | null = null;
    if (want('create')) {
      const target = `${api.url}/payment-intent`;
      await load({ url: target, method: 'POST', ...creation, connections: 10, duration: 3 });
      const roundTrips = await api.roundTrips(50, () => fetch(target, { method: 'POST', ...creation }));
      const rss = api.sampleRss();
      const figures = await profiled(api, 'creation', notes, () =>
        cpuDuring(api.child.pid!, 'the creation load (one API process)', notes, () =>
          load({ url: target, method: 'POST', ...creation, connections: 50, duration: SECONDS }),
        ),
      );
      notes.push(`payins API RSS under the creation load: ${(rss.stop() / 1024 / 1024).toFixed(0)} MiB at most`);
      rows.push({
        what: 'signed POST /payment-intent (17), 50 connections',
        figures,
        bare: bareCreate,
        target: 0.2,
        floorTarget: 0.5,
        roundTrips,
      });
      // Issue 23's per-layer ledger: a second, profiled run of the same load (the figure above is unprofiled).
      await api.startProfile();
      const sampled = await load({
        url: target,
        method: 'POST',
        ...creation,
        connections: 50,
        duration: Math.max(5, Math.round(SECONDS / 2)),
      });
      const file = path.resolve('test-output/bench', `payins-api-ledger-${Date.now()}.cpuprofile`);
      await api.stopProfile(file);
      creationLedger = { requests: sampled.total, layers: layerLedger(file, sampled.total), file: path.relative(process.cwd(), file) };
    }

    // The path real money takes: a confirmed creation that charges the payer's saved card at the sandbox (approved at once).
    if (want('confirm')) {
      const saved = await fetch(`${api.url}/payment-instrument`, {
        method: 'POST',
        ...post({ payerId: seeded.payerId, paymentMethodName: 'OCA', country: 'URY' }),
      });
      if (!saved.ok) throw new Error(`saved card: ${saved.status} ${await saved.text()}`);
      const { paymentInstrumentId } = (await saved.json()) as { paymentInstrumentId: string };
      const charge = post({
        currency: 'UYU',
        amount: 1220,
        payinType: 'DEFAULT',
        externalReference: 'bench-saved-card',
        payerId: seeded.payerId,
        offSession: true,
        invoiceNumber: 1,
        country: 'URY',
        paymentInstrumentId,
        confirm: true,
      });
      const target = `${api.url}/payment-intent`;
      const first = await fetch(target, { method: 'POST', ...charge });
      const answer = (await first.json()) as { status?: string };
      if (!first.ok || answer.status !== 'SUCCEEDED') throw new Error(`saved-card charge: ${first.status} ${JSON.stringify(answer)}`);
      await load({ url: target, method: 'POST', ...charge, connections: 10, duration: 3 });
      const roundTrips = await api.roundTrips(20, () => fetch(target, { method: 'POST', ...charge }));
      const figures = await profiled(api, 'saved-card charge', notes, () =>
        cpuDuring(api.child.pid!, 'the saved-card charge load (one API process)', notes, () =>
          load({ url: target, method: 'POST', ...charge, connections: 50, duration: SECONDS }),
        ),
      );
      rows.push({
        what: 'signed POST /payment-intent with confirm, charging a saved card at the sandbox (approved), 50 connections',
        figures,
        bare: bareCreate,
        floorTarget: 0.15,
        roundTrips,
      });
      notes.push(`saved-card charge: ${roundTrips.toFixed(1)} statements per request (target: at most 6)`);
    }

    // What the checks of contract §17 cost: the same API with RATE_LIMITS=off, and version 2 (one more row, the replay record, per change).
    if (want('checks')) {
      const unlimited = await Instrumented.start(path.resolve(__dirname, '../../../payins-api/src/main.js'), 'PAYINS_API_PORT', {
        ...apiEnv,
        RATE_LIMITS: 'off',
      });
      children.push(unlimited.child);
      const read = (base: string) => ({ url: `${base}/payer?limit=1`, method: 'GET' as const, headers: getHeaders });
      const createAt = (base: string) => ({ url: `${base}/payment-intent`, method: 'POST' as const, ...creation });
      let n = 0;
      const versionTwo = () => {
        const body = JSON.stringify({ ...JSON.parse(creation.body), externalReference: `bench-v2-${n++}` });
        const timestamp = String(Math.floor(Date.now() / 1000));
        return { body, headers: { ...creation.headers, timestamp, signature: sign(`${timestamp}.${body}`) } };
      };
      // Version 3 (contract §29): RFC 9421 over method, path, query and digest, a nonce recorded for every request, reads too.
      const versionThree = (method: 'GET' | 'POST', target: string, body?: string) => () => {
        const sent = body === undefined ? undefined : JSON.stringify({ ...JSON.parse(body), externalReference: `bench-v3-${n++}` });
        return {
          body: sent,
          headers: { ...(sent ? { 'content-type': 'application/json' } : {}), ...signV3(seeded, method, target, sent) },
        };
      };
      const runs: [string, Instrumented, LoadOptions][] = [
        ['signed GET /payer?limit=1 (v1), RATE_LIMITS=off', unlimited, { ...read(unlimited.url), connections: 50 }],
        ['signed GET /payer?limit=1 (v1), limits counted', api, { ...read(api.url), connections: 50 }],
        [
          'signed GET /payer?limit=1 (v3: + nonce record), limits counted',
          api,
          { ...read(api.url), headers: {}, connections: 50, requestOf: versionThree('GET', '/payer?limit=1') },
        ],
        ['signed POST /payment-intent (v1), RATE_LIMITS=off', unlimited, { ...createAt(unlimited.url), connections: 50 }],
        ['signed POST /payment-intent (v1), limits counted', api, { ...createAt(api.url), connections: 50 }],
        [
          'signed POST /payment-intent (v2: + replay record), limits counted',
          api,
          { ...createAt(api.url), connections: 50, requestOf: versionTwo },
        ],
        [
          'signed POST /payment-intent (v3: + nonce record), limits counted',
          api,
          { ...createAt(api.url), connections: 50, requestOf: versionThree('POST', '/payment-intent', creation.body) },
        ],
      ];
      for (const [what, target, options] of runs) {
        await load({ ...options, duration: 3 });
        const roundTrips = await target.roundTrips(20, () => {
          const next = options.requestOf ? options.requestOf() : { body: options.body, headers: options.headers };
          return fetch(options.url, { method: options.method, headers: next.headers, body: next.body });
        });
        const figures = await cpuDuring(target.child.pid!, what, notes, () => load({ ...options, duration: SECONDS }));
        rows.push({ what: `checks: ${what}, 50 connections`, figures, bare: bareCreate, roundTrips });
      }
      unlimited.child.kill('SIGTERM');
    }

    if (want('link')) {
      const links = await createLinks(api.url, seeded, post, Number(process.env.BENCH_LINKS ?? 3000));
      const pay = post({ paymentInstrumentTypeName: 'CREDIT_CARD', paymentMethodName: 'VISA', amount: 1220 });
      const roundTrips = await api.roundTrips(20, () => fetch(`${api.url}/link/${links.pop()}/payment-intent`, { method: 'POST', ...pay }));
      const figures = await profiled(api, 'link payment', notes, () =>
        load({
          url: api.url,
          method: 'POST',
          ...pay,
          connections: 50,
          amount: links.length,
          pathOf: () => `/link/${links.pop()}/payment-intent`,
        }),
      );
      rows.push({
        what: `signed POST /link/:id/payment-intent (24), 50 connections, ${figures.total} links`,
        figures,
        bare: bareCreate,
        floorTarget: 0.4,
        roundTrips,
      });
    }

    if (want('b2b')) {
      const b2b = await Instrumented.start(path.resolve(__dirname, '../../../b2b-api/src/main.js'), 'B2B_API_PORT', apiEnv);
      children.push(b2b.child);
      const order = post({
        merchantId: seeded.merchantId,
        countryCode: 'URY',
        currency: 'UYU',
        amount: 1220,
        externalReference: 'bench',
        description: 'Bench',
        redirectUrl: 'https://shop.example/return',
      });
      const target = `${b2b.url}/payment-intent`;
      await load({ url: target, method: 'POST', ...order, connections: 10, duration: 3 });
      const roundTrips = await b2b.roundTrips(50, () => fetch(target, { method: 'POST', ...order }));
      const figures = await profiled(
        b2b,
        'B2B creation',
        notes,
        () => load({ url: target, method: 'POST', ...order, connections: 50, duration: SECONDS }),
        'b2b-api',
      );
      rows.push({ what: 'signed B2B POST /payment-intent (B6), 50 connections', figures, bare: bareCreate, floorTarget: 0.4, roundTrips });
      b2b.child.kill('SIGTERM');
    }

    if (want('refund')) {
      const intents = await paidIntents(api.url, seeded, post, 100);
      let next = 0;
      // Refunds take version 3 only (contract §29): each signed as a client signs it, with a nonce of its own.
      const refund = refundsOf(seeded, () => `/payment-intent/${intents[next++ % intents.length]}/refund`);
      await load({ ...refund, url: api.url, connections: 10, duration: 3 });
      const roundTrips = await api.roundTrips(50, () => {
        const sent = refund.requestOf();
        return fetch(`${api.url}${sent.path}`, { method: 'POST', headers: sent.headers, body: sent.body });
      });
      const figures = await profiled(api, 'refund', notes, () => load({ ...refund, url: api.url, connections: 50, duration: SECONDS }));
      rows.push({
        what: 'signed POST /payment-intent/:id/refund (22), version 3, 50 connections',
        figures,
        bare: bareCreate,
        floorTarget: 0.3,
        roundTrips,
      });
    }

    // What named prepared statements save: the same writes against a second process with DATABASE_PREPARED_STATEMENTS=off.
    if (want('prepared')) {
      const unprepared = await Instrumented.start(path.resolve(__dirname, '../../../payins-api/src/main.js'), 'PAYINS_API_PORT', {
        ...apiEnv,
        DATABASE_PREPARED_STATEMENTS: 'off',
      });
      children.push(unprepared.child);
      const intents = await paidIntents(api.url, seeded, post, 100);
      let next = 0;
      const refund = refundsOf(seeded, () => `/payment-intent/${intents[next++ % intents.length]}/refund`);
      const refundAt = (base: string): LoadOptions => ({ ...refund, url: base, connections: 50 });
      const createAt = (base: string): LoadOptions => ({ url: `${base}/payment-intent`, method: 'POST', ...creation, connections: 50 });
      const runs: [string, Instrumented, LoadOptions][] = [
        ['signed POST /payment-intent, DATABASE_PREPARED_STATEMENTS=off', unprepared, createAt(unprepared.url)],
        ['signed POST /payment-intent, prepared (default)', api, createAt(api.url)],
        ['signed POST /payment-intent/:id/refund, DATABASE_PREPARED_STATEMENTS=off', unprepared, refundAt(unprepared.url)],
        ['signed POST /payment-intent/:id/refund, prepared (default)', api, refundAt(api.url)],
      ];
      for (const [what, target, options] of runs) {
        await load({ ...options, duration: 3 });
        const figures = await cpuDuring(target.child.pid!, what, notes, () => load({ ...options, duration: SECONDS }));
        rows.push({ what: `prepared: ${what}, 50 connections`, figures, bare: bareCreate });
      }
      unprepared.child.kill('SIGTERM');
    }

    if (want('cluster')) {
      for (const workers of [1, 2]) {
        const clustered = await Instrumented.start(path.resolve(__dirname, 'cluster.js'), 'PAYINS_API_PORT', {
          ...apiEnv,
          BENCH_WORKERS: String(workers),
        });
        const target = `${clustered.url}/payment-intent`;
        await load({ url: target, method: 'POST', ...creation, connections: 10, duration: 3 });
        const figures = await cpuDuring(
          clustered.child.pid!,
          `the creation load (${workers} process${workers > 1 ? 'es' : ''}, cluster)`,
          notes,
          () => load({ url: target, method: 'POST', ...creation, connections: 50, duration: SECONDS }),
        );
        rows.push({
          what: `signed POST /payment-intent, ${workers} API process${workers > 1 ? 'es' : ''} behind one port (cluster)`,
          figures,
          bare: bareCreate,
        });
        clustered.child.kill('SIGTERM');
        await new Promise((resolve) => (clustered.child.exitCode !== null ? resolve(null) : clustered.child.once('exit', resolve)));
      }
    }

    // What tracing costs when on (docs/operations.md, "Tracing"): the creation on payins APIs exporting their spans by
    // OTLP/HTTP to a collector that takes and drops them, against one with tracing off.
    if (want('tracing')) {
      const collector = await discardingCollector();
      const tracedWith = async (sampling: Record<string, string>) => {
        const server = await Instrumented.start(path.resolve(__dirname, '../../../payins-api/src/main.js'), 'PAYINS_API_PORT', {
          ...apiEnv,
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          // Every sampled span exported, none dropped (the SDK's default queue of 2,048 drops most of them at this rate).
          OTEL_BSP_MAX_QUEUE_SIZE: '262144',
          OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '8192',
          OTEL_BSP_SCHEDULE_DELAY: '1000',
          ...sampling,
        });
        children.push(server.child);
        return server;
      };
      // Every request traced (the SDK's default sampler), and one in ten (a production's usual head sampling), in three
      // interleaved rounds of three processes started together.
      const variants = [
        // A process of the same age as the traced ones (the collector set, OTEL_SDK_DISABLED=true): the comparison's base.
        ['off', 'off (OTEL_SDK_DISABLED=true beside the same variables)', await tracedWith({ OTEL_SDK_DISABLED: 'true' })],
        ['on', 'on, every request traced and exported by OTLP', await tracedWith({})],
        [
          'sampled',
          'on, one request in ten sampled (OTEL_TRACES_SAMPLER=parentbased_traceidratio, OTEL_TRACES_SAMPLER_ARG=0.1)',
          await tracedWith({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }),
        ],
      ] as const;
      const measured = new Map<string, Figures[]>(variants.map(([kind]) => [kind, []]));
      for (let round = 0; round < 3; round++)
        for (const [kind, , server] of variants) {
          const target = `${server.url}/payment-intent`;
          await load({ url: target, method: 'POST', ...creation, connections: 10, duration: 3 });
          const run = () => load({ url: target, method: 'POST', ...creation, connections: 50, duration: SECONDS });
          // Every variant's profile in the second round (what tracing's own work costs, by package).
          measured.get(kind)!.push(round === 1 ? await profiled(server, `tracing ${kind}`, notes, run) : await run());
        }
      const best = (kind: string) => measured.get(kind)!.reduce((a, b) => (b.requests > a.requests ? b : a));
      for (const [kind, what] of variants)
        rows.push({
          what: `tracing ${what}: signed POST /payment-intent, 50 connections (best of 3)`,
          figures: best(kind),
          bare: bareCreate,
        });
      for (const [kind, what] of variants.slice(1)) {
        const ratio = best(kind).requests / best('off').requests;
        notes.push(
          `tracing ${what}: ${ratio.toFixed(2)} × the creation without it (rounds: ${measured
            .get(kind)!
            .map((f) => f.requests.toFixed(0))
            .join(' and ')} against ${measured
            .get('off')!
            .map((f) => f.requests.toFixed(0))
            .join(' and ')} requests/s; target: a cost under 10 %, ${ratio > 0.9 ? 'met' : 'missed'})`,
        );
      }
      notes.push(`tracing: the collector received ${collector.received()}`);
      for (const [, , server] of variants) server.child.kill('SIGTERM');
      await collector.close();
    }

    const webhooks = want('webhooks') ? await webhookDelivery(url, masterKey, api, sign, seeded, notes) : null;

    process.stdout.write(`\nBenchmark on ${os.cpus().length} cores, ${SECONDS} s per run\n\n`);
    process.stdout.write(
      '| what | requests/s | × bare | × floor | target | p50 ms | p99 ms | errors | queries/request |\n|---|---|---|---|---|---|---|---|---|\n',
    );
    const floor = floorCreate;
    for (const { what, figures, bare: compared, target, floorTarget, p99Target, roundTrips } of rows) {
      const ratio = compared ? figures.requests / compared.requests : null;
      // The floor is a creation: reads (compared with their own bare page query) get no ratio to it.
      const toFloor = floor && (!compared || compared === bareCreate) ? figures.requests / floor.requests : null;
      const goals: string[] = [];
      if (target !== undefined && ratio !== null)
        goals.push(`≥ ${target} × bare: ${ratio >= target ? 'met' : `missed by ${(target - ratio).toFixed(2)}`}`);
      if (floorTarget !== undefined && toFloor !== null)
        goals.push(`≥ ${floorTarget} × floor: ${toFloor >= floorTarget ? 'met' : `missed by ${(floorTarget - toFloor).toFixed(2)}`}`);
      if (p99Target !== undefined)
        goals.push(`p99 < ${p99Target} ms: ${figures.p99 < p99Target ? 'met' : `missed by ${figures.p99 - p99Target + 1} ms`}`);
      process.stdout.write(
        `| ${what} | ${figures.requests.toFixed(0)} | ${ratio === null ? '' : ratio.toFixed(2)}${compared && compared !== bareCreate ? ` (bare ${compared.requests.toFixed(0)}/s, p99 ${compared.p99} ms)` : ''} | ${toFloor === null ? '' : toFloor.toFixed(2)} | ${goals.join('; ')} | ${figures.p50} | ${figures.p99} | ${figures.errors} | ${roundTrips === undefined ? '' : roundTrips.toFixed(1)} |\n`,
      );
    }
    process.stdout.write('\n');
    if (creationLedger) {
      const total = creationLedger.layers.reduce((sum, layer) => sum + layer.microseconds, 0);
      process.stdout.write(
        `Per-layer CPU ledger of signed POST /payment-intent (the payins API's CPU per request, from a profile of ${creationLedger.requests} requests: ${creationLedger.file})\n\n` +
          '| layer | µs / request | share |\n|---|---|---|\n',
      );
      for (const layer of creationLedger.layers)
        process.stdout.write(`| ${layer.what} | ${layer.microseconds.toFixed(0)} | ${(layer.share * 100).toFixed(1)}% |\n`);
      process.stdout.write(`| all | ${total.toFixed(0)} | 100% |\n\n`);
    }
    for (const note of notes) process.stdout.write(`${note}\n`);
    if (webhooks)
      process.stdout.write(
        `webhooks: ${webhooks.events} payment_intent.created events recorded in one transaction, dispatched and delivered by one API process ` +
          `to a local receiver at ${webhooks.deliveredPerSecond.toFixed(0)} events/s from the commit to the last arrival (target ≥ 3000 events/s: ` +
          `${webhooks.deliveredPerSecond >= 3000 ? 'met' : 'missed'}; ${webhooks.firstToLastPerSecond.toFixed(0)} events/s first to last arrival; ` +
          `p50 ${webhooks.p50LatencyMs} ms / p99 ${webhooks.p99LatencyMs} ms from the commit to an event's arrival)\n`,
      );
    // A figure of refused or failed requests measures nothing: the run fails (after printing what it measured).
    const failed = rows.filter((row) => row.figures.errors > 0);
    if (failed.length > 0) {
      for (const row of failed) process.stdout.write(`FAILED: ${row.what} answered ${row.figures.errors} errors\n`);
      process.exitCode = 1;
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((resolve) => (c.exitCode !== null ? resolve(null) : c.once('exit', resolve)))));
    await cleanup();
  }
}

/**
 * Issue 29's figures (contract §19): the balance read with the largest ledger
 * (p99 < 20 ms), what the approval's balance write costs (the trigger on the
 * payin: the same statements, compared with the trigger disabled), and one
 * payout sweeping BENCH_SWEEP available transactions (one statement, < 5 s).
 */
async function settlement(bed: {
  url: string;
  masterKey: Buffer;
  seeded: Seeded;
  api: Instrumented;
  bare: Instrumented;
  getHeaders: Record<string, string>;
  post: (body: object) => { body: string; headers: Record<string, string> };
  rows: Row[];
  notes: string[];
}): Promise<void> {
  const { url, seeded, api, bare, getHeaders, post, rows, notes } = bed;
  const size = SIZES[SIZES.length - 1];
  await growPayins(url, seeded, size);
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const [{ n: movements }] = (
      await db.query<{ n: number }>('SELECT count(*)::int AS n FROM balance_transaction WHERE merchant_id = $1', [seeded.merchantId])
    ).rows;
    const ours = `${api.url}/merchant/${seeded.merchantId}/balance`;
    const theirs = `${bare.url}/balance`;
    await load({ url: ours, method: 'GET', headers: getHeaders, connections: 2, duration: 2 });
    await load({ url: theirs, method: 'GET', headers: getHeaders, connections: 2, duration: 2 });
    const roundTrips = await api.roundTrips(10, () => fetch(ours, { headers: getHeaders }));
    for (const connections of [1, 10]) {
      const figures = await load({ url: ours, method: 'GET', headers: getHeaders, connections, duration: SECONDS });
      const bareFigures = await load({ url: theirs, method: 'GET', headers: getHeaders, connections, duration: SECONDS });
      rows.push({
        what: `GET /merchant/:id/balance, ${size.toLocaleString('en-US')} payins (${movements.toLocaleString('en-US')} balance transactions), ${connections} connection${connections > 1 ? 's' : ''}`,
        figures,
        bare: bareFigures,
        p99Target: 20,
        roundTrips,
      });
    }

    // An approval: a creation the sandbox approves at once (payin, fee at the merchant's price, balance transaction).
    const approval = post({
      currency: 'UYU',
      amount: 1220,
      payinType: 'DEFAULT',
      externalReference: 'bench-approval',
      payerId: seeded.payerId,
      offSession: true,
      invoiceNumber: 1,
      country: 'URY',
      paymentInstrumentData: { paymentMethodName: 'OCA' },
      confirm: true,
    });
    const target = `${api.url}/payment-intent`;
    const triggers = async (action: 'ENABLE' | 'DISABLE') => {
      for (const name of ['payin_approved_insert', 'payin_approved_update']) await db.query(`ALTER TABLE payin ${action} TRIGGER ${name}`);
    };
    const approvals: Record<string, { figures: Figures; roundTrips: number }> = {};
    try {
      for (const variant of ['with', 'without'] as const) {
        if (variant === 'without') await triggers('DISABLE');
        await load({ url: target, method: 'POST', ...approval, connections: 10, duration: 3 });
        const trips = await api.roundTrips(20, () => fetch(target, { method: 'POST', ...approval }));
        const figures = await load({ url: target, method: 'POST', ...approval, connections: 50, duration: SECONDS });
        approvals[variant] = { figures, roundTrips: trips };
      }
    } finally {
      await triggers('ENABLE');
    }
    for (const [variant, { figures, roundTrips: trips }] of Object.entries(approvals))
      rows.push({
        what: `signed POST /payment-intent with confirm (an approval), ${variant === 'with' ? 'the balance write (trigger) on' : 'the balance trigger disabled, for comparison'}, 50 connections`,
        figures,
        bare: approvals.without.figures,
        roundTrips: trips,
      });
    notes.push(
      `approval: ${approvals.with.roundTrips.toFixed(1)} statements per approving request with the balance write, ${approvals.without.roundTrips.toFixed(1)} without ` +
        `(target: at most one more; the balance transaction is written by the payin's own INSERT, the price is cached)`,
    );

    // A payout sweeping BENCH_SWEEP available transactions of a merchant of their own.
    const count = Number(process.env.BENCH_SWEEP ?? 100_000);
    const sweeper = await sweepMerchant(url, bed.masterKey, seeded, count);
    // Settlement accounts and payouts move money: version 3 only (contract §29), as clients sign them.
    const put = JSON.stringify({ bankId: sweeper.brouId, accountNumber: '001234567', accountType: 'SAVINGS' });
    const accountPath = `/merchant/${sweeper.merchantId}/settlement-account/UYU`;
    const account = await fetch(`${api.url}${accountPath}`, {
      method: 'PUT',
      body: put,
      headers: { 'content-type': 'application/json', ...signV3(sweeper, 'PUT', accountPath, put) },
    });
    if (!account.ok) throw new Error(`settlement account: ${account.status} ${await account.text()}`);
    const request = JSON.stringify({ currency: 'UYU' });
    let payout: { payoutId: string; amount: number } | undefined;
    const started = process.hrtime.bigint();
    const trips = await api.roundTrips(1, async () => {
      const payoutPath = `/merchant/${sweeper.merchantId}/payout`;
      const response = await fetch(`${api.url}${payoutPath}`, {
        method: 'POST',
        body: request,
        headers: {
          'content-type': 'application/json',
          ...signV3(sweeper, 'POST', payoutPath, request),
          'idempotency-key': crypto.randomUUID(),
        },
      });
      if (response.ok) payout = (await response.clone().json()) as { payoutId: string; amount: number };
      return response;
    });
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
    const [{ n: swept }] = (
      await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM balance_transaction WHERE payout_id = $1 AND type <> 'PAYOUT'`, [
        payout!.payoutId,
      ])
    ).rows;
    notes.push(
      `payout sweep: POST /merchant/:id/payout took ${swept.toLocaleString('en-US')} available transactions (of ${count.toLocaleString('en-US')} seeded) ` +
        `into one payout of ${payout!.amount} UYU in ${milliseconds.toFixed(0)} ms, ${trips.toFixed(0)} statements in the request, the sweep one UPDATE ` +
        `(target < 5000 ms: ${milliseconds < 5000 ? 'met' : 'missed'})`,
    );
  } finally {
    await db.end();
  }
}

/** A second merchant of the bench business with `count` approved UYU payins, all available now (no liquidation date). */
async function sweepMerchant(
  url: string,
  masterKey: Buffer,
  seeded: Seeded,
  count: number,
): Promise<{ merchantId: string; apiKey: string; apiSecret: string; brouId: string }> {
  const app = await NestFactory.createApplicationContext(OpsModule.forRoot(new RuntimeSettings(url, masterKey, 'http://localhost')), {
    logger: false,
  });
  try {
    const merchant = await app
      .get(MerchantService)
      .create({ businessId: asBusinessId(seeded.businessId), name: 'Bench sweep merchant', countryIso3: 'URY', approve: true });
    const dataSource = app.get<DataSource>(getDataSourceToken());
    const [{ bank_id: brouId }] = await dataSource.query(`SELECT bank_id FROM bank WHERE country = 'URY' AND code = '001'`);
    log(`seeding ${count.toLocaleString('en-US')} available transactions to sweep`);
    const payerId = crypto.randomUUID();
    await dataSource.query(
      `INSERT INTO payer (payer_id, business_id, merchant_id, first_name, last_name) VALUES ($1, $2, $3, 'Bench', 'Payer')`,
      [payerId, seeded.businessId, merchant.merchantId],
    );
    await dataSource.query(
      `WITH intent AS (
         INSERT INTO payment_intent (payment_intent_id, business_id, merchant_id, payer_id, country_id, origin, payin_type, status, currency,
                                     amount, tax_amount, vat_rate_bp, received_amount)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, 'API', 'DEFAULT', 'SUCCEEDED', 'UYU', 12200, 2200, 2200, 12200) RETURNING payment_intent_id)
       INSERT INTO payin (transaction_id, business_id, merchant_id, payment_intent_id, transaction_type, concept_code, status, currency,
                          amount, subtotal_amount, tax_amount, received_amount, merchant_name, person_first_name, person_last_name,
                          payment_intent_initiator, created_at, updated_at)
       SELECT gen_random_uuid(), $1, $2, intent.payment_intent_id, 'PAYIN', 'PAYIN', 'APPROVED', 'UYU', 12200, 10000, 2200, 12200,
              'Bench sweep merchant', 'Bench', 'Payer', 'PAYER', now(), now()
       FROM intent, generate_series(1, $5::int)`,
      [seeded.businessId, merchant.merchantId, payerId, seeded.countryId, count],
    );
    await dataSource.query('VACUUM ANALYZE balance_transaction');
    return { merchantId: merchant.merchantId, apiKey: merchant.apiKey, apiSecret: merchant.apiSecret, brouId };
  } finally {
    await app.close();
  }
}

/** With BENCH_PROFILE=1, a CPU profile of the API during `run`, written to test-output/bench and summarised in the notes. */
async function profiled<T>(
  api: Instrumented,
  label: string,
  notes: string[],
  run: () => Promise<T>,
  app: 'payins-api' | 'b2b-api' = 'payins-api',
): Promise<T> {
  if (!PROFILE) return run();
  await api.startProfile();
  const result = await run();
  const file = path.resolve('test-output/bench', `${app}-${label}-${Date.now()}.cpuprofile`);
  await api.stopProfile(file);
  notes.push(
    `CPU profile of the ${app === 'b2b-api' ? 'B2B' : 'payins'} API under the ${label} load: ${path.relative(process.cwd(), file)}`,
  );
  for (const share of summarizeProfile(file)) notes.push(`  ${(share.share * 100).toFixed(1).padStart(5)}%  ${share.what}`);
  return result;
}

/** CPU ticks by process from /proc (Linux): pid -> [ppid, name, user + system ticks]. */
function processTicks(): Map<number, [number, string, number]> {
  const result = new Map<number, [number, string, number]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      result.set(Number(entry), [Number(fields[1]), name, Number(fields[11]) + Number(fields[12])]);
    } catch {
      // the process ended meanwhile
    }
  }
  return result;
}

function machineTicks(): number {
  const [cpu] = fs.readFileSync('/proc/stat', 'utf8').split('\n');
  return cpu
    .split(/\s+/)
    .slice(1)
    .reduce((sum, n) => sum + (Number(n) || 0), 0);
}

/**
 * Where the machine's CPU went while `run` ran: the API (the process and its
 * children), PostgreSQL's processes, the load generator (this process), and
 * the rest (idle, the kernel's softirq, other tenants), as shares of all cores.
 */
async function cpuDuring<T>(apiPid: number, label: string, notes: string[], run: () => Promise<T>): Promise<T> {
  if (process.platform !== 'linux') return run();
  const before = processTicks();
  const machineBefore = machineTicks();
  const result = await run();
  const after = processTicks();
  const machine = machineTicks() - machineBefore;
  const delta = (pid: number) => (after.get(pid)?.[2] ?? 0) - (before.get(pid)?.[2] ?? 0);
  const isApi = (pid: number) => pid === apiPid || after.get(pid)?.[0] === apiPid;
  let api = 0;
  let postgres = 0;
  for (const [pid, [, name]] of after) {
    if (isApi(pid)) api += delta(pid);
    else if (name === 'postgres' || name.startsWith('postgres')) postgres += delta(pid);
  }
  const self = delta(process.pid);
  const share = (ticks: number) => `${((ticks / machine) * 100).toFixed(0)}%`;
  notes.push(
    `machine CPU during ${label}: API ${share(api)}, PostgreSQL ${share(postgres)}, load generator ${share(self)}, ` +
      `everything else (idle, kernel, other processes) ${share(machine - api - postgres - self)}`,
  );
  return result;
}

/** A process the benchmark started with instrument.js preloaded: its port, query count, RSS and CPU profile. */
class Instrumented {
  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(script: string, portVariable: string, extraEnv: Record<string, string>): Promise<Instrumented> {
    const port = await freePort();
    const child = fork(script, [], {
      env: { ...process.env, ...extraEnv, [portVariable]: String(port) },
      execArgv: ['--require', path.resolve(__dirname, 'instrument.js')],
      // Request logs (stdout) are written, as in production, and discarded; start-up and errors (stderr) show.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const started = new Instrumented(child, port);
    await waitForHealth(`${started.url}/health`);
    return started;
  }

  private ask<T>(message: object, answer: string): Promise<T> {
    return new Promise((resolve) => {
      const listener = (reply: { bench?: string }) => {
        if (reply?.bench !== answer) return;
        this.child.off('message', listener);
        resolve(reply as T);
      };
      this.child.on('message', listener);
      this.child.send(message);
    });
  }

  stats(): Promise<{ requests: number; queries: number; rss: number }> {
    return this.ask({ bench: 'stats' }, 'stats');
  }

  async startProfile(): Promise<void> {
    await this.ask({ bench: 'profile:start' }, 'profile:started');
  }

  async stopProfile(file: string): Promise<void> {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await this.ask({ bench: 'profile:stop', file }, 'profile:stopped');
  }

  /** The most RSS seen, sampled every 500 ms until stop(). */
  sampleRss(): { stop: () => number } {
    let most = 0;
    const timer = setInterval(() => void this.stats().then((s) => (most = Math.max(most, s.rss))), 500);
    return {
      stop: () => {
        clearInterval(timer);
        return most;
      },
    };
  }

  /** Queries sent to PostgreSQL per request (those of the request itself, not the background workers'), over `count` requests. */
  async roundTrips(count: number, request: () => Promise<Response>): Promise<number> {
    await this.ask({ bench: 'count:on' }, 'counting');
    const before = await this.stats();
    for (let i = 0; i < count; i++) {
      const response = await request();
      if (!response.ok) throw new Error(`round-trip count: ${response.status} ${await response.text()}`);
    }
    const after = await this.stats();
    await this.ask({ bench: 'count:off' }, 'counting');
    return (after.queries - before.queries) / (after.requests - before.requests);
  }
}

/** Payment links for operation 24, created through the API (one per request: a link pays once). */
async function createLinks(
  apiUrl: string,
  seeded: Seeded,
  post: (body: object) => { body: string; headers: Record<string, string> },
  count: number,
): Promise<string[]> {
  const sign = (payload: string) => crypto.createHmac('sha256', seeded.apiSecret).update(payload).digest('hex');
  const relationships = (await (
    await fetch(`${apiUrl}/merchant-country-processor?merchantId=${seeded.merchantId}`, {
      headers: { 'api-key': seeded.apiKey, signature: sign('{}') },
    })
  ).json()) as { merchantCountryProcessorId: string; countryProcessor: { paymentMethod: { paymentMethodName: string } } }[];
  const visa = relationships.filter((r) => r.countryProcessor.paymentMethod.paymentMethodName === 'VISA');
  const link = post({
    amount: 1220,
    vatPercentage: 22,
    currency: 'UYU',
    merchantCountryProcessors: visa.map((r) => r.merchantCountryProcessorId),
    country: 'URY',
    description: 'Bench',
  });
  log(`creating ${count} links`);
  return inParallel(count, 10, async () => {
    const response = await fetch(`${apiUrl}/link`, { method: 'POST', ...link });
    if (!response.ok) throw new Error(`link: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { linkId: string }).linkId;
  });
}

/** Payment intents collected off-session through the sandbox, large enough for many small refunds each. */
async function paidIntents(
  apiUrl: string,
  seeded: Seeded,
  post: (body: object) => { body: string; headers: Record<string, string> },
  count: number,
): Promise<string[]> {
  const charge = post({
    currency: 'UYU',
    amount: 100000,
    payinType: 'DEFAULT',
    externalReference: 'bench-refunds',
    payerId: seeded.payerId,
    offSession: true,
    invoiceNumber: 1,
    country: 'URY',
    paymentInstrumentData: { paymentMethodName: 'OCA' },
    confirm: true,
  });
  log(`collecting ${count} payment intents to refund`);
  return inParallel(count, 10, async () => {
    const response = await fetch(`${apiUrl}/payment-intent`, { method: 'POST', ...charge });
    const body = (await response.json()) as { status: string; paymentIntent: { paymentIntentId: string } };
    if (!response.ok || body.status !== 'SUCCEEDED') throw new Error(`paid intent: ${response.status} ${JSON.stringify(body)}`);
    return body.paymentIntent.paymentIntentId;
  });
}

async function inParallel<T>(count: number, concurrency: number, task: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < count) {
        started += 1;
        results.push(await task());
      }
    }),
  );
  return results;
}

interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  duration?: number;
  amount?: number;
  /** A path per request (the url's origin stays). */
  pathOf?: () => string;
  /** Body and headers (and the path, when it changes) per request: a version 2 or 3 signature is accepted once. */
  requestOf?: () => { path?: string; body?: string; headers: Record<string, string> };
}

/**
 * Headers of a version-3 request (contract §29, RFC 9421 with HMAC-SHA256), as a client computes them: the benchmark's own
 * signer (synchronous, for autocannon's per-request setup), written from docs/integration.md.
 */
function signV3(credentials: { apiKey: string; apiSecret: string }, method: string, target: string, body?: string): Record<string, string> {
  const at = target.indexOf('?');
  const lines = [`"@method": ${method}`, `"@path": ${at < 0 ? target : target.slice(0, at)}`];
  const components = ['"@method"', '"@path"'];
  const headers: Record<string, string> = {};
  if (at >= 0) {
    lines.push(`"@query": ${target.slice(at)}`);
    components.push('"@query"');
  }
  if (body) {
    headers['content-digest'] = `sha-256=:${crypto.createHash('sha256').update(body).digest('base64')}:`;
    lines.push(`"content-digest": ${headers['content-digest']}`);
    components.push('"content-digest"');
  }
  const params = `(${components.join(' ')});created=${Math.floor(Date.now() / 1000)};nonce="${crypto.randomBytes(16).toString('base64url')}";keyid="${credentials.apiKey}";alg="hmac-sha256"`;
  lines.push(`"@signature-params": ${params}`);
  headers['signature-input'] = `pcs=${params}`;
  headers.signature = `pcs=:${crypto.createHmac('sha256', credentials.apiSecret).update(lines.join('\n')).digest('base64')}:`;
  return headers;
}

/** An OTLP/HTTP endpoint that takes every export (any encoding), counts its bytes' arrivals and drops them. */
async function discardingCollector(): Promise<{ url: string; received: () => string; close: () => Promise<void> }> {
  let exports = 0;
  let bytes = 0;
  const server = http.createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    received: () => `${exports} exports (${(bytes / 1024 / 1024).toFixed(1)} MiB)`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Refunds of 1.00 as clients send them: version 3 (the only version refunds take), a nonce each, to the path `pathOf` names. */
function refundsOf(
  credentials: { apiKey: string; apiSecret: string },
  pathOf: () => string,
): Omit<LoadOptions, 'url' | 'connections'> & { requestOf: () => { path: string; body: string; headers: Record<string, string> } } {
  const body = JSON.stringify({ requestedRefundAmount: 1 });
  return {
    method: 'POST',
    headers: {},
    requestOf: () => {
      const target = pathOf();
      return { path: target, body, headers: { 'content-type': 'application/json', ...signV3(credentials, 'POST', target, body) } };
    },
  };
}

async function load(options: LoadOptions): Promise<Figures & { total: number }> {
  const { pathOf, requestOf, ...rest } = options;
  const setupRequest = (request: autocannon.Request) => ({
    ...request,
    ...(pathOf ? { path: pathOf() } : {}),
    ...(requestOf ? requestOf() : {}),
  });
  const result = await autocannon({ ...rest, ...(pathOf || requestOf ? { requests: [{ setupRequest }] } : {}) });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { requests: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors, total: result.requests.total };
}

async function seed(url: string, masterKey: Buffer): Promise<Seeded> {
  const app = await NestFactory.createApplicationContext(OpsModule.forRoot(new RuntimeSettings(url, masterKey, 'http://localhost')), {
    logger: false,
  });
  try {
    const business = await app.get(BusinessService).create('Bench business');
    const merchant = await app
      .get(MerchantService)
      .create({ businessId: business.businessId, name: 'Bench merchant', countryIso3: 'URY', approve: true });
    const dataSource = app.get<DataSource>(getDataSourceToken());
    const [{ country_id: countryId }] = await dataSource.query(`SELECT country_id FROM country WHERE iso3 = 'URY'`);
    const payerId = crypto.randomUUID();
    await dataSource.query(
      `INSERT INTO payer (payer_id, business_id, merchant_id, first_name, last_name) VALUES ($1, $2, $3, 'Bench', 'Payer')`,
      [payerId, business.businessId, merchant.merchantId],
    );
    await dataSource.query(
      `INSERT INTO payment_intent (payment_intent_id, business_id, merchant_id, payer_id, country_id, origin, payin_type, status, currency, amount, tax_amount, vat_rate_bp, received_amount)
       SELECT gen_random_uuid(), $1, $2, $3, $4, 'API', 'DEFAULT', 'SUCCEEDED', 'UYU', 12200, 2200, 2200, 12200 FROM generate_series(1, 1000)`,
      [business.businessId, merchant.merchantId, payerId, countryId],
    );
    return {
      businessId: business.businessId,
      merchantId: merchant.merchantId,
      payerId,
      countryId: countryId as string,
      apiKey: merchant.apiKey,
      apiSecret: merchant.apiSecret,
    };
  } finally {
    await app.close();
  }
}

/** Grows the bench merchant's payins to `size` rows spread over the last year, then does what autovacuum would. */
async function growPayins(url: string, seeded: Seeded, size: number): Promise<void> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const [{ n: present }] = (
      await db.query<{ n: number }>('SELECT count(*)::int AS n FROM payin WHERE merchant_id = $1', [seeded.merchantId])
    ).rows;
    if (present >= size) return;
    log(`seeding payins up to ${size.toLocaleString('en-US')}`);
    const started = Date.now();
    const chunk = 100_000;
    for (let offset = present; offset < size; offset += chunk) {
      await db.query(
        `WITH intents AS (SELECT array_agg(payment_intent_id) AS ids FROM payment_intent WHERE merchant_id = $2)
         INSERT INTO payin (transaction_id, business_id, merchant_id, payment_intent_id, transaction_type, concept_code, status, currency,
                            amount, subtotal_amount, tax_amount, received_amount, merchant_name, person_first_name, person_last_name,
                            payment_intent_initiator, created_at, updated_at)
         SELECT gen_random_uuid(), $1, $2, intents.ids[1 + (i % 1000)], 'PAYIN', 'PAYIN',
                (ARRAY['PENDING','SCHEDULED','APPROVED','CANCELLED','REJECTED','EXPIRED'])[1 + (i % 6)],
                CASE WHEN i % 5 = 0 THEN 'USD' ELSE 'UYU' END,
                a, a - a * 22 / 122, a * 22 / 122, CASE WHEN i % 6 = 2 THEN a ELSE 0 END,
                'Bench merchant', 'Bench', 'Payer', 'PAYER', ts, ts
         FROM intents, generate_series($3::int, $4::int) AS i,
              LATERAL (SELECT (100 + (hashint4(i) & 2147483647) % 1000000)::bigint AS a, now() - ((hashint4(i * 7) & 2147483647) % 31536000) * interval '1 second' AS ts) v`,
        [seeded.businessId, seeded.merchantId, offset + 1, Math.min(offset + chunk, size)],
      );
    }
    // What autovacuum does after a bulk load: statistics, and the visibility map index-only scans rely on.
    await db.query('VACUUM ANALYZE payin');
    await db.query('VACUUM ANALYZE payment_intent');
    log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await db.end();
  }
}

/**
 * How fast the workers of one API process dispatch and deliver webhooks: a
 * local receiver (keep-alive, as Node's server is), an endpoint for
 * payment_intent.created, then BENCH_WEBHOOK_EVENTS (default 5,000) such
 * events recorded by the real EventRecorder (each with its dispatch job, as
 * a creation records them) in one transaction of this process, so the API's
 * workers find them all at once at the commit and the figure is theirs, not
 * the creation's. Measured from the commit to the last arrival.
 */
async function webhookDelivery(
  url: string,
  masterKey: Buffer,
  api: Instrumented,
  sign: (payload: string) => string,
  seeded: Seeded,
  notes: string[],
): Promise<{ events: number; deliveredPerSecond: number; firstToLastPerSecond: number; p50LatencyMs: number; p99LatencyMs: number }> {
  const events = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5000);
  const db = new Client({ connectionString: url });
  await db.connect();
  const arrivals: number[] = [];
  const seen = new Set<string>();
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      if (!seen.has(event.id)) {
        seen.add(event.id);
        arrivals.push(Date.now());
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const app = await NestFactory.createApplicationContext(
    BenchEventsModule.forRoot(new RuntimeSettings(url, masterKey, 'http://localhost')),
    {
      logger: false,
    },
  );
  try {
    // The earlier scenarios' events are dispatched first (no endpoint then: nothing to deliver).
    for (let i = 0; i < 600; i++) {
      const [{ n }] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM event WHERE dispatched_at IS NULL`)).rows;
      if (n === 0) break;
      if (i % 20 === 0) log(`waiting for ${n} earlier events to be dispatched`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const registration = JSON.stringify({
      url: `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hooks`,
      enabledEvents: ['payment_intent.created'],
    });
    // Webhook endpoints take version 3 only (contract §29: they decide where events go).
    const registered = await fetch(`${api.url}/webhook-endpoint`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signV3(seeded, 'POST', '/webhook-endpoint', registration) },
      body: registration,
    });
    if (!registered.ok) throw new Error(`could not register the bench endpoint: ${registered.status} ${await registered.text()}`);
    // One real intent's representation, as every delivery of the figure carries it (its size is a real payload's).
    const body = JSON.stringify({
      currency: 'UYU',
      amount: 100,
      payinType: 'DEFAULT',
      externalReference: 'bench-webhooks',
      payerId: seeded.payerId,
      offSession: false,
      invoiceNumber: 1,
      country: 'URY',
    });
    const created = await fetch(`${api.url}/payment-intent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': seeded.apiKey, signature: sign(body) },
      body,
    });
    if (!created.ok) throw new Error(`could not create the bench intent: ${created.status} ${await created.text()}`);
    const object = (await created.json()) as { paymentIntent: object };
    await new Promise((resolve) => setTimeout(resolve, 2000));
    arrivals.splice(0);
    seen.clear();
    log(`recording ${events} payment_intent.created events in one transaction`);
    const recorder = app.get(EventRecorder);
    const dataSource = app.get<DataSource>(getDataSourceToken());
    await inTransaction(dataSource, async (manager) => {
      for (let i = 0; i < events; i++) {
        await recorder.recordAll(transactionOf(manager), [
          {
            type: 'payment_intent.created',
            businessId: seeded.businessId,
            merchantId: seeded.merchantId,
            subjectId: crypto.randomUUID(),
            object: object.paymentIntent,
          },
        ]);
      }
    });
    const committed = Date.now();
    const until = committed + 600_000;
    // BENCH_PROFILE=1: the API process's CPU profile while it dispatches and delivers (what stands in the way of the rate).
    await profiled(api, 'webhook delivery', notes, async () => {
      while (arrivals.length < events && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    });
    if (arrivals.length < events) throw new Error(`only ${arrivals.length} of ${events} webhooks arrived`);
    const latencies = arrivals.map((at) => at - committed).sort((a, b) => a - b);
    const last = Math.max(...arrivals);
    const first = Math.min(...arrivals);
    return {
      events,
      deliveredPerSecond: events / ((last - committed) / 1000),
      firstToLastPerSecond: events / Math.max(0.001, (last - first) / 1000),
      p50LatencyMs: latencies[Math.floor(events * 0.5)],
      p99LatencyMs: latencies[Math.floor(events * 0.99)],
    };
  } finally {
    await app.close();
    await new Promise((resolve) => receiver.close(resolve));
    await db.end();
  }
}

/** What the webhook figure needs in this process: the real event recorder (and its job queue) over the bench database. */
@Module({})
class BenchEventsModule {
  static forRoot(settings: RuntimeSettings): DynamicModule {
    return {
      module: BenchEventsModule,
      imports: [RuntimeSettingsModule.forRoot(settings), DatabaseModule.forRoot({ url: settings.databaseUrl, poolSize: 2 }), EventsModule],
    };
  }
}

async function waitForHealth(url: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not become healthy`);
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});

function freshDatabase(serverUrl: string | undefined): Promise<{ url: string; cleanup: () => Promise<void> }> {
  return freshDatabaseLogged(serverUrl, log);
}
