import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

/**
 * The OpenAPI documents are enough for tools nobody here wrote (issue 41):
 * every request body has an example, every example fits its own schema, and
 * the server takes every example as it is — sent signed over real HTTP, with
 * the path's ids being the tenant's where the document names a merchant and
 * unknown ids elsewhere, no answer is a 400 (an unknown id is a 404, a
 * business rule a 409, never a validation refusal). And the facts a
 * generator needs are stated: ids are uuids, page sizes integers, e-mails
 * e-mails, dates dates.
 */
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: unknown; examples?: Record<string, { value: unknown }> }> };
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const documents: Record<'payins' | 'b2b', Doc> = {
  payins: JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'openapi', 'payins-api.json'), 'utf8')) as Doc,
  b2b: JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'openapi', 'b2b-api.json'), 'utf8')) as Doc,
};

function operations(api: 'payins' | 'b2b') {
  return Object.entries(documents[api].paths).flatMap(([route, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ api, route, method, operation })),
  );
}
const all = [...operations('payins'), ...operations('b2b')];
const withJsonBody = all.filter(({ operation }) => operation.requestBody?.content['application/json']);

function exampleOf(operation: Operation): Record<string, unknown> | undefined {
  return operation.requestBody?.content['application/json']?.examples?.example?.value as Record<string, unknown> | undefined;
}

