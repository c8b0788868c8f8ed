import { MercadoPagoStandIn, signV3, TestTenant } from '@pcs/testing';
import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { freePort } from './payins-app';
import { Inbox } from './smtp-inbox';
import { Testbed, testbed } from './testbed';
import { WebhookReceiver } from './webhook-receiver';

const MAIN = path.join(__dirname, '..', 'dist', 'apps', 'payins-api', 'src', 'main.js');
const RECONCILE_AFTER_SECONDS = 2;
const LEASE_SECONDS = 3;

/** The built payins API (`npm test` builds first) as its own process on this run's database. */
async function startProcess(port: number, smtpPort = 2525, extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SECRETS_MASTER_KEY: process.env.TEST_SECRETS_MASTER_KEY,
      PAYINS_API_PORT: String(port),
      LOG_LEVEL: 'silent',
      RECONCILE_AFTER_SECONDS: String(RECONCILE_AFTER_SECONDS),
      IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
      SWEEP_SECONDS: '1',
      SANDBOX_SETTLE_SECONDS: '2',
      DATABASE_POOL_SIZE: '10',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`the payins API exited: ${stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the payins API did not start: ${stderr}`);
}

/** An API answer, read loosely as a client reads JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: number; body: Record<string, any> };

interface SentRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly key: string;
  readonly externalReference?: string;
}

async function send(port: number, credentials: { apiKey: string; apiSecret: string }, sent: SentRequest): Promise<Answer> {
  const payload = JSON.stringify(sent.body);
  const response = await fetch(`http://127.0.0.1:${port}${sent.path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      // Version 3 (contract §29: refunds take nothing else); a retry is signed again, with a nonce of its own.
      ...signV3(credentials, 'POST', sent.path, payload),
      'Idempotency-Key': sent.key,
    },
    body: payload,
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

/**
 * kill -9 of the payins API while charges and refunds are in flight, then a
 * restart on the same database: every acknowledged payment intent is there,
 * every charge and refund reaches a final state within the reconciliation
 * window, and every interrupted request, retried with its Idempotency-Key,
 * finishes without doing its work twice.
 */
