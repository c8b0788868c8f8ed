import * as fs from 'node:fs';
import * as path from 'node:path';

/** The operations of the committed OpenAPI documents, as the generated-request tests (fuzz, strict numbers) walk them. */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  example?: unknown;
};
export type Document = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
        requestBody?: { content: Record<string, { schema: Schema }> };
      }
    >
  >;
  components: { schemas: Record<string, Schema> };
};
export interface Operation {
  readonly api: 'payins' | 'b2b';
  readonly method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  readonly path: string;
  readonly pathParams: string[];
  readonly query: { name: string; required: boolean; schema: Schema }[];
  readonly body: Schema | null;
  /** A file upload (multipart/form-data), signed over its bytes. */
  readonly multipart: boolean;
  readonly doc: Document;
}

export function operationsOf(api: 'payins' | 'b2b'): Operation[] {
  const doc = JSON.parse(
    fs.readFileSync(path.join(__dirname, '..', 'docs', 'openapi', `${api === 'payins' ? 'payins-api' : 'b2b-api'}.json`), 'utf8'),
  ) as Document;
  return Object.entries(doc.paths).flatMap(([route, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      api,
      method: method as Operation['method'],
      path: route,
      pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      query: (op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} })),
      body: op.requestBody?.content['application/json']?.schema ?? null,
      multipart: op.requestBody?.content['multipart/form-data'] !== undefined,
      doc,
    })),
  );
}

export function resolve(schema: Schema, doc: Document): Schema {
  let s = schema;
  while (s.$ref) s = doc.components.schemas[s.$ref.split('/').pop()!];
  if (s.allOf?.length === 1) return resolve(s.allOf[0], doc);
  // OpenAPI 3.1's nullable reference: oneOf [the schema, { type: 'null' }].
  const notNull = s.oneOf?.filter((option) => option.type !== 'null');
  if (notNull?.length === 1) return resolve(notNull[0], doc);
  return s;
}
