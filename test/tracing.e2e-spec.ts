import { ApiCredentials, DLocalStandIn, signV3 } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { ApiProcess } from './api-process';
import { CollectedSpan, OtlpCollector } from './otlp-collector';
import { freePort } from './payins-app';
import { Testbed, testbed, URUGUAYAN_PAYER } from './testbed';
import { WebhookReceiver } from './webhook-receiver';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const LOGIN = 'dl-login-traced-0001';
const TRANS_KEY = 'dl-trans-key-traced-0001';
const SECRET_KEY = 'dl-secret-key-of-the-traced-0001';

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

/** A caller's W3C trace context: a trace of its own and the caller's span. */
const callerTrace = () => {
  const traceId = crypto.randomBytes(16).toString('hex');
  const spanId = crypto.randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
};
/** `traceparent`'s parts (version, trace id, parent id, flags). */
const partsOf = (traceparent: string | undefined) => {
  const [version, traceId, parentId, flags] = (traceparent ?? '').split('-');
  return { version, traceId, parentId, flags };
};

/**
 * Tracing (docs/operations.md, "Tracing"): the built payins API as its own
 * process with the standard OTEL_* variables exporting to a collector, and
 * without them. A caller's `traceparent` is continued by the request's spans,
 * its statements', the processor call's (whose request to dLocal carries it),
 * the jobs' the change wrote and the webhook delivery's (whose POST carries it).
 */
