import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import autocannon from 'autocannon';
import { BusinessService } from '@pcs/businesses';
import { loadDotEnv, loadEnvironment, RuntimeSettings } from '@pcs/config';
import { migrateDatabase, openEmbeddedPostgres, RunningDatabase } from '@pcs/database';
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

/**
 * `npm run bench`: a fresh database (a new one on DATABASE_URL's server, or
 * an embedded PostgreSQL), a million payins, the payins API and a bare
 * node:http + pg endpoint as separate processes, and autocannon against both.
 * Prints figures; asserts nothing. BENCH_SECONDS (default 15) per run,
 * BENCH_PAYINS (default 1,000,000).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const PAYINS = Number(process.env.BENCH_PAYINS ?? 1_000_000);
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function main(): Promise<void> {
  loadDotEnv();
  const env = loadEnvironment();
  const { url, cleanup } = await freshDatabase(env.DATABASE_URL);
  const children: ChildProcess[] = [];
  try {
    await migrateDatabase(url, log);
    const masterKey = crypto.randomBytes(32);
    const seeded = await seed(url, masterKey);

    const apiPort = await freePort();
    children.push(
      await startProcess(path.resolve(__dirname, '../../../payins-api/src/main.js'), {
        DATABASE_URL: url,
        SECRETS_MASTER_KEY: masterKey.toString('base64'),
        PAYINS_API_PORT: String(apiPort),
        LOG_LEVEL: 'warn',
        DATABASE_POOL_SIZE: process.env.BENCH_API_POOL_SIZE ?? '20',
        // The webhook figure's receiver listens on loopback.
        WEBHOOKS_ALLOW_LOCALHOST: 'true',
        // Required with DATABASE_URL; nothing the benchmark does sends mail.
        SMTP_URL: 'smtp://127.0.0.1:2525',
      }),
    );
    await waitForHealth(`http://127.0.0.1:${apiPort}/health`);

    const body = JSON.stringify({
      currency: 'UYU',
      amount: 1220,
      payinType: 'DEFAULT',
      externalReference: 'bench',
      payerId: seeded.payerId,
      offSession: false,
      invoiceNumber: 1,
      country: 'URY',
    });
    const sign = (payload: string) => crypto.createHmac('sha256', seeded.apiSecret).update(payload).digest('hex');
    const postHeaders = { 'content-type': 'application/json', 'api-key': seeded.apiKey, signature: sign(body) };

    await load(`http://127.0.0.1:${apiPort}/payment-intent`, 'POST', postHeaders, body, 10, 3); // warm-up
    const create = await load(`http://127.0.0.1:${apiPort}/payment-intent`, 'POST', postHeaders, body, 50, SECONDS);

    const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const until = new Date().toISOString().slice(0, 10);
    const listPath = `/payin?status=APPROVED&currency=UYU&dateFrom=${from}&dateUntil=${until}&minAmount=100&limit=20`;
    const getHeaders = { 'api-key': seeded.apiKey, signature: sign('{}') };
    const amountPath = '/payin?currency=USD&minAmount=5000&sort=AMOUNT&order=DESC&limit=20';
    await load(`http://127.0.0.1:${apiPort}${listPath}`, 'GET', getHeaders, undefined, 2, 3); // warm-up
    const listOne = await load(`http://127.0.0.1:${apiPort}${listPath}`, 'GET', getHeaders, undefined, 1, SECONDS);
    const list = await load(`http://127.0.0.1:${apiPort}${listPath}`, 'GET', getHeaders, undefined, 10, SECONDS);
    const listAmountOne = await load(`http://127.0.0.1:${apiPort}${amountPath}`, 'GET', getHeaders, undefined, 1, SECONDS);
    const listAmount = await load(`http://127.0.0.1:${apiPort}${amountPath}`, 'GET', getHeaders, undefined, 10, SECONDS);

    const webhooks = await webhookDelivery(url, apiPort, sign, seeded);

    const barePort = await freePort();
    children.push(
      await startProcess(
        path.resolve(__dirname, 'bare-endpoint.js'),
        {
          BENCH_DATABASE_URL: url,
          BENCH_SECRET: seeded.apiSecret,
          BENCH_PORT: String(barePort),
          BENCH_POOL_SIZE: '10',
          BENCH_CONTEXT: JSON.stringify(seeded),
        },
        true,
      ),
    );
    await load(`http://127.0.0.1:${barePort}/`, 'POST', postHeaders, body, 10, 3);
    const bare = await load(`http://127.0.0.1:${barePort}/`, 'POST', postHeaders, body, 50, SECONDS);

    const ratio = create.requests / bare.requests;
    const rows = [
      ['signed POST /payment-intent, 50 connections', create],
      ['bare node:http + pg, HMAC + insert, 50 connections', bare],
      [`GET ${listPath.split('&limit')[0]}, 1 connection`, listOne],
      [`GET ${listPath.split('&limit')[0]}, 10 connections`, list],
      [`GET ${amountPath.split('&limit')[0]}, 1 connection`, listAmountOne],
      [`GET ${amountPath.split('&limit')[0]}, 10 connections`, listAmount],
    ] as const;
    process.stdout.write(`\nBenchmark on ${os.cpus().length} cores, ${PAYINS.toLocaleString('en-US')} payins, ${SECONDS} s per run\n\n`);
    process.stdout.write('| what | requests/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|\n');
    for (const [name, r] of rows) process.stdout.write(`| ${name} | ${r.requests.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} |\n`);
    process.stdout.write(
      `\npayment intent creation at ${(ratio * 100).toFixed(0)}% of the bare ceiling (target: at least 50%, p99 under 50 ms)\n`,
    );
    process.stdout.write(
      `webhooks: ${webhooks.events} payment_intent.created events delivered to a local receiver at ${webhooks.deliveredPerSecond.toFixed(0)} events/s ` +
        `(first to last delivery; ${webhooks.endToEndPerSecond.toFixed(0)} events/s from the first creation to the last delivery, ` +
        `p50 ${webhooks.p50LatencyMs} ms / p99 ${webhooks.p99LatencyMs} ms from an event's creation to its arrival)\n`,
    );
    process.stdout.write(
      `payins listing p99 at ${PAYINS.toLocaleString('en-US')} rows: ${listOne.p99} / ${listAmountOne.p99} ms with 1 connection, ${list.p99} / ${listAmount.p99} ms with 10 (target: under 30 ms)\n`,
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((resolve) => (c.exitCode !== null ? resolve(null) : c.once('exit', resolve)))));
    await cleanup();
  }
}

/**
 * How fast the workers of one API process deliver webhooks: a local receiver,
 * an endpoint for payment_intent.created, BENCH_WEBHOOK_EVENTS (default 2,000)
 * creations through the API, and the time until the last one arrived.
 */
