import { inSpan, processorCall, traceCarrierOf, traceHeaders, tracingWanted, withTraceOf } from './tracing';

describe('tracing: on only when the OTEL_* variables ask', () => {
  it.each([
    [{}, false],
    [{ OTEL_SERVICE_NAME: 'payins-api' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_TRACES_EXPORTER: 'None' }, false],
    [{ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
  ])('%j → %s', (env, wanted) => {
    expect(tracingWanted(env as NodeJS.ProcessEnv)).toBe(wanted);
  });
});

describe('tracing off (no SDK in this process): nothing is added anywhere', () => {
  it('leaves job data as it is, sends no headers, and still runs and answers the work', async () => {
    const data = { eventId: 'e1' };
    expect(withTraceOf(data)).toBe(data);
    expect(traceHeaders()).toEqual({});
    await expect(processorCall('DLOCAL', 'get_payment', 'GET', async (headers) => headers)).resolves.toEqual({});
    await expect(inSpan('job mail', {}, async () => 42)).resolves.toBe(42);
    await expect(
      inSpan('job mail', {}, async () => {
        throw new Error('the handler failed');
      }),
    ).rejects.toThrow('the handler failed');
  });

  it("keeps a carrier's own fields only, and reads a context from one", () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    expect(traceCarrierOf({ traceparent, eventId: 'e1' } as never)).toEqual({ traceparent });
    expect(traceCarrierOf({ traceparent, tracestate: 'v=1' })).toEqual({ traceparent, tracestate: 'v=1' });
    expect(traceCarrierOf(undefined)).toEqual({});
    expect(traceCarrierOf({ tracestate: 'v=1' })).toEqual({});
    // A job written with a trace keeps its carrier when the process that works it has no tracing.
    expect(withTraceOf({ eventId: 'e1', traceparent })).toEqual({ eventId: 'e1', traceparent });
  });
});
