import { ChildProcess, spawn } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import request from 'supertest';
import { freePort } from './payins-app';
import { Testbed, testbed } from './testbed';
import { WebhookReceiver } from './webhook-receiver';

/** A TCP forwarder to PostgreSQL that a test can cut (every connection dropped, new ones refused) and restore on the same port. */
class DatabaseProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  private constructor(
    private readonly host: string,
    private readonly upstreamPort: number,
  ) {}

  static async start(host: string, upstreamPort: number): Promise<DatabaseProxy> {
    const proxy = new DatabaseProxy(host, upstreamPort);
    await proxy.listen(0);
    return proxy;
  }

  private listen(port: number): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.upstreamPort, this.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    return new Promise((resolve) =>
      this.server!.listen(port, '127.0.0.1', () => {
        this.port = (this.server!.address() as AddressInfo).port;
        resolve();
      }),
    );
  }

  cut(): void {
    this.server?.close();
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): Promise<void> {
    return this.listen(this.port);
  }

  async stop(): Promise<void> {
    this.cut();
  }
}

/** One sample of the Prometheus text: its value, or 0 when the series does not exist yet. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const labelText = line.slice(name.length + 1, line.indexOf('}'));
    if (wanted.every((pair) => labelText.split(',').includes(pair))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

/**
 * What an operator sees (issue 13): Prometheus metrics at /metrics, readiness
 * at /health (@nestjs/terminus), and the request id on every answer and log line.
 */
