import { getMetadataStorage } from 'class-validator';
import { DATE_BOUND } from './date-range';

/** Where @nestjs/swagger keeps a property's @ApiProperty options (its API_MODEL_PROPERTIES). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/** What class-validator keeps of one decorator on one property (its public shape, read-only). */
interface ValidatorRecord {
  readonly target: unknown;
  readonly propertyName: string;
  readonly name?: string;
  readonly constraints?: readonly unknown[];
  readonly each?: boolean;
}

type SwaggerProperty = Record<string, unknown> & { isArray?: boolean; items?: Record<string, unknown> };

/**
 * The OpenAPI documents state what the server checks (contract §1; issue 41:
 * tools nobody here wrote generate requests from them). Every request class's
 * validators are the source: an `@IsEmail()` field is `format: email`, an
 * `@IsInt()` one `type: integer`, an `@IsUUID()` one `format: uuid`, a
 * `@Matches()` one carries its pattern (the credentials' printable-characters
 * rule, a BIN's digits, a date bound's shape), and a number named `…amount`
 * is money on the wire, `format: decimal` (the OpenAPI format registry's
 * fixed-point decimal). What a property's own `@ApiProperty` says wins.
 * Runs once, before the first document is built; idempotent.
 */
export function describeValidatorsInSwagger(): void {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, ValidatorRecord[]> };
  for (const records of storage.validationMetadatas.values()) {
    for (const record of records) {
      const target = record.target;
      if (typeof target !== 'function') continue;
      const prototype = (target as { prototype: object }).prototype;
      const existing = Reflect.getMetadata(API_MODEL_PROPERTIES, prototype, record.propertyName) as SwaggerProperty | undefined;
      if (!existing) continue; // a property the document does not show
      const described = describe(record, existing);
      if (described) Reflect.defineMetadata(API_MODEL_PROPERTIES, described, prototype, record.propertyName);
    }
  }
}

function describe(record: ValidatorRecord, property: SwaggerProperty): SwaggerProperty | null {
  const facts = factsOf(record, property);
  if (!facts) return null;
  if (record.each && property.isArray) {
    // Without items of its own, swagger describes an array of `type`; they are kept.
    const items = { ...(property.items ?? (property.type === String ? { type: 'string' } : {})) };
    let changed = false;
    for (const [key, value] of Object.entries(facts)) {
      if (items[key] === undefined) {
        items[key] = value;
        changed = true;
      }
    }
    return changed ? { ...property, items } : null;
  }
  if (record.each || property.isArray) return null;
  const added = Object.fromEntries(
    Object.entries(facts).filter(([key]) => property[key] === undefined || (key === 'type' && property.type === Number)),
  );
  return Object.keys(added).length ? { ...property, ...added } : null;
}

function factsOf(record: ValidatorRecord, property: SwaggerProperty): Record<string, unknown> | null {
  switch (record.name) {
    case 'isEmail':
      return { format: 'email' };
    case 'isUuid':
      return { format: 'uuid' };
    case 'isInt':
      // `type` holds the property's design type (Number) until a document is built from it.
      return property.type === Number ? { type: 'integer' } : null;
    case 'isDateString':
    case 'isIso8601':
      return { format: 'date-time' };
    case 'isNumber':
      return /amount$/i.test(record.propertyName) ? { format: 'decimal' } : null;
    case 'matches': {
      const pattern = record.constraints?.[0];
      if (!(pattern instanceof RegExp) || pattern.flags.replace('u', '') !== '') return null;
      // A list's date bound: a date, or (the pattern says) a date-time with a zone.
      const date = pattern === DATE_BOUND || pattern.source === String.raw`^\d{4}-\d{2}-\d{2}$`;
      return date ? { format: 'date', pattern: pattern.source } : { pattern: pattern.source };
    }
    default:
      return null;
  }
}