async function webhookDelivery(
  url: string,
  apiPort: number,
  sign: (payload: string) => string,
  seeded: { payerId: string; apiKey: string },
): Promise<{ events: number; deliveredPerSecond: number; endToEndPerSecond: number; p50LatencyMs: number; p99LatencyMs: number }> {
  const events = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
  const db = new Client({ connectionString: url });
  await db.connect();
  const latencies: number[] = [];
  let first = 0;
  let last = 0;
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { createdAt: string };
      const now = Date.now();
      first ||= now;
      last = now;
      latencies.push(now - new Date(event.createdAt).getTime());
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    // The creation benchmark's events are dispatched first (no endpoint then: nothing to deliver).
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
    const registered = await fetch(`http://127.0.0.1:${apiPort}/webhook-endpoint`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': seeded.apiKey, signature: sign(registration) },
      body: registration,
    });
    if (!registered.ok) throw new Error(`could not register the bench endpoint: ${registered.status} ${await registered.text()}`);
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
    log(`creating ${events} payment intents for the webhook figure`);
    const started = Date.now();
    await autocannon({
      url: `http://127.0.0.1:${apiPort}/payment-intent`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': seeded.apiKey, signature: sign(body) },
      body,
      connections: 10,
      amount: events,
    });
    const until = Date.now() + 600_000;
    while (latencies.length < events && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    if (latencies.length < events) throw new Error(`only ${latencies.length} of ${events} webhooks arrived`);
    latencies.sort((a, b) => a - b);
    return {
      events,
      deliveredPerSecond: events / Math.max(0.001, (last - first) / 1000),
      endToEndPerSecond: events / ((last - started) / 1000),
      p50LatencyMs: latencies[Math.floor(events * 0.5)],
      p99LatencyMs: latencies[Math.floor(events * 0.99)],
    };
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
    await db.end();
  }
}

interface Figures {
  requests: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(
  url: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body: string | undefined,
  connections: number,
  duration: number,
): Promise<Figures> {
  const result = await autocannon({ url, method, headers, body, connections, duration });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { requests: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

async function seed(url: string, masterKey: Buffer) {
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
    log(`seeding ${PAYINS.toLocaleString('en-US')} payins`);
    const started = Date.now();
    await dataSource.query(
      `INSERT INTO payment_intent (payment_intent_id, business_id, merchant_id, payer_id, country_id, origin, payin_type, status, currency, amount, tax_amount, vat_rate_bp, received_amount)
       SELECT gen_random_uuid(), $1, $2, $3, $4, 'API', 'DEFAULT', 'SUCCEEDED', 'UYU', 12200, 2200, 2200, 12200 FROM generate_series(1, 1000)`,
      [business.businessId, merchant.merchantId, payerId, countryId],
    );
    const chunk = 100_000;
    for (let offset = 0; offset < PAYINS; offset += chunk) {
      await dataSource.query(
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
        [business.businessId, merchant.merchantId, offset + 1, Math.min(offset + chunk, PAYINS)],
      );
    }
    // What autovacuum does after a bulk load: statistics, and the visibility map index-only scans rely on.
    await dataSource.query('VACUUM ANALYZE payin');
    await dataSource.query('VACUUM ANALYZE payment_intent');
    log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
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

async function freshDatabase(serverUrl: string | undefined): Promise<{ url: string; cleanup: () => Promise<void> }> {
  let embedded: RunningDatabase | null = null;
  let dataDir: string | null = null;
  if (!serverUrl) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-bench-'));
    fs.chmodSync(dataDir, 0o755);
    embedded = await openEmbeddedPostgres(dataDir, log);
    serverUrl = embedded.url;
  }
  const name = `pcs_bench_${Date.now()}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  log(`database ${name}${embedded ? ' on an embedded PostgreSQL' : " on DATABASE_URL's server"}`);
  return {
    url: url.toString(),
    cleanup: async () => {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      if (embedded) await embedded.stop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function startProcess(script: string, extraEnv: Record<string, string>, waitForReady = false): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { env: { ...process.env, ...extraEnv }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('error', reject);
    if (!waitForReady) return resolve(child);
    child.once('message', () => resolve(child));
  });
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