describe('tracing with OpenTelemetry', () => {
  let bed: Testbed;
  const dl = new DLocalStandIn().merchant(LOGIN, TRANS_KEY, SECRET_KEY);
  const collector = new OtlpCollector();
  const shop = new WebhookReceiver();
  let api: ApiProcess | undefined;
  let merchantId: string;
  let credentials: ApiCredentials;

  const environment = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    SECRETS_MASTER_KEY: process.env.TEST_SECRETS_MASTER_KEY,
    // Nothing is mailed here; a port where no server listens is enough.
    SMTP_URL: 'smtp://127.0.0.1:9',
    DLOCAL_API_URL: dl.url,
    WEBHOOKS_ALLOW_LOCALHOST: 'true',
    LOG_LEVEL: 'error',
    OTEL_SERVICE_NAME: '',
    OTEL_EXPORTER_OTLP_ENDPOINT: '',
    OTEL_TRACES_EXPORTER: '',
    ...extra,
  });

  /** A version-3 signed request to the process, with the caller's `traceparent` when given. */
  const call = async (
    method: 'GET' | 'POST',
    target: string,
    body?: Json,
    traceparent?: string,
  ): Promise<{ status: number; body: Json }> => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(`http://127.0.0.1:${api!.port}${target}`, {
      method,
      headers: {
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...signV3(credentials, method, target, payload),
        ...(traceparent ? { traceparent } : {}),
      },
      body: payload,
    });
    return { status: response.status, body: (await response.json()) as Json };
  };

  /** What dLocal was asked to create for the intent (its order id is the attempt's payin id). */
  const askedOfDLocal = async (intentId: string) => {
    const payins = await bed.dataSource.query<{ transaction_id: string }[]>(
      `SELECT transaction_id FROM payin WHERE payment_intent_id = $1`,
      [intentId],
    );
    const ids = payins.map((p) => p.transaction_id);
    return dl.requests.filter(
      (r) => r.method === 'POST' && r.path === '/payments' && ids.includes((JSON.parse(r.body) as { order_id?: string }).order_id ?? ''),
    );
  };

  let order = 0;
  /** A payment intent created, then initialized with dLocal's Visa: each request in a trace of the caller's. */
  const createAndInitialize = async (creation?: string, initialization?: string) => {
    order += 1;
    const created = await call(
      'POST',
      '/payment-intent',
      {
        currency: 'UYU',
        amount: 1220.5,
        payinType: 'DEFAULT',
        offSession: false,
        country: 'URY',
        externalReference: `traced-${order}`,
        invoiceNumber: order,
        payerId: bed.payerId,
      },
      creation,
    );
    expect(created.status).toBe(200);
    const intentId = created.body.paymentIntent.paymentIntentId as string;
    const methods = await call('GET', `/payment-intent/${intentId}/payment-methods`);
    const visa = (methods.body.paymentIntentAvailablePaymentMethods as Json[]).find(
      (m) => m.paymentMethod.paymentMethodName === 'VISA' && m.paymentInstrumentType.paymentInstrumentTypeName === 'CREDIT_CARD',
    )!;
    const initialized = await call(
      'POST',
      `/payment-intent/${intentId}/initialize`,
      { countryProcessorId: visa.countryProcessorId },
      initialization,
    );
    expect(initialized.status).toBe(200);
    return intentId;
  };

  beforeAll(async () => {
    await dl.start();
    await collector.start();
    await shop.start();
    bed = await testbed({
      name: 'Traced business',
      payer: URUGUAYAN_PAYER,
      gateway: { processorApis: { DLOCAL: { url: dl.url, timeoutMs: 2000 } }, reconcileAfterSeconds: 600 },
      // This spec's own app works queues of its own: the processes under test dispatch and deliver what they record.
      webhooks: { dispatchQueue: 'event-dispatch-tracing-bed', deliveryQueue: 'webhook-delivery-tracing-bed', allowLocalhost: true },
    });
    merchantId = bed.tenant.merchants[0].merchantId;
    credentials = bed.tenant.merchants[0];
    expect(
      (
        await bed.business.put(`/merchant/${merchantId}/gateway-account/dlocal`, {
          xLogin: LOGIN,
          xTransKey: TRANS_KEY,
          secretKey: SECRET_KEY,
          paymentMethods: ['VISA'],
        })
      ).status,
    ).toBe(200);
    expect((await bed.merchant.post('/webhook-endpoint', { url: shop.url, enabledEvents: ['payment_intent.created'] })).status).toBe(200);
  });
  afterEach(async () => {
    await api?.stop();
    api = undefined;
  });
  afterAll(async () => {
    await dl.rejectOpen();
    await bed.close();
    await shop.stop();
    await collector.stop();
    await dl.stop();
  });

  it("continues a caller's trace through the request, its statements, dLocal's call, the jobs and the webhook delivery", async () => {
    api = new ApiProcess(
      'payins-api',
      await freePort(),
      environment({
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      }),
    );
    await api.start();
    const creation = callerTrace();
    const initialization = callerTrace();
    const intentId = await createAndInitialize(creation.traceparent, initialization.traceparent);

    // The creation: the server span is the caller's span's child, in the service's name; Nest's and pg's spans are in it.
    const server = await collector.waitFor((spans) => spans.find((s) => s.traceId === creation.traceId && s.kind === SERVER));
    expect(server).toMatchObject({ service: 'payins-api', parentSpanId: creation.spanId });
    const inCreation = collector.trace(creation.traceId);
    expect(inCreation.some((s) => s.scope.includes('nestjs-core'))).toBe(true);
    const statements = inCreation.filter((s) => s.scope.includes('instrumentation-pg') && s.kind === CLIENT);
    expect(statements.length).toBeGreaterThan(0);
    expect(
      statements.some((s) => /INSERT INTO "?payment_intent"?/i.test(String(s.attributes['db.query.text'] ?? s.attributes['db.statement']))),
    ).toBe(true);

    // The event's jobs: the dispatch continues the creation's trace (or links it, in a batch), the delivery too.
    const continues = (s: CollectedSpan, traceId: string) => s.traceId === traceId || s.links.some((link) => link.traceId === traceId);
    const dispatch = await collector.waitFor((spans) =>
      spans.find((s) => s.name === 'job event-dispatch' && s.kind === CONSUMER && continues(s, creation.traceId)),
    );
    expect(dispatch).toBeDefined();
    await shop.waitFor((received) => received.some((w) => w.event.data.object.paymentIntentId === intentId));
    const delivered = shop.received.find((w) => w.event.data.object.paymentIntentId === intentId);
    expect(delivered).toBeDefined();
    // The receiver's request carries the creation's trace, its parent a span the service exported in it.
    const sent = partsOf(delivered!.headers.traceparent);
    expect(sent).toMatchObject({ version: '00', traceId: creation.traceId, flags: '01' });
    const delivery = await collector.waitFor((spans) =>
      spans.find((s) => s.name === 'webhook delivery' && s.kind === PRODUCER && s.traceId === creation.traceId),
    );
    expect(delivery?.attributes['pcs.event.id']).toBe(delivered!.event.id);
    const parentOfPost = await collector.waitFor((spans) => spans.find((s) => s.spanId === sent.parentId));
    expect(parentOfPost).toMatchObject({ traceId: creation.traceId, kind: CLIENT });

    // The initialization: dLocal's call is a CLIENT span of its trace, and dLocal's request carries it as the parent.
    const processorCall = await collector.waitFor((spans) =>
      spans.find((s) => s.traceId === initialization.traceId && s.name === 'DLOCAL create_payment'),
    );
    expect(processorCall).toMatchObject({
      kind: CLIENT,
      attributes: { 'pcs.processor': 'DLOCAL', 'pcs.processor.operation': 'create_payment' },
    });
    const atDLocal = await askedOfDLocal(intentId);
    expect(atDLocal).toHaveLength(1);
    expect(partsOf(atDLocal[0].traceparent)).toMatchObject({ traceId: initialization.traceId, parentId: processorCall!.spanId });

    // Probes are nobody's request: no span.
    expect(collector.spans.some((s) => String(s.attributes['url.path'] ?? s.attributes['http.target'] ?? '').startsWith('/health'))).toBe(
      false,
    );
  }, 90_000);

  it('is off without the OTEL_* variables: nothing exported, no traceparent sent on', async () => {
    api = new ApiProcess('payins-api', await freePort(), environment({}));
    await api.start();
    const before = collector.spans.length;
    const creation = callerTrace();
    const intentId = await createAndInitialize(creation.traceparent, callerTrace().traceparent);
    await shop.waitFor((received) => received.some((w) => w.event.data.object.paymentIntentId === intentId));
    const delivered = shop.received.find((w) => w.event.data.object.paymentIntentId === intentId);
    expect(delivered).toBeDefined();
    expect(delivered!.headers.traceparent).toBeUndefined();
    const atDLocal = await askedOfDLocal(intentId);
    expect(atDLocal).toHaveLength(1);
    expect(atDLocal[0].traceparent).toBeUndefined();
    // Nothing of this process reached the collector (it was not told of it, and loads no SDK).
    expect(collector.spans.slice(before).filter((s) => s.traceId === creation.traceId)).toEqual([]);
  }, 90_000);
});
