import { context, Context, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * Tracing with OpenTelemetry (docs/operations.md, "Tracing"): off unless the
 * environment asks for it with the standard variables, so a process that does
 * not export traces loads none of the SDK and pays only `@opentelemetry/api`'s
 * no-op calls.
 *
 * On when an exporter is named (`OTEL_TRACES_EXPORTER`, other than `none`) or
 * an OTLP endpoint is given (`OTEL_EXPORTER_OTLP_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), unless `OTEL_SDK_DISABLED=true`. The
 * SDK then reads every other `OTEL_*` variable itself (protocol, headers,
 * sampler, batch sizes, resource attributes). Metrics and logs stay ours
 * (`/metrics`, pino): their OTel exporters are `none` unless set.
 *
 * Must run before the modules it instruments are loaded (each app's
 * `tracing.ts`, imported first by its `main.ts`).
 */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporters) return exporters !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

interface Started {
  shutdown(): Promise<void>;
}

let started: Started | null = null;

/** The longest attribute value a span keeps when `OTEL_*ATTRIBUTE_VALUE_LENGTH_LIMIT` is unset. */
const ATTRIBUTE_LENGTH = 1024;

/** Starts the SDK with the http, express, nestjs-core and pg instrumentations when `tracingWanted`; once per process. */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (started || !tracingWanted(env)) return started !== null;
  const unset = (name: string) => !env[name]?.trim();
  if (unset('OTEL_SERVICE_NAME')) env.OTEL_SERVICE_NAME = serviceName;
  if (unset('OTEL_METRICS_EXPORTER')) env.OTEL_METRICS_EXPORTER = 'none';
  if (unset('OTEL_LOGS_EXPORTER')) env.OTEL_LOGS_EXPORTER = 'none';
  // A statement's text is kept to its first 1,024 characters unless the operator says otherwise: a creation's statement
  // is several kilobytes, written again into every span of it (docs/performance.md, "Tracing").
  if (unset('OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT') && unset('OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT'))
    env.OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT = String(ATTRIBUTE_LENGTH);
  // Loaded only when on: a process without tracing never requires the SDK.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation, ExpressLayerType } =
    require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { NestInstrumentation } =
    require('@opentelemetry/instrumentation-nestjs-core') as typeof import('@opentelemetry/instrumentation-nestjs-core');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes are not requests of anyone's.
        ignoreIncomingRequestHook: (request) => /^\/(health|ready|metrics)(\/|\?|$)/.test(request.url ?? ''),
      }),
      // The route names the request's span; a span per Express middleware and handler layer (eleven per request, Nest's
      // own chain) would cost more than the request's statements and say less than Nest's handler span.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.REQUEST_HANDLER] }),
      new NestInstrumentation(),
      // A statement is traced inside a request, a job or a processor call; the job queue's polling and the sealer's
      // batches outside any of them would be a root span every second. Taking a pooled connection is not a statement.
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
    ],
  });
  sdk.start();
  started = sdk;
  return true;
}

/** Sends the spans still buffered (a process that stops); nothing when tracing is off. */
export async function flushTracing(): Promise<void> {
  await started?.shutdown().catch(() => undefined);
}

const tracer = () => trace.getTracer('payment-collection-service');

/** The context of the span running now (the root context when none runs or tracing is off). */
export function activeContext(): Context {
  return context.active();
}

/** The W3C Trace Context headers (`traceparent`, `tracestate`) of the active span: empty when tracing is off. */
export function traceHeaders(from: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(from, carrier);
  return carrier;
}

/** What a job or a record keeps to continue its cause's trace later: `traceparent` (and `tracestate`), or nothing. */
export interface TraceCarrier {
  readonly traceparent?: string;
  readonly tracestate?: string;
}

/** Only the carrier's own fields (a job's data holds others): `{}` when it carries no trace. */
export function traceCarrierOf(carrier: TraceCarrier | null | undefined): TraceCarrier {
  if (!carrier?.traceparent) return {};
  return carrier.tracestate ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate } : { traceparent: carrier.traceparent };
}

/** The context a carrier names (its remote span as parent); the root context when it names none. */
export function contextOf(carrier: TraceCarrier | null | undefined): Context {
  if (!carrier?.traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** `data` with the active trace's carrier added (unless it has one); `data` itself when tracing is off. */
export function withTraceOf<T extends object>(data: T): T {
  if ((data as TraceCarrier).traceparent) return data;
  const headers = traceHeaders();
  return headers.traceparent ? { ...data, ...headers } : data;
}

/**
 * Runs `work` in a span of its own (a child of `parent`, the active context by
 * default), ended when the work settles and marked as an error when it throws.
 */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Record<string, string | number | boolean>; parent?: Context; links?: Context[] },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const links = (options.links ?? [])
    .map((linked) => trace.getSpanContext(linked))
    .filter((linked) => linked !== undefined)
    .map((linked) => ({ context: linked }));
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * A call to a processor's API: a CLIENT span named `<PROCESSOR> <operation>`
 * whose `traceparent` the request carries (`work` receives the headers to add).
 */
export function processorCall<T>(
  processor: string,
  operation: string,
  method: string,
  work: (headers: Record<string, string>, span: Span) => Promise<T>,
): Promise<T> {
  return inSpan(
    `${processor} ${operation}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'pcs.processor': processor, 'pcs.processor.operation': operation, 'http.request.method': method },
    },
    (span) => work(traceHeaders(), span),
  );
}

export { ROOT_CONTEXT, SpanKind };
