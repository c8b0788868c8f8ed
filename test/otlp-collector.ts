import * as http from 'node:http';
import * as net from 'node:net';

/** A span as an OTLP/HTTP JSON export carries it (ids in hex, as the OTLP JSON encoding writes them). */
export interface CollectedSpan {
  readonly service: string;
  readonly scope: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly attributes: Record<string, string | number | boolean | undefined>;
  readonly links: { traceId: string; spanId: string }[];
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: { key: string; value: OtlpValue }[];
        links?: { traceId: string; spanId: string }[];
      }[];
    }[];
  }[];
}

const valueOf = (value: OtlpValue): string | number | boolean | undefined =>
  value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
const attributesOf = (list: { key: string; value: OtlpValue }[] = []): CollectedSpan['attributes'] =>
  Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/**
 * A trace collector as the OTLP/HTTP specification describes its receiving
 * end, for the JSON encoding: `POST /v1/traces` with `Content-Type:
 * application/json` and an `ExportTraceServiceRequest`, answered 200 with an
 * `ExportTraceServiceResponse`; another path is 404, another content type 415,
 * a body that is not the request 400.
 */
export class OtlpCollector {
  readonly spans: CollectedSpan[] = [];
  private server: http.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/traces') return void response.writeHead(404).end();
        if (!/^application\/json\b/.test(request.headers['content-type'] ?? '')) return void response.writeHead(415).end();
        let body: OtlpExport;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
          if (!Array.isArray(body.resourceSpans)) throw new Error('no resourceSpans');
        } catch {
          return void response.writeHead(400, { 'content-type': 'application/json' }).end('{"code":3,"message":"not an export"}');
        }
        for (const resource of body.resourceSpans ?? []) {
          const service = String(attributesOf(resource.resource?.attributes)['service.name'] ?? '');
          for (const scope of resource.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              this.spans.push({
                service,
                scope: scope.scope?.name ?? '',
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: span.kind,
                attributes: attributesOf(span.attributes),
                links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
              });
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  /** The base URL for `OTEL_EXPORTER_OTLP_ENDPOINT` (the exporter appends `/v1/traces`). */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The spans of one trace. */
  trace(traceId: string): CollectedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  /** Waits until `found` finds something among the spans (or `seconds` pass); its answer. */
  async waitFor<T>(found: (spans: CollectedSpan[]) => T | undefined, seconds = 20): Promise<T | undefined> {
    const until = Date.now() + seconds * 1000;
    for (;;) {
      const answer = found(this.spans);
      if (answer !== undefined || Date.now() > until) return answer;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