describe('observability', () => {
  let bed: Testbed;
  let receiver: WebhookReceiver;
  const metrics = async () => {
    const scraped = await request(bed.app.getHttpServer()).get('/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    return scraped.text;
  };

  beforeAll(async () => {
    bed = await testbed({
      reachable: true,
      payer: { firstName: 'Ana', lastName: 'Metrics' },
      webhooks: { retryScheduleSeconds: [1, 1], timeoutMs: 1500 },
    });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await bed.close();
    await receiver.stop();
  });

  it('counts requests by route template and status, never by id or tenant', async () => {
    const before = await metrics();
    const route = { method: 'GET', route: '/payer/:payerId', status_code: '200' };
    expect((await bed.merchant.get(`/payer/${bed.payerId}`)).status).toBe(200);
    expect((await bed.merchant.get(`/payer/${bed.payerId}`)).status).toBe(200);
    expect((await bed.merchant.get('/payer/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const after = await metrics();
    expect(sample(after, 'http_request_duration_seconds_count', route) - sample(before, 'http_request_duration_seconds_count', route)).toBe(
      2,
    );
    expect(sample(after, 'http_request_duration_seconds_count', { ...route, status_code: '404' })).toBeGreaterThanOrEqual(1);
    // Nothing of the tenant reaches the metrics: not its ids, not its names.
    for (const secret of [bed.payerId, bed.tenant.business.businessId, bed.tenant.merchants[0].merchantId, bed.tenant.business.name]) {
      expect(after).not.toContain(secret);
    }
  });

  it('counts a payment outcome, a refund, the webhook delivery and shows the queues', async () => {
    const endpoint = await bed.merchant.post('/webhook-endpoint', { url: receiver.url, enabledEvents: ['payment_intent.succeeded'] });
    expect(endpoint.status).toBe(200);
    const before = await metrics();

    const created = await bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount: 100,
      payinType: 'DEFAULT',
      externalReference: 'metrics-1',
      invoiceNumber: 1,
      payerId: bed.payerId,
      offSession: false,
      country: 'URY',
    });
    expect(created.body).toMatchObject({ status: 'REQUIRES_PAYMENT_INSTRUMENT' });
    const paymentIntentId = created.body.paymentIntent.paymentIntentId as string;
    const methods = await bed.merchant.get(`/payment-intent/${paymentIntentId}/payment-methods`);
    const visa = (
      methods.body.paymentIntentAvailablePaymentMethods as { countryProcessorId: string; paymentMethod: { paymentMethodName: string } }[]
    ).find((method) => method.paymentMethod.paymentMethodName === 'VISA')!;
    const initialized = await bed.merchant.post(`/payment-intent/${paymentIntentId}/initialize`, {
      countryProcessorId: visa.countryProcessorId,
    });
    const approved = await fetch(initialized.body.gatewayUrl as string, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=approve',
    });
    expect(approved.status).toBe(200);
    expect((await bed.merchant.post(`/payment-intent/${paymentIntentId}/refund`, { requestedRefundAmount: 40 })).status).toBe(200);
    await receiver.waitFor((received) => received.length > 0);
    // The delivery is counted once its attempt is written, just after the receiver answered.
    let after = await metrics();
    for (
      let i = 0;
      i < 50 &&
      sample(after, 'pcs_webhook_deliveries_total', { result: 'delivered' }) ===
        sample(before, 'pcs_webhook_deliveries_total', { result: 'delivered' });
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await metrics();
    }

    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('pcs_payment_outcomes_total', { outcome: 'succeeded' })).toBe(1);
    expect(delta('pcs_refunds_total', { outcome: 'created' })).toBe(1);
    expect(delta('pcs_webhook_deliveries_total', { result: 'delivered' })).toBe(1);
    expect(after).toMatch(/^pcs_queue_jobs\{queue="[^"]+",state="waiting"\} \d+$/m);
    expect(after).toMatch(/^process_resident_memory_bytes \d+/m);
    await bed.merchant.delete(`/webhook-endpoint/${endpoint.body.webhookEndpointId}`);
  });

  it('answers readiness with the database state (terminus)', async () => {
    const ready = await request(bed.app.getHttpServer()).get('/health');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', info: { database: { status: 'up' } }, error: {}, details: { database: { status: 'up' } } });
  });

  it('gives every answer a request id, refusals of unreadable bodies included, and keeps a sane one the caller sent', async () => {
    const malformed = await request(bed.app.getHttpServer()).post('/payer').set('content-type', 'application/json').send('{bad');
    expect(malformed.status).toBe(400);
    expect(malformed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await bed.merchant.get('/payer').set('x-request-id', 'trace-42');
    expect(given.headers['x-request-id']).toBe('trace-42');
    const hostile = await bed.merchant.get('/payer').set('x-request-id', 'a b\tc');
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/**
 * The built API as it runs in production (JSON logs on a pipe): every line
 * names its app, each request's line carries the id its answer has, and
 * readiness turns 503 when the database goes away.
 */
describe('logs and readiness of the running process', () => {
  const metricsToken = `mt-${crypto.randomBytes(24).toString('hex')}`;
  let child: ChildProcess;
  let port: number;
  let proxy: DatabaseProxy;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    port = await freePort();
    const database = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await DatabaseProxy.start(database.hostname, Number(database.port || 5432));
    database.host = `127.0.0.1:${proxy.port}`;
    child = spawn(process.execPath, [path.join(__dirname, '..', 'dist', 'apps', 'payins-api', 'src', 'main.js')], {
      env: {
        ...process.env,
        // Through a proxy this test can cut, as a network partition would.
        DATABASE_URL: database.toString(),
        SECRETS_MASTER_KEY: process.env.TEST_SECRETS_MASTER_KEY,
        // Nothing is mailed here; a port where no server listens is enough.
        SMTP_URL: 'smtp://127.0.0.1:9',
        PAYINS_API_PORT: String(port),
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'auto',
        METRICS_TOKEN: metricsToken,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    createInterface({ input: child.stdout! }).on('line', (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
    for (let i = 0; i < 300; i++) {
      if (
        await fetch(`http://127.0.0.1:${port}/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the payins API did not start: ${stderr}`);
  }, 60_000);
  afterAll(async () => {
    child.kill('SIGKILL');
    await proxy.stop();
  });

  it('answers /metrics only to the bearer of METRICS_TOKEN (contract §27), and never logs the token', async () => {
    const scrape = (authorization?: string) =>
      fetch(`http://127.0.0.1:${port}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
    for (const authorization of [
      undefined,
      'Bearer ',
      `Bearer ${metricsToken}x`,
      metricsToken,
      `Basic ${metricsToken}`,
      `Bearer ${'é'.repeat(metricsToken.length)}`,
    ]) {
      const refused = await scrape(authorization);
      expect([authorization, refused.status]).toEqual([authorization, 401]);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(((await refused.json()) as { errorId: string }).errorId).toBe('Auth:UNAUTHORIZED');
    }
    const scraped = await scrape(`Bearer ${metricsToken}`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('http_request_duration_seconds');
    // /health stays open to the orchestrator's probe.
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(JSON.stringify(lines)).not.toContain(metricsToken);
  });

  it("writes JSON lines on a pipe, each with its app, the request line with the answer's request id, and no start-up route table", async () => {
    const signature = 'f'.repeat(64);
    const answer = await fetch(`http://127.0.0.1:${port}/payer`, { headers: { 'api-key': 'pk_unknown', signature } });
    expect(answer.status).toBe(401);
    const id = answer.headers.get('x-request-id');
    for (let i = 0; i < 50 && !lines.some((line) => (line.req as { id?: string } | undefined)?.id === id); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const requestLine = lines.find((line) => (line.req as { id?: string } | undefined)?.id === id);
    expect(requestLine).toMatchObject({
      app: 'payins-api',
      msg: 'request completed',
      req: { method: 'GET', path: '/payer' },
      res: { statusCode: 401 },
      // Why it was refused (contract §17), never with the key or the signature.
      refusal: 'signature',
    });
    expect(lines.every((line) => line.app === 'payins-api')).toBe(true);
    expect(lines.filter((line) => line.context === 'RouterExplorer')).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('pk_unknown');
    expect(JSON.stringify(lines)).not.toContain(signature);
  });

  it('is not ready (503) while its database is unreachable, and ready again when it returns', async () => {
    proxy.cut();
    const down = await fetch(`http://127.0.0.1:${port}/health`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: 'error', error: { database: { status: 'down' } } });
    await proxy.restore();
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await fetch(`http://127.0.0.1:${port}/health`)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  });
});