describe('crash recovery: SIGKILL under load and a restart', () => {
  let dataSource: DataSource;
  let tenant: TestTenant;
  let child: ChildProcess | undefined;

  let bed: Testbed;

  beforeAll(async () => {
    bed = await testbed({ name: 'Crash business' });
    ({ dataSource, tenant } = bed);
  });
  // Each test ends with its process gone, so that no earlier process (its
  // workers included) takes part in a later test on the same database.
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    child = undefined;
  });
  afterAll(async () => {
    await bed.close();
  });

  it('loses nothing acknowledged, settles everything in flight, and lets every interrupted request finish', async () => {
    const credentials = tenant.merchants[0];
    let port = await freePort();
    child = await startProcess(port);

    // Setup through the first process: a payer with a card, and intents already paid (to refund).
    const setup = async (sent: SentRequest) => {
      const response = await send(port, credentials, sent);
      expect(response.status).toBe(200);
      return response.body;
    };
    const payer = await setup({ path: '/payer', body: { firstName: 'Crash', lastName: 'Test' }, key: 'setup-payer' });
    const instrument = await setup({
      path: '/payment-instrument',
      body: { payerId: payer.payerId, paymentMethodName: 'VISA', country: 'URY' },
      key: 'setup-instrument',
    });
    const charge = (reference: string, amount: number) => ({
      currency: 'UYU',
      amount,
      payinType: 'DEFAULT',
      externalReference: reference,
      payerId: payer.payerId,
      offSession: true,
      invoiceNumber: 1,
      country: 'URY',
      paymentInstrumentId: instrument.paymentInstrumentId,
      confirm: true,
    });
    const paid: string[] = [];
    for (let i = 0; i < 6; i++)
      paid.push(
        (await setup({ path: '/payment-intent', body: charge(`paid-${i}`, 300), key: `setup-paid-${i}` })).paymentIntent.paymentIntentId,
      );

    // The load: off-session charges (approved, rejected by amount, settling later) and partial refunds.
    const load: SentRequest[] = [];
    for (let i = 0; i < 48; i++) {
      const amount = [120, 130.13, 140.14, 150][i % 4];
      load.push({ path: '/payment-intent', body: charge(`crash-${i}`, amount), key: `crash-create-${i}`, externalReference: `crash-${i}` });
      if (i % 2 === 0)
        load.push({
          path: `/payment-intent/${paid[i % paid.length]}/refund`,
          body: { requestedRefundAmount: 10 },
          key: `crash-refund-${i}`,
        });
    }
    const acknowledged = new Map<string, Answer>();
    let next = 0;
    const killAfter = Math.floor(load.length * 0.4);
    let killed = false;
    const worker = async () => {
      while (next < load.length && !killed) {
        const sent = load[next++];
        try {
          const response = await send(port, credentials, sent);
          acknowledged.set(sent.key, response);
          if (acknowledged.size >= killAfter && !killed) {
            killed = true;
            child!.kill('SIGKILL');
          }
        } catch {
          // The process died under this request: it was never acknowledged.
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    await new Promise((resolve) => (child!.exitCode !== null || child!.signalCode !== null ? resolve(null) : child!.once('exit', resolve)));
    expect(killed).toBe(true);
    expect(acknowledged.size).toBeGreaterThanOrEqual(killAfter);
    expect(acknowledged.size).toBeLessThan(load.length);
    for (const response of acknowledged.values()) expect(response.status).toBe(200);

    // Restart on the same database.
    port = await freePort();
    child = await startProcess(port);

    // Every acknowledged intent is there.
    for (const sent of load) {
      const response = acknowledged.get(sent.key);
      if (!response || !sent.externalReference) continue;
      const [row] = await dataSource.query(`SELECT external_reference FROM payment_intent WHERE payment_intent_id = $1`, [
        response.body.paymentIntent.paymentIntentId,
      ]);
      expect(row?.external_reference).toBe(sent.externalReference);
    }

    // Every charge and refund reaches a final state within the reconciliation window (and a few sweeps).
    const open = async (): Promise<number> => {
      const [{ count }] = await dataSource.query(
        `SELECT count(*)::int AS count FROM payin WHERE business_id = $1 AND status IN ('PENDING', 'SCHEDULED') AND (concept_code = 'REFUND' OR payment_intent_initiator = 'MERCHANT')`,
        [tenant.business.businessId],
      );
      return count;
    };
    const openAtRestart = await open();
    process.stderr.write(
      `[crash] ${acknowledged.size} of ${load.length} requests acknowledged before SIGKILL, ${next - acknowledged.size} cut off in flight; ${openAtRestart} charge(s) or refund(s) open at restart\n`,
    );
    const deadline = Date.now() + 30_000;
    while ((await open()) > 0 && Date.now() < deadline) await sleep(250);
    expect(await open()).toBe(0);
    const [{ processing }] = await dataSource.query(
      `SELECT count(*)::int AS processing FROM payment_intent WHERE business_id = $1 AND status = 'PROCESSING'`,
      [tenant.business.businessId],
    );
    expect(processing).toBe(0);

    // Every request retried with its key and body finishes (the leases of the dead requests have run out by now).
    await sleep(LEASE_SECONDS * 1000);
    for (const sent of load) {
      const retried = await send(port, credentials, sent);
      const first = acknowledged.get(sent.key);
      if (sent.externalReference) {
        expect({ key: sent.key, status: retried.status, body: retried.status === 200 ? 'ok' : retried.body }).toEqual({
          key: sent.key,
          status: 200,
          body: 'ok',
        });
        // An acknowledged request replays its first answer; an interrupted one answers with where its payment ended.
        // (A charge of an amount ending in 14 is one the sandbox settles later: PROCESSING is its honest answer.)
        const settlesLater = sent.body.amount === 140.14;
        if (!first)
          expect(['SUCCEEDED', 'REQUIRES_PAYMENT_INSTRUMENT', ...(settlesLater ? ['PROCESSING'] : [])]).toContain(
            retried.body.paymentIntent.paymentIntentStatus,
          );
        if (first) expect(retried.body).toEqual(first.body);
      } else {
        // A refund either went through or is refused by the rules (nothing left to refund), never left hanging.
        expect([200, 400]).toContain(retried.status);
        if (first) expect(retried.status).toBe(first.status);
      }
    }

    // Nothing was done twice: one intent per creation request, refunds within what was collected.
    const perReference: { external_reference: string; count: number }[] = await dataSource.query(
      `SELECT external_reference, count(*)::int AS count FROM payment_intent WHERE business_id = $1 AND external_reference LIKE 'crash-%' GROUP BY external_reference`,
      [tenant.business.businessId],
    );
    expect(perReference).toHaveLength(48);
    expect(perReference.every((r) => r.count === 1)).toBe(true);
    const refunds: { payment_intent_id: string; refunded: string; received: string; recorded: string }[] = await dataSource.query(
      `SELECT i.payment_intent_id, i.refunded_amount AS refunded, i.received_amount AS received,
              (SELECT coalesce(sum(amount), 0) FROM payin r WHERE r.payment_intent_id = i.payment_intent_id AND r.transaction_type = 'REFUND' AND r.status <> 'REJECTED') AS recorded
       FROM payment_intent i WHERE i.payment_intent_id = ANY($1)`,
      [paid],
    );
    for (const r of refunds) {
      expect(Number(r.refunded)).toBe(Number(r.recorded));
      expect(Number(r.refunded)).toBeLessThanOrEqual(Number(r.received));
    }
    const [{ count: refundRecords }] = await dataSource.query(
      `SELECT count(*)::int AS count FROM payin WHERE business_id = $1 AND transaction_type = 'REFUND' AND status = 'APPROVED'`,
      [tenant.business.businessId],
    );
    // Each of the 24 refund requests approved at most once (1,000 minor units each, 30,000 collected per intent).
    expect(refundRecords).toBeLessThanOrEqual(24);
  }, 180_000);

  it("keeps a shared link's email through a kill -9 while its SMTP server is down, and delivers it after the restart", async () => {
    const credentials = tenant.merchants[0];
    const smtpPort = await freePort();
    let port = await freePort();
    child = await startProcess(port, smtpPort); // nothing listens on smtpPort yet
    const processors = (await bed.business.get(`/merchant-country-processor?merchantId=${credentials.merchantId}`)).body as {
      merchantCountryProcessorId: string;
      countryProcessor: { paymentMethod: { paymentMethodName: string } };
    }[];
    const link = await bed.merchant.post('/link', {
      amount: 500,
      vatPercentage: 22,
      currency: 'UYU',
      country: 'URY',
      merchantCountryProcessors: processors
        .filter((r) => r.countryProcessor.paymentMethod.paymentMethodName === 'VISA')
        .map((r) => r.merchantCountryProcessorId),
    });
    expect(link.status).toBe(200);
    const shared = await send(port, credentials, {
      path: `/link/${link.body.linkId}/share`,
      body: { receiverEmail: 'crash@example.uy', receiverName: 'Carla' },
      key: 'share-crash',
    });
    expect(shared.status).toBe(200);
    const attempts = async () =>
      (await dataSource.query<{ attempts: number }[]>(`SELECT attempts FROM mail_message WHERE to_address = 'crash@example.uy'`))[0]
        ?.attempts ?? 0;
    for (let i = 0; i < 200 && (await attempts()) === 0; i++) await sleep(100);
    expect(await attempts()).toBeGreaterThan(0); // the worker tried and failed: the job now waits for its retry
    await sleep(500);
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));

    const inbox = new Inbox(smtpPort);
    await inbox.start();
    try {
      port = await freePort();
      child = await startProcess(port, smtpPort);
      const received = await inbox.waitFor(1, 60);
      expect(received.map((m) => m.text?.includes('Hola Carla:'))).toEqual([true]);
      expect(received[0].text).toContain(`/pay/${link.body.linkId}`);
      // Marked SENT just after the server took it.
      const status = async () =>
        (await dataSource.query<{ status: string }[]>(`SELECT status FROM mail_message WHERE to_address = 'crash@example.uy'`))[0].status;
      for (let i = 0; i < 50 && (await status()) !== 'SENT'; i++) await sleep(100);
      expect(await status()).toBe('SENT');
      expect(inbox.messages).toHaveLength(1);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));
      await inbox.stop();
    }
  });

  it('delivers the events of changes committed before a kill -9, once the API is back and the receiver is up', async () => {
    const credentials = tenant.merchants[0];
    const receiverPort = await freePort(); // nothing listens there until after the restart
    const webhooks = { WEBHOOKS_ALLOW_LOCALHOST: 'true', WEBHOOK_RETRY_SCHEDULE: '2s,2s,2s,2s,2s,2s,2s,2s,2s,2s' };
    let port = await freePort();
    child = await startProcess(port, undefined, webhooks);
    const endpoint = await bed.merchant.post('/webhook-endpoint', {
      url: `http://127.0.0.1:${receiverPort}/hooks`,
      enabledEvents: ['payment_intent.created'],
    });
    expect(endpoint.status).toBe(200);
    const payer = await bed.merchant.post('/payer', { firstName: 'Hugo', lastName: 'Crash' });
    expect(payer.status).toBe(200);
    const create = (reference: string) =>
      send(port, credentials, {
        path: '/payment-intent',
        body: {
          currency: 'UYU',
          amount: 300,
          payinType: 'DEFAULT',
          externalReference: reference,
          payerId: payer.body.payerId,
          offSession: false,
          invoiceNumber: 1,
          country: 'URY',
        },
        key: reference,
      });
    // One change whose delivery already failed once (the receiver is down) and waits for its retry...
    const first = await create('crash-hook-1');
    expect([first.status, first.body.errorId]).toEqual([200, undefined]);
    const attemptsOf = async (reference: string) =>
      (
        await dataSource.query<{ n: number }[]>(
          `SELECT count(a.*)::int AS n FROM event e JOIN webhook_delivery d ON d.event_id = e.event_id
             LEFT JOIN webhook_attempt a ON a.webhook_delivery_id = d.webhook_delivery_id
            WHERE e.payload LIKE '%' || $1 || '%'`,
          [reference],
        )
      )[0].n;
    for (let i = 0; i < 100 && (await attemptsOf('crash-hook-1')) === 0; i++) await sleep(100);
    expect(await attemptsOf('crash-hook-1')).toBeGreaterThan(0);
    // ...and one killed right after its commit was acknowledged, before anything was delivered.
    const second = await create('crash-hook-2');
    expect(second.status).toBe(200);
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));

    const receiver = await new WebhookReceiver().start(receiverPort);
    try {
      port = await freePort();
      child = await startProcess(port, undefined, webhooks);
      const received = await receiver.waitFor(
        (all) => ['crash-hook-1', 'crash-hook-2'].every((ref) => all.some((w) => w.event.data.object.externalReference === ref)),
        60,
      );
      const references = received.map((w) => w.event.data.object.externalReference);
      expect(references).toEqual(expect.arrayContaining(['crash-hook-1', 'crash-hook-2']));
      expect(received.every((w) => w.event.type === 'payment_intent.created')).toBe(true);
    } finally {
      await bed.merchant.delete(`/webhook-endpoint/${endpoint.body.webhookEndpointId}`);
      await receiver.stop();
    }
  });

  it('opens one Mercado Pago preference when the API is killed between creating it and answering, and the retry completes it', async () => {
    const credentials = tenant.merchants[0];
    const mp = await new MercadoPagoStandIn().account('TEST-crash-token-0000000000', 'crash-secret').start();
    try {
      const port = await freePort();
      // The same address before and after the restart: the preference's notification URL points there.
      const env = { MERCADOPAGO_API_URL: mp.url, MERCADOPAGO_TIMEOUT_SECONDS: '10', PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
      child = await startProcess(port, undefined, env);
      const account = `/merchant/${credentials.merchantId}/gateway-account/mercado-pago`;
      expect((await bed.merchant.put(account, { accessToken: 'TEST-crash-token-0000000000', webhookSecret: 'crash-secret' })).status).toBe(
        200,
      );
      const created = await bed.merchant.post('/payment-intent', {
        currency: 'UYU',
        amount: 640,
        payinType: 'DEFAULT',
        externalReference: 'crash-mp-1',
        payerId: (await bed.merchant.post('/payer', { firstName: 'Mara', lastName: 'Pago' })).body.payerId,
        offSession: false,
        invoiceNumber: 1,
        country: 'URY',
      });
      const intentId = created.body.paymentIntent.paymentIntentId as string;
      const methods = (await bed.merchant.get(`/payment-intent/${intentId}/payment-methods`)).body.paymentIntentAvailablePaymentMethods as {
        countryProcessorId: string;
        paymentMethod: { paymentMethodName: string };
      }[];
      const wallet = methods.find((m) => m.paymentMethod.paymentMethodName === 'MERCADO_PAGO')!;
      const initialize = {
        path: `/payment-intent/${intentId}/initialize`,
        body: { countryProcessorId: wallet.countryProcessorId },
        key: 'crash-mp-init',
      };

      // Mercado Pago creates the preference, but answers late: the API is killed while it waits.
      mp.faults.push({ method: 'POST', pathPrefix: '/checkout/preferences', answer: 'late', lateMs: 1500, times: 1 });
      const cut = send(port, credentials, initialize).catch(() => null);
      for (let i = 0; i < 100 && !mp.requests.some((r) => r.path === '/checkout/preferences'); i++) await sleep(20);
      child.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));
      expect(await cut).toBeNull();
      await sleep(1600); // the preference is made at Mercado Pago; nothing of it here
      expect(await dataSource.query(`SELECT 1 FROM payin WHERE payment_intent_id = $1`, [intentId])).toEqual([]);

      child = await startProcess(port, undefined, env);
      let retried = await send(port, credentials, initialize);
      for (let i = 0; i < 30 && retried.status === 409; i++) {
        await sleep(250); // the cut request's key is held until its lease ends
        retried = await send(port, credentials, initialize);
      }
      expect(retried.status).toBe(200);
      const sent = mp.requests.filter((r) => r.path === '/checkout/preferences');
      expect(sent).toHaveLength(2);
      expect(new Set(sent.map((r) => r.idempotencyKey)).size).toBe(1);
      const payins = await dataSource.query<{ external_id: string }[]>(`SELECT external_id FROM payin WHERE payment_intent_id = $1`, [
        intentId,
      ]);
      expect(payins).toEqual([{ external_id: retried.body.gatewayReferenceId }]);
      await mp.rejectOpen(); // nothing left open for later suites' reconciliation
      for (
        let i = 0;
        i < 50 && (await dataSource.query(`SELECT 1 FROM payin WHERE payment_intent_id = $1 AND status = 'PENDING'`, [intentId])).length;
        i++
      )
        await sleep(100);
      expect(await dataSource.query(`SELECT status FROM payin WHERE payment_intent_id = $1`, [intentId])).toEqual([{ status: 'REJECTED' }]);
      await bed.merchant.delete(account);
    } finally {
      await mp.stop();
    }
  });

  it('charges every due invoice once when the scheduler is killed mid-run and comes back (contract §31)', async () => {
    const credentials = tenant.merchants[0];
    const merchantId = credentials.merchantId;
    // The first process makes the subscriptions and runs no billing pass after its start.
    let port = await freePort();
    child = await startProcess(port, 2525, { SWEEP_SECONDS: '3600' });
    const setup = async (sent: SentRequest) => {
      const response = await send(port, credentials, sent);
      expect(response.status).toBe(200);
      return response.body;
    };
    const payer = await setup({ path: '/payer', body: { firstName: 'Billing', lastName: 'Crash' }, key: 'billing-payer' });
    const instrument = await setup({
      path: '/payment-instrument',
      body: { payerId: payer.payerId, paymentMethodName: 'VISA', country: 'URY' },
      key: 'billing-instrument',
    });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Montevideo' }).format(new Date());
    const count = 150;
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const made = await setup({
        path: '/subscription',
        body: {
          merchantId,
          payerId: payer.payerId,
          paymentInstrumentId: instrument.paymentInstrumentId,
          amount: 200 + n,
          currency: 'UYU',
          interval: 'DAY',
          intervalCount: 1,
          startDate: today,
          description: `Crash ${n}`,
        },
        key: `billing-subscription-${n}`,
      });
      ids.push(made.subscriptionId as string);
    }
    const paid = async () =>
      Number((await dataSource.query(`SELECT count(*) AS n FROM invoice WHERE subscription_id = ANY($1) AND status = 'PAID'`, [ids]))[0].n);
    expect(await paid()).toBe(0);
    child.kill('SIGKILL');

    // The second process's first pass starts charging them: it dies once some are paid.
    port = await freePort();
    child = await startProcess(port);
    let atKill = 0;
    for (let i = 0; i < 1000 && atKill === 0; i++) {
      atKill = await paid();
      if (atKill === 0) await sleep(10);
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    const afterKill = await paid();
    const [{ running }] = await dataSource.query(
      `SELECT count(*)::int AS running FROM invoice WHERE subscription_id = ANY($1) AND status = 'OPEN' AND charging`,
      [ids],
    );
    process.stdout.write(
      `[billing crash] killed with ${atKill} of ${count} invoices paid (${afterKill} once it was gone), ${running} charges left running\n`,
    );
    expect(afterKill).toBeLessThan(count);

    // A third process takes up the rest, the charges the second left running included (their leases run out).
    child = await startProcess(await freePort());
    for (let i = 0; i < 600 && (await paid()) < count; i++) await sleep(100);
    const invoices = await dataSource.query(
      `SELECT i.subscription_id, i.status, i.attempt_count, i.period_number,
              (SELECT count(*)::int FROM payment_intent p WHERE p.external_reference = i.invoice_id::text) AS intents,
              (SELECT count(*)::int FROM payin c JOIN payment_intent p ON p.payment_intent_id = c.payment_intent_id
                WHERE p.external_reference = i.invoice_id::text AND c.status = 'APPROVED') AS approved
         FROM invoice i WHERE i.subscription_id = ANY($1) AND i.period_number = 0`,
      [ids],
    );
    expect(invoices).toHaveLength(count);
    expect(new Set(invoices.map((i: Record<string, unknown>) => i.subscription_id)).size).toBe(count);
    // Each paid once. A charge the kill kept from the sandbox (its intent and attempt written, never sent) is found so by
    // reconciliation and charged again at once under the next charge's id, as no decline: one intent per try.
    for (const invoice of invoices) {
      expect([invoice.status, invoice.approved, invoice.intents]).toEqual(['PAID', 1, invoice.attempt_count]);
      expect(invoice.attempt_count).toBeLessThanOrEqual(2);
    }
    const resent = invoices.filter((i: Record<string, unknown>) => i.attempt_count === 2).length;
    process.stdout.write(`[billing crash] ${resent} charge(s) never sent before the kill, charged again\n`);
    const [{ declined }] = await dataSource.query(
      `SELECT count(*)::int AS declined FROM invoice WHERE subscription_id = ANY($1) AND last_decline IS NOT NULL`,
      [ids],
    );
    expect(declined).toBe(0);
  }, 120_000);
});
