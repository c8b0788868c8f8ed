import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Every response an in-process test app sends is checked against the committed
 * OpenAPI document (docs/openapi/<api>.json) for its route and status: a field
 * of the wrong type, a null where the document promises a value, an
 * undocumented status or a missing required field is a contract violation.
 * Violations are collected here and fail the test that caused them (see
 * contract-after-each.ts), so a document that lies fails `npm test`.
 */
export interface ContractViolation {
  readonly request: string;
  readonly status: number;
  readonly problem: string;
}

interface OpenApiOperation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown> };
}

interface Route {
  readonly pattern: RegExp;
  readonly parameters: number;
  readonly methods: Record<string, OpenApiOperation>;
  readonly template: string;
}

const REGISTRY = Symbol.for('pcs.contractViolations');
type Registry = { [REGISTRY]?: ContractViolation[] };

/** The violations recorded since the last call (emptied by reading). */
export function takeContractViolations(): ContractViolation[] {
  const registry = globalThis as Registry;
  const found = registry[REGISTRY] ?? [];
  registry[REGISTRY] = [];
  return found;
}

const remoteSources: Array<() => Promise<ContractViolation[]>> = [];

/**
 * An API checked in another process (a worker's shared API): its violations, taken with this file's
 * own after each test (see contract-after-each.ts). Sources last as long as the spec file's registry.
 */
export function watchRemoteContract(take: () => Promise<ContractViolation[]>): void {
  remoteSources.push(take);
}

/** The violations recorded here and in the watched processes since the last call. */
export async function takeAllContractViolations(): Promise<ContractViolation[]> {
  const remote = await Promise.all(remoteSources.map((take) => take()));
  return [...takeContractViolations(), ...remote.flat()];
}

function record(violation: ContractViolation): void {
  const registry = globalThis as Registry;
  (registry[REGISTRY] ??= []).push(violation);
}

/** Checks responses against one committed document. */
export class ResponseContract {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true });
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    // The OpenAPI format registry's fixed-point decimal (money on the wire): any finite number, checked as `type: number`.
    this.ajv.addFormat('decimal', { type: 'number', validate: (value: number) => Number.isFinite(value) });
    // OpenAPI's own words inside a schema, which are annotations for a validator.
    this.ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator']);
    this.ajv.addSchema(localRefs({ $id: 'openapi:components', $defs: closed(this.document.components?.schemas ?? {}) }));
    this.routes = Object.entries(document.paths)
      .map(([template, methods]) => ({
        template,
        methods,
        parameters: (template.match(/\{/g) ?? []).length,
        pattern: new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$'),
      }))
      // A literal segment wins over a parameter (/payment-intent/fast before /payment-intent/{id}).
      .sort((a, b) => a.parameters - b.parameters);
  }

  static forApi(name: 'payins-api' | 'b2b-api'): ResponseContract {
    const file = path.join(__dirname, '..', '..', '..', 'docs', 'openapi', `${name}.json`);
    return new ResponseContract(JSON.parse(fs.readFileSync(file, 'utf8')) as OpenApiDocument);
  }

  /** The problems with one response; none for a route the document does not describe (pages, /docs). */
  check(method: string, urlPath: string, status: number, contentType: string | undefined, body: string): string[] {
    const route = this.routes.find((candidate) => candidate.pattern.test(urlPath) && candidate.methods[method.toLowerCase()]);
    if (!route) return [];
    const operation = route.methods[method.toLowerCase()];
    const declared =
      operation.responses?.[String(status)] ?? operation.responses?.[`${String(status)[0]}XX`] ?? operation.responses?.default;
    if (!declared) return [`status ${status} is not documented for ${method.toUpperCase()} ${route.template}`];
    const content = declared.content;
    if (!content) return body.length === 0 ? [] : [`a body was sent where the document declares none`];
    const media = (contentType ?? '').split(';')[0].trim();
    const schema = content[media]?.schema;
    if (!schema) return [`content type '${media}' is not documented (documented: ${Object.keys(content).join(', ')})`];
    if (media !== 'application/json') return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return ['the body is not JSON'];
    }
    const validate = this.validator(`${method} ${route.template} ${status}`, schema);
    if (validate(parsed)) return [];
    return (validate.errors ?? []).map(
      (error) => `${error.instancePath || '(body)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
    );
  }

  private validator(key: string, schema: unknown): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(localRefs(closed(schema)));
      this.validators.set(key, validate);
    }
    return validate;
  }

  /**
   * Reads what each response of the server sends and records its violations:
   * the first 'request' listener, so it sees the answers of the body parsers
   * and guards too, not only the routes'.
   */
  watch(server: Server): void {
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      const write = response.write.bind(response) as (...args: unknown[]) => boolean;
      const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
      const keep = (chunk: unknown, encoding?: unknown) => {
        if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
        else if (typeof chunk === 'string')
          chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
      };
      response.write = ((chunk: unknown, ...rest: unknown[]) => {
        keep(chunk, rest[0]);
        return write(chunk, ...rest);
      }) as ServerResponse['write'];
      response.end = ((chunk?: unknown, ...rest: unknown[]) => {
        keep(chunk, rest[0]);
        return end(chunk, ...rest);
      }) as ServerResponse['end'];
      const method = request.method ?? 'GET';
      const urlPath = (request.url ?? '/').split('?')[0];
      response.on('finish', () => {
        const problems = this.check(
          method,
          urlPath,
          response.statusCode,
          response.getHeader('content-type') as string | undefined,
          Buffer.concat(chunks).toString('utf8'),
        );
        for (const problem of problems) record({ request: `${method} ${urlPath}`, status: response.statusCode, problem });
      });
    });
  }
}

/** The document's references (#/components/schemas/X) pointed at the schema that holds its components. */
function localRefs(schema: unknown): object {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\/schemas\//g, '"openapi:components#/$defs/')) as object;
}

/**
 * Every object schema with declared properties made closed (for checking only):
 * a field the API sends but the document does not declare is a violation too,
 * so generated clients see every field there is.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === 'example' ? value : closed(value)]));
  if (copy.properties && copy.additionalProperties === undefined && copy.unevaluatedProperties === undefined)
    copy.unevaluatedProperties = false;
  return copy;
}
