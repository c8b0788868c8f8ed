import { DLocalStandIn, errorShape, eventually, MercadoPagoStandIn } from '@pcs/testing';
import * as crypto from 'node:crypto';
import request from 'supertest';
import { Testbed, testbed, URUGUAYAN_PAYER } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const LOGIN = 'dl-login-routing-0001';
const TRANS_KEY = 'dl-trans-key-routing-0001';
const SECRET_KEY = 'dl-secret-key-routing-0001';
const TOKEN = `TEST-${crypto.randomInt(1e9, 1e10)}-routing`;
const MP_SECRET = `mp-secret-${crypto.randomUUID()}`;
const OPEN_MS = 2500;

/**
 * Routing and failover across processors (contract §26), over signed HTTP against the dLocal and
 * Mercado Pago stand-ins (written from their documentation, switched down, slow, failing, or losing
 * an answer after doing the work): the rules and their precise refusals, the simulation, failover
 * at initialize (a new attempt in the same request; the earlier FAILED with PROCESSOR_UNAVAILABLE),
 * the lookup before anything else is tried after an answer that may have done the work, refusals
 * never retried elsewhere, the circuit breaker, and a load of concurrent payments while one
 * processor goes down: every payment completes, none is charged twice (counted at both stand-ins).
 */
describe('routing and failover across processors (contract §26)', () => {
  const dl = new DLocalStandIn().merchant(LOGIN, TRANS_KEY, SECRET_KEY);
  const mp = new MercadoPagoStandIn().account(TOKEN, MP_SECRET);
  let bed: Testbed;
  let merchantId: string;
  let configuration: string;

  beforeAll(async () => {
    await dl.start();
    await mp.start();
    bed = await testbed({
      merchants: 2,
      reachable: true,
      payer: URUGUAYAN_PAYER,
      gateway: {
        processorApis: { MERCADO_PAGO: { url: mp.url, timeoutMs: 1500 }, DLOCAL: { url: dl.url, timeoutMs: 1500 } },
        reconcileAfterSeconds: 600,
        breakerOpenMs: OPEN_MS,
      },
    });
    merchantId = bed.tenant.merchants[0].merchantId;
    configuration = `/merchant/${merchantId}/configuration`;
    const dlocal = await bed.business.put(`/merchant/${merchantId}/gateway-account/dlocal`, {
      xLogin: LOGIN,
      xTransKey: TRANS_KEY,
      secretKey: SECRET_KEY,
      paymentMethods: ['VISA'],
    });
    expect(dlocal.status).toBe(200);
    const mercadoPago = await bed.business.put(`/merchant/${merchantId}/gateway-account/mercado-pago`, {
      accessToken: TOKEN,
      webhookSecret: MP_SECRET,
      paymentMethods: ['MERCADO_PAGO'],
    });
    expect(mercadoPago.status).toBe(200);
  });
  afterAll(async () => {
    await dl.comeBack();
    dl.availability = { state: 'up' };
    mp.availability = { state: 'up' };
    await dl.rejectOpen();
    await mp.rejectOpen();
    await bed.close();
    await dl.stop();
    await mp.stop();
  });
  afterEach(async () => {
    dl.availability = { state: 'up' };
    mp.availability = { state: 'up' };
    dl.faults.length = 0;
    mp.faults.length = 0;
    await dl.comeBack();
  });

  const route = (routing: unknown) => bed.business.put(configuration, { routing });
  let order = 0;
  const newIntent = async (amount = 1220.5) => {
    order += 1;
    const created = await bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount,
      payinType: 'DEFAULT',
      offSession: false,
      country: 'URY',
      externalReference: `route-${order}-${crypto.randomUUID()}`,
      invoiceNumber: order,
      payerId: bed.payerId,
    });
    expect(created.status).toBe(200);
    return created.body.paymentIntent.paymentIntentId as string;
  };
  let visaProcessor: string | null = null;
  const visa = async (intentId: string) => {
    if (visaProcessor) return visaProcessor;
    const methods = (await bed.merchant.get(`/payment-intent/${intentId}/payment-methods`)).body
      .paymentIntentAvailablePaymentMethods as Json[];
    visaProcessor = methods.find(
      (m) => m.paymentMethod.paymentMethodName === 'VISA' && m.paymentInstrumentType.paymentInstrumentTypeName === 'CREDIT_CARD',
    )!.countryProcessorId as string;
    return visaProcessor;
  };
  const initialize = async (intentId: string) =>
    bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: await visa(intentId) });
  const attemptsOf = async (intentId: string) =>
    ((await bed.merchant.get(`/payment-intent/${intentId}`)).body.attempts as Json[]).map((a) => [a.processor, a.status, a.failureReason]);
  const preferencesMade = () => mp.requests.filter((r) => r.method === 'POST' && r.path === '/checkout/preferences').length;

  it('refuses a rule naming a processor the merchant is not connected to, an empty list, weights that do not match, an amount range upside down', async () => {
    // Every 400 of the configuration upsert is the specification's one errorId (contract §30), its message naming the reason.
    const cases: [unknown, string][] = [
      [[{ paymentMethod: 'VISA', processors: ['DLOCAL', 'STRIPE'] }], 'not connected to STRIPE'],
      [[{ paymentMethod: 'VISA', processors: [] }], 'routing[0].processors: name at least one processor'],
      [[{ paymentMethod: 'VISA', processors: ['DLOCAL', 'DLOCAL'] }], 'routing[0].processors: name at least one processor'],
      [[{ paymentMethod: 'VISA', processors: ['DLOCAL', 'MERCADO_PAGO'], split: [100] }], 'routing[0].split'],
      [[{ paymentMethod: 'VISA', processors: ['DLOCAL', 'MERCADO_PAGO'], split: [70, 0] }], 'routing[0].split'],
      [[{ paymentMethod: 'VISA', currency: 'UYU', minAmount: 5000, maxAmount: 100, processors: ['DLOCAL'] }], 'minAmount must not exceed'],
      [[{ paymentMethod: 'VISA', minAmount: 100, processors: ['DLOCAL'] }], 'routing'],
    ];
    for (const [routing, reason] of cases) {
      const answer = await route(routing);
      expect([answer.status, answer.body]).toEqual([400, errorShape('Payins:ERROR_IN_UPDATE_MERCHANT_CONFIGURATION')]);
      expect(answer.body.message).toContain(reason);
      expect(answer.body.showMessage.EN).toContain(reason);
      expect(answer.body.showMessage.ES).toMatch(/^No se pudo guardar la configuración del comercio: routing/);
    }
    // The second merchant is connected to nothing but the sandbox.
    const other = bed.tenant.merchants[1].merchantId;
    const foreign = await bed.business.put(`/merchant/${other}/configuration`, {
      routing: [{ paymentMethod: 'VISA', processors: ['DLOCAL'] }],
    });
    expect([foreign.status, foreign.body.errorId]).toEqual([400, 'Payins:ERROR_IN_UPDATE_MERCHANT_CONFIGURATION']);
    expect(foreign.body.message).toContain('not connected to DLOCAL');
    for (const hostile of [
      null,
      'VISA',
      [null],
      [[]],
      [{ paymentMethod: 'VISA', processors: 'DLOCAL' }],
      [{ paymentMethod: {}, processors: [] }],
    ]) {
      const answer = await route(hostile);
      expect(answer.status).toBe(400);
      expect(answer.body.errorId).toMatch(/^Payins:/);
    }
    expect((await bed.business.get(configuration)).body.routing).toEqual([]);
  });

  it('saves the rules, shows them, and simulates where an attempt would go; another business’s merchant is not found', async () => {
    const rules = [
      { paymentMethod: 'VISA', country: 'URY', currency: 'UYU', minAmount: 10000, processors: ['MERCADO_PAGO', 'DLOCAL'] },
      { paymentMethod: 'VISA', processors: ['DLOCAL', 'MERCADO_PAGO'] },
      { paymentMethod: 'MASTER_CARD', processors: ['DLOCAL', 'SANDBOX'], split: [50, 50] },
    ];
    const saved = await route(rules);
    expect(saved.status).toBe(200);
    expect(saved.body.routing).toEqual(rules);
    const simulate = (query: Record<string, string>) =>
      bed.business.get(`/merchant/${merchantId}/routing/simulate?${new URLSearchParams(query).toString()}`);
    expect((await simulate({ paymentMethod: 'VISA', country: 'URY', currency: 'UYU', amount: '15000' })).body).toEqual({
      rule: 0,
      processors: ['MERCADO_PAGO', 'DLOCAL'],
    });
    expect((await simulate({ paymentMethod: 'VISA', country: 'URY', currency: 'UYU', amount: '500' })).body).toEqual({
      rule: 1,
      processors: ['DLOCAL', 'MERCADO_PAGO'],
    });
    // No rule for OCA: its one processor (the sandbox).
    expect((await simulate({ paymentMethod: 'OCA', country: 'URY', currency: 'UYU', amount: '500' })).body).toEqual({
      rule: null,
      processors: ['SANDBOX'],
    });
    const split = (await simulate({ paymentMethod: 'MASTER_CARD', country: 'URY', currency: 'UYU', amount: '500' })).body;
    expect(split.rule).toBe(2);
    expect([...split.processors].sort()).toEqual(['DLOCAL', 'SANDBOX']);
    const bad = await simulate({ paymentMethod: 'VISA', country: 'uy', currency: 'UYU', amount: '500' });
    expect(bad.status).toBe(400);
    const stranger = await bed.newTenant();
    const foreign = await bed
      .client(stranger.business)
      .get(`/merchant/${merchantId}/routing/simulate?paymentMethod=VISA&country=URY&currency=UYU&amount=500`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(errorShape('Payins:MERCHANT_NOT_FOUND'));
    // Another business's health shows its own merchants only.
    const theirs = (await bed.client(stranger.business).get('/health/processors')).body.processors as Json[];
    expect(theirs.map((p) => p.merchantId)).toEqual(theirs.map(() => stranger.merchants[0].merchantId));
    expect(JSON.stringify(theirs)).not.toContain(merchantId);
  });

  it('fails over when the first processor refuses connections: the earlier attempt FAILED with PROCESSOR_UNAVAILABLE, the payer pays at the next', async () => {
    await route([{ paymentMethod: 'VISA', processors: ['DLOCAL', 'MERCADO_PAGO'] }]);
    const intentId = await newIntent();
    await dl.goDown();
    const started = await initialize(intentId);
    expect(started.status).toBe(200);
    expect(started.body.gatewayUrl).toContain(`${mp.url}/checkout/v1/redirect`);
    expect(await attemptsOf(intentId)).toEqual([
      ['DLOCAL', 'FAILED', 'PROCESSOR_UNAVAILABLE'],
      ['MERCADO_PAGO', 'PENDING', null],
    ]);
    await fetch(started.body.gatewayUrl as string, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=approve',
      redirect: 'manual',
    });
    const paid = await eventually(
      async () => (await bed.merchant.get(`/payment-intent/${intentId}`)).body as Json,
      (intent) => intent.paymentIntentStatus === 'SUCCEEDED',
    );
    expect(paid.paymentIntentStatus).toBe('SUCCEEDED');
    // The failed try is on the ledger too, refused for that reason, never charged.
    const tries = (await bed.merchant.get(`/payin?paymentIntentId=${intentId}`)).body[0].results as Json[];
    expect(tries.map((t) => t.status).sort()).toEqual(['APPROVED', 'REJECTED']);
  });

  it('fails over from a processor that answers 5xx or is too slow, and never retries a refusal elsewhere', async () => {
    await route([{ paymentMethod: 'VISA', processors: ['MERCADO_PAGO', 'DLOCAL'] }]);
    mp.availability = { state: 'failing', status: 503 };
    const failing = await newIntent();
    expect((await initialize(failing)).body.gatewayUrl).toContain(`${dl.url}/collect/pay/`);
    expect(await attemptsOf(failing)).toEqual([
      ['MERCADO_PAGO', 'FAILED', 'PROCESSOR_UNAVAILABLE'],
      ['DLOCAL', 'PENDING', null],
    ]);
    // Slower than the bounded timeout: a preference charges nothing, so the next processor is tried at once.
    mp.availability = { state: 'slow', ms: 3000 };
    const slow = await newIntent();
    expect((await initialize(slow)).body.gatewayUrl).toContain(`${dl.url}/collect/pay/`);
    mp.availability = { state: 'up' };
    // A refusal (dLocal's 400) is an answer, not an outage: nothing else is tried.
    await route([{ paymentMethod: 'VISA', processors: ['DLOCAL', 'MERCADO_PAGO'] }]);
    dl.faults.push({ method: 'POST', pathPrefix: '/payments', answer: 400, times: 1 });
    const before = preferencesMade();
    const refused = await newIntent();
    const answer = await initialize(refused);
    expect(answer.status).not.toBe(200);
    expect(answer.status).toBeLessThan(600);
    expect(preferencesMade()).toBe(before);
  });

  it('after an answer that may have done the work, asks the processor by the attempt’s id first: found, kept and nothing else tried; not found, the next', async () => {
    await route([{ paymentMethod: 'VISA', processors: ['DLOCAL', 'MERCADO_PAGO'] }]);
    // dLocal makes the payment and its answer is lost on the way: GET /orders/:order_id finds it.
    dl.faults.push({ method: 'POST', pathPrefix: '/payments', answer: 'lose', times: 1 });
    const before = preferencesMade();
    const kept = await newIntent();
    const lost = await initialize(kept);
    expect([lost.status, lost.body]).toEqual([503, errorShape('Payins:GATEWAY_UNREACHABLE')]);
    expect(preferencesMade()).toBe(before);
    expect(await attemptsOf(kept)).toEqual([['DLOCAL', 'PENDING', null]]);
    expect(dl.requests.some((r) => r.method === 'GET' && r.path.startsWith('/orders/'))).toBe(true);
    // dLocal never answers and made nothing: its order is not found, so Mercado Pago is asked.
    dl.faults.push({ method: 'POST', pathPrefix: '/payments', answer: 'hang', times: 1 });
    const moved = await newIntent();
    const started = await initialize(moved);
    expect(started.status).toBe(200);
    expect(started.body.gatewayUrl).toContain(mp.url);
    expect(await attemptsOf(moved)).toEqual([
      ['DLOCAL', 'FAILED', 'PROCESSOR_UNAVAILABLE'],
      ['MERCADO_PAGO', 'PENDING', null],
    ]);
    // The answer lost after the work, and the lookup lost too: nothing else is tried, reconciliation settles it.
    dl.availability = { state: 'losing' };
    const unknown = await newIntent();
    const beforeLosing = preferencesMade();
    expect((await initialize(unknown)).status).toBe(503);
    expect(preferencesMade()).toBe(beforeLosing);
    expect(await attemptsOf(unknown)).toEqual([['DLOCAL', 'PENDING', null]]);
  });

  it('opens a processor account’s circuit after 5 unreachable answers: attempts go straight to the next, it shows on /health/processors, /metrics and as processor.degraded, then one attempt through closes it', async () => {
    await route([{ paymentMethod: 'VISA', processors: ['DLOCAL', 'MERCADO_PAGO'] }]);
    await dl.goDown();
    for (let i = 0; i < 5; i++) expect((await initialize(await newIntent())).status).toBe(200);
    const health = async () =>
      ((await bed.business.get('/health/processors')).body.processors as Json[]).find(
        (p) => p.provider === 'DLOCAL' && p.merchantId === merchantId,
      )!;
    expect((await health()).state).toBe('OPEN');
    const skipped = await newIntent();
    expect((await initialize(skipped)).status).toBe(200);
    // Straight to Mercado Pago: dLocal was not asked, so no try of it is listed.
    expect(await attemptsOf(skipped)).toEqual([['MERCADO_PAGO', 'PENDING', null]]);
    const metrics = await request(bed.app.getHttpServer()).get('/metrics');
    expect(metrics.text).toMatch(/pcs_processor_circuit_state\{provider="DLOCAL"\} 2/);
    expect(metrics.text).not.toContain(merchantId);
    const degraded = await eventually(
      async () => (await bed.business.get('/event?type=processor.degraded&limit=10')).body[0].results as Json[],
      (events) => events.length > 0,
    );
    expect(degraded[0].data.object).toMatchObject({ provider: 'DLOCAL', merchantId, state: 'OPEN' });
    const other = (await bed.business.get('/health/processors')).body.processors as Json[];
    expect(
      other
        .filter((p) => p.merchantId === merchantId)
        .map((p) => p.provider)
        .sort(),
    ).toEqual(['DLOCAL', 'MERCADO_PAGO', 'SANDBOX']);
    expect((await health()).successRate1h).toBe(0);
    // Back up; after the break one attempt goes through, and its success closes the circuit.
    await dl.comeBack();
    await new Promise((resolve) => setTimeout(resolve, OPEN_MS + 100));
    expect((await health()).state).toBe('HALF_OPEN');
    const probe = await newIntent();
    expect((await initialize(probe)).body.gatewayUrl).toContain(dl.url);
    expect((await health()).state).toBe('CLOSED');
  });

  it('under a load of 60 concurrent payments, takes dLocal down mid-run: every payment completes, those after at Mercado Pago, none charged twice', async () => {
    await route([{ paymentMethod: 'VISA', processors: ['DLOCAL', 'MERCADO_PAGO'] }]);
    // The circuit of the test before has closed (its probe succeeded); the stand-ins count from here.
    const intents: string[] = [];
    for (let i = 0; i < 60; i++) intents.push(await newIntent(100 + i));
    let initialized = 0;
    let down = false;
    const pay = async (intentId: string): Promise<void> => {
      for (let round = 0; round < 5; round++) {
        if (round > 0) await new Promise((resolve) => setTimeout(resolve, 300));
        const started = await initialize(intentId);
        initialized += 1;
        if (initialized === 15 && !down) {
          down = true;
          await dl.goDown();
        }
        // Paid already (dLocal took the payment as it went down and the page's answer was cut; asked before replacing it).
        if (started.status === 409) return;
        // A payer whose dLocal page may have taken the payment is not sent elsewhere while dLocal cannot say (503).
        if (started.status !== 200) continue;
        const url = started.body.gatewayUrl as string;
        const paid = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: url.startsWith(mp.url) ? 'outcome=approve' : 'outcome=pay',
          redirect: 'manual',
        }).catch(() => null);
        // dLocal's page went down before the payer paid: the payer starts again (a new attempt, at the next processor).
        if (paid && paid.status < 400) return;
      }
    };
    await Promise.all(intents.map((id) => pay(id)));
    // dLocal comes back: the payers it kept waiting learn whether they paid there, and the rest pay.
    await dl.comeBack();
    const waiting: string[] = [];
    for (const id of intents)
      if ((await bed.merchant.get(`/payment-intent/${id}`)).body.paymentIntentStatus !== 'SUCCEEDED') waiting.push(id);
    await Promise.all(waiting.map((id) => pay(id)));
    const statuses = await Promise.all(
      intents.map((id) =>
        eventually(
          async () => (await bed.merchant.get(`/payment-intent/${id}`)).body.paymentIntentStatus as string,
          (status) => status === 'SUCCEEDED',
        ),
      ),
    );
    expect(new Set(statuses)).toEqual(new Set(['SUCCEEDED']));
    // Counted at both processors: exactly one charge per payment, by the attempts' ids.
    const charges = new Map<string, number>();
    const attemptIds = await bed.dataSource.query(
      `SELECT payment_intent_id::text AS intent, transaction_id::text AS id FROM payin WHERE payment_intent_id = ANY ($1::uuid[])`,
      [intents],
    );
    const intentOf = new Map<string, string>(attemptIds.map((row: { intent: string; id: string }) => [row.id, row.intent]));
    for (const payment of dl.payments.values())
      if (payment.status === 'PAID' && intentOf.has(payment.order_id))
        charges.set(intentOf.get(payment.order_id)!, (charges.get(intentOf.get(payment.order_id)!) ?? 0) + 1);
    for (const payment of mp.payments.values())
      if (payment.status === 'approved' && payment.external_reference && intentOf.has(payment.external_reference))
        charges.set(intentOf.get(payment.external_reference)!, (charges.get(intentOf.get(payment.external_reference)!) ?? 0) + 1);
    expect(intents.map((id) => charges.get(id) ?? 0)).toEqual(intents.map(() => 1));
    // Where each completed: the processor of its approved attempt.
    const completed = await bed.dataSource.query(
      `SELECT gateway, count(*)::int AS n FROM payin
        WHERE payment_intent_id = ANY ($1::uuid[]) AND transaction_type = 'PAYIN' AND status = 'APPROVED' GROUP BY gateway`,
      [intents],
    );
    const atMp = completed.find((row: { gateway: string }) => row.gateway === 'MERCADO_PAGO')?.n ?? 0;
    const atDl = completed.find((row: { gateway: string }) => row.gateway === 'DLOCAL')?.n ?? 0;
    expect(atMp + atDl).toBe(intents.length);
    expect(atMp).toBeGreaterThan(0);
    expect(atDl).toBeGreaterThan(0);
    process.stdout.write(
      `[failover load] 60 payments: ${atDl} at dLocal, ${atMp} at Mercado Pago, ${waiting.length} waited for dLocal to say; each charged once\n`,
    );
  });
});