describe('the OpenAPI documents state what generated requests need', () => {
  it('every path parameter that is an id is a uuid, and the others are enumerations', () => {
    const loose = all.flatMap(({ api, route, method, operation }) =>
      (operation.parameters ?? [])
        .filter((p) => p.in === 'path' && p.schema.format !== 'uuid' && !Array.isArray(p.schema.enum))
        .map((p) => `${api} ${method} ${route} ${p.name}`),
    );
    expect(loose).toEqual([]);
    expect(all.filter(({ operation }) => operation.parameters?.some((p) => p.in === 'path')).length).toBeGreaterThan(45);
  });

  it('page numbers and sizes are integers, and date filters are dates', () => {
    const wrong = all.flatMap(({ api, route, method, operation }) =>
      (operation.parameters ?? [])
        .filter(
          (p) =>
            p.in === 'query' &&
            ((['page', 'limit', 'pageSize'].includes(p.name) && p.schema.type !== 'integer') ||
              (/^date(From|To|Until)$/.test(p.name) && p.schema.format !== 'date')),
        )
        .map((p) => `${api} ${method} ${route} ${p.name}: ${JSON.stringify(p.schema)}`),
    );
    expect(wrong).toEqual([]);
  });

  it('every e-mail field of a request is format: email, and every credential states its printable-characters rule', () => {
    const schemas = { ...documents.payins.components.schemas, ...documents.b2b.components.schemas } as Record<
      string,
      { properties?: Record<string, { format?: string; pattern?: string; items?: { format?: string } }> }
    >;
    const requests = Object.entries(schemas).filter(([name]) => name.endsWith('Dto'));
    const emails = requests.flatMap(([name, schema]) =>
      Object.entries(schema.properties ?? {})
        .filter(([field]) => /e-?mail/i.test(field))
        .map(([field, property]) => ({ field: `${name}.${field}`, format: property.format ?? property.items?.format })),
    );
    expect(emails.length).toBeGreaterThanOrEqual(6);
    expect(emails.filter((e) => e.format !== 'email')).toEqual([]);
    for (const [name, fields] of [
      ['ConnectMercadoPagoAccountDto', ['accessToken', 'webhookSecret']],
      ['ConnectDLocalAccountDto', ['xLogin', 'xTransKey', 'secretKey']],
    ] as const) {
      for (const field of fields) expect(schemas[name].properties?.[field].pattern).toBe('^[\\x20-\\x7E]{1,256}$');
    }
  });

  it('money is format: decimal and counts are integers, in requests and answers alike', () => {
    type Property = { type?: string | string[]; format?: string };
    const wrong: string[] = [];
    for (const api of ['payins', 'b2b'] as const) {
      for (const [name, schema] of Object.entries(
        documents[api].components.schemas as Record<string, { properties?: Record<string, Property> }>,
      )) {
        for (const [field, property] of Object.entries(schema.properties ?? {})) {
          const types = ([] as string[]).concat(property.type ?? []);
          const money =
            /(amount|Amount|^fee$|^net$|^gross$|^taxes$|^tip$|^pending$|^available$|^inTransit$|^collected$|^refunded$|^financingFee$|^netCredit$|^netDebit$)/;
          const count =
            /^(rowCount|pageCount|currentPage|totalItems|totalPages|sequence|durationMs|size|transactionCount|matched|ignored|approved|rejected)$/;
          if (money.test(field) && types.includes('number') && property.format !== 'decimal')
            wrong.push(`${api} ${name}.${field} is not decimal`);
          // The payins envelope's currentPage and pageSize are strings (specification): only numbers are asked to be integers.
          if (count.test(field) && types.includes('number')) wrong.push(`${api} ${name}.${field} is not an integer`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('every JSON request body has an example that fits its schema', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    // The OpenAPI format registry's fixed-point decimal: money on the wire.
    ajv.addFormat('decimal', { type: 'number', validate: (n: number) => Number.isFinite(n) });
    for (const api of ['payins', 'b2b'] as const) {
      const $defs = JSON.parse(
        JSON.stringify(documents[api].components.schemas).replace(/#\/components\/schemas\//g, '#/$defs/'),
      ) as object;
      ajv.addSchema({ $id: `${api}:components`, $defs });
    }
    expect(withJsonBody.length).toBe(32);
    const problems: string[] = [];
    for (const { api, route, method, operation } of withJsonBody) {
      const example = exampleOf(operation);
      if (example === undefined) {
        problems.push(`${api} ${method} ${route}: no example`);
        continue;
      }
      const schema = JSON.parse(
        JSON.stringify(operation.requestBody!.content['application/json'].schema).replace(
          /#\/components\/schemas\//g,
          `${api}:components#/$defs/`,
        ),
      ) as object;
      const validate = ajv.compile(schema);
      if (!validate(example)) problems.push(`${api} ${method} ${route}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('the server takes every request body example as it is', () => {
  let payins: HttpTestbed;
  let b2b: HttpTestbed;

  beforeAll(async () => {
    payins = await sharedTestbed();
    b2b = await sharedTestbed({ api: 'b2b' });
  });
  afterAll(async () => {
    await payins?.close();
    await b2b?.close();
  });

  it('no example is refused as invalid (400), unsigned (401 Auth:…) or fails (5xx)', async () => {
    const answers: string[] = [];
    const refused: string[] = [];
    // Ids a body refers to and the server checks at once (a link's processors, a bank of the list) are
    // taken from the tenant's own answers, as a generated collection takes them from earlier responses.
    const processors = await payins.merchant.get(`/merchant-country-processor?merchantId=${payins.tenant.merchants[0].merchantId}`);
    const banks = await payins.merchant.get('/bank?country=URY');
    expect(processors.status).toBe(200);
    expect(banks.status).toBe(200);
    const known: Record<string, unknown> = {
      merchantCountryProcessors: [(processors.body as { merchantCountryProcessorId: string }[])[0].merchantCountryProcessorId],
      bankId: (banks.body as { bankId: string }[])[0].bankId,
      // Unique across merchants: the example's own may be another merchant's on this database.
      shortName: `examples-${crypto.randomUUID().slice(0, 8)}`,
    };
    for (const { api, route, method, operation } of withJsonBody) {
      const bed = api === 'payins' ? payins : b2b;
      const merchantId = bed.tenant.merchants[0].merchantId;
      const url = route.replace(/\{(\w+)\}/g, (_, name: string) => {
        if (name === 'merchantId') return merchantId;
        if (name === 'currency') return 'UYU';
        if (name === 'countryCode') return 'URY';
        return crypto.randomUUID();
      });
      // Business-wide routes (a merchant's settings) are sent as its business; the rest as the merchant.
      const client = route.startsWith('/merchant/') || route === '/merchant-country-processor' ? bed.business : bed.merchant;
      const send = { post: client.post, put: client.put, patch: client.patch }[method as 'post' | 'put' | 'patch'].bind(client);
      const example = exampleOf(operation)!;
      const body = Object.fromEntries(Object.entries(example).map(([field, value]) => [field, field in known ? known[field] : value]));
      const response = await send(url, body);
      answers.push(`${api} ${method} ${route} → ${response.status}`);
      // A 401 of the signature (Auth:…) would mean the request never reached the route; the settlement
      // account's confirmation answers 401 of its own to an unknown admin or code, after validation.
      const unsigned = response.status === 401 && String((response.body as { errorId?: string }).errorId).startsWith('Auth:');
      if (response.status === 400 || unsigned || response.status >= 500) {
        refused.push(`${api} ${method} ${route} → ${response.status} ${JSON.stringify(response.body)}`);
      }
    }
    expect(refused).toEqual([]);
    expect(answers).toHaveLength(32);
    // Taken, not only past validation: the creations among them succeed for a fresh tenant.
    for (const created of ['payins post /payer', 'payins post /webhook-endpoint', 'b2b post /payment-intent']) {
      expect(answers).toContainEqual(expect.stringMatching(new RegExp(`^${created.replace(/\//g, '\\/')} → 20[01]$`)));
    }
  });
});
