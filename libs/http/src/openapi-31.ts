import { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, unknown>;

/**
 * The documents are OpenAPI 3.1, whose schemas are JSON Schema (2020-12): a
 * field that can be null says so in a way every validator and generator reads
 * alike. Nest writes OpenAPI 3.0's `nullable: true`, which under 3.0.3 does not
 * reach into `allOf` (a nullable `$ref` rejected the real `null`); this turns
 * each one into its 3.1 form: `type: [t, 'null']` (and `null` among an enum's
 * values), or `oneOf: [{ $ref }, { type: 'null' }]` for a referenced object.
 */
export function asOpenApi31(document: OpenAPIObject): OpenAPIObject {
  return { ...(rewrite(document) as OpenAPIObject), openapi: '3.1.0' };
}

function rewrite(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewrite);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Schema).map(([key, inner]) => [key, rewrite(inner)] as const);
  const schema: Schema = Object.fromEntries(entries);
  return 'nullable' in schema ? withoutNullable(schema) : schema;
}

function withoutNullable({ nullable, ...schema }: Schema): Schema {
  if (nullable !== true) return schema;
  const { allOf, type, ...rest } = schema;
  if (Array.isArray(allOf) && allOf.length === 1 && (type === undefined || type === 'object')) {
    return { ...rest, oneOf: [allOf[0], { type: 'null' }] };
  }
  if (typeof type !== 'string')
    throw new Error(`a nullable schema without one type cannot be written in OpenAPI 3.1: ${JSON.stringify(schema)}`);
  const nullableEnum = Array.isArray(rest.enum) ? { enum: [...(rest.enum as unknown[]), null] } : {};
  return { ...rest, type: [type, 'null'], ...nullableEnum };
}
