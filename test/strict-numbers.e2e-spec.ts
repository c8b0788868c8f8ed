import { Document, Operation, operationsOf, resolve, Schema } from './openapi-operations';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

/**
 * No number from anything else (contract §24): every number field of every request body of both APIs (payout amounts, payment
 * amounts, tips, link amounts, refund amounts, schedule anchors and minimums…) and every number parameter of every list (page,
 * limit, pageSize, minAmount…) is sent a string, a boolean, hexadecimal, an exponent and padded digits, each alone: every one is a
 * 400 naming that field. (`Number("0x10")` is 16 and `Number(true)` 1: a payout of `"0x10"` once paid 16.00.)
 */
type Case = { readonly api: 'payins' | 'b2b'; readonly method: Operation['method']; readonly path: string; readonly field: string };

const BODY_VALUES: unknown[] = ['1', '0x10', true, '1e2', ' 12', '12,5'];
const QUERY_VALUES = ['0x10', 'true', '1e2', ' 1', '+1', '1_0', '0b1', 'Infinity'];

/** The number fields of a body schema, as dotted paths (an array's first item, a map's `UYU`). */
function numberFields(schema: Schema & { additionalProperties?: Schema | boolean }, doc: Document, prefix = '', depth = 0): string[] {
  if (depth > 4) return [];
  const s = resolve(schema, doc) as Schema & { additionalProperties?: Schema | boolean };
  const types = ([] as string[]).concat(s.type ?? []);
  if (types.includes('number') || types.includes('integer')) return [prefix];
  if (types.includes('array') && s.items) return numberFields(s.items, doc, `${prefix}.0`, depth + 1);
  const fields = Object.entries(s.properties ?? {}).flatMap(([name, property]) =>
    numberFields(property, doc, prefix ? `${prefix}.${name}` : name, depth + 1),
  );
  if (s.additionalProperties && typeof s.additionalProperties === 'object')
    fields.push(...numberFields(s.additionalProperties, doc, `${prefix}.UYU`, depth + 1));
  return fields;
}

function bodyWith(field: string, value: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node: Record<string, unknown> | unknown[] = root;
  const parts = field.split('.');
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    const next = last ? value : /^\d+$/.test(parts[i + 1]) ? [] : {};
    if (Array.isArray(node)) node.push(next);
    else node[part] = next;
    if (!last) node = next as Record<string, unknown> | unknown[];
  });
  return root;
}

const fill = (route: string) => route.replace(/\{[^}]+\}/g, '5d0c1f7e-3b1a-4c62-9a8e-2f4b6c8d0e1a');

describe('numbers are numbers: no string, boolean or hexadecimal becomes one, on any route', () => {
  let payins: HttpTestbed;
  let b2b: HttpTestbed;

  beforeAll(async () => {
    [payins, b2b] = await Promise.all([sharedTestbed(), sharedTestbed({ api: 'b2b' })]);
  });
  afterAll(async () => {
    await Promise.all([payins.close(), b2b.close()]);
  });

  const bodyCases: Case[] = (['payins', 'b2b'] as const).flatMap((api) =>
    operationsOf(api)
      .filter((op) => op.body)
      .flatMap((op) => numberFields(op.body!, op.doc).map((field) => ({ api, method: op.method, path: op.path, field }))),
  );
  const queryCases: Case[] = (['payins', 'b2b'] as const).flatMap((api) =>
    operationsOf(api).flatMap((op) =>
      op.query
        .filter((q) => ([] as string[]).concat(resolve(q.schema, op.doc).type ?? []).some((t) => t === 'number' || t === 'integer'))
        .map((q) => ({ api, method: op.method, path: op.path, field: q.name })),
    ),
  );

  it('finds the money fields and list numbers it is about (the payout amount, page and limit among them)', () => {
    expect(bodyCases).toEqual(
      expect.arrayContaining([{ api: 'payins', method: 'post', path: '/merchant/{merchantId}/payout', field: 'amount' }]),
    );
    expect(bodyCases.filter((c) => c.field.endsWith('amount') || c.field.endsWith('Amount')).length).toBeGreaterThan(8);
    expect(queryCases.filter((c) => c.field === 'page').length).toBeGreaterThanOrEqual(8);
    expect(queryCases.some((c) => c.api === 'b2b' && c.field === 'pageSize')).toBe(true);
  });

  it('refuses each non-number in each number field of each body with a 400 naming the field', async () => {
    const failures: string[] = [];
    for (const c of bodyCases)
      for (const value of BODY_VALUES) {
        const client = c.api === 'payins' ? payins.merchant : b2b.merchant;
        const answer = await client[c.method as 'post'](fill(c.path), bodyWith(c.field, value));
        // A map's entry is named by its map (minimumAmount.UYU → minimumAmount), an array's by its list.
        const name = c.field
          .split('.')
          .filter((part) => !/^(\d+|UYU)$/.test(part))
          .pop()!;
        const named = `${answer.body?.message ?? ''}`.includes(name);
        if (answer.status !== 400 || !named)
          failures.push(`${c.method} ${c.path} ${c.field}=${JSON.stringify(value)} → ${answer.status} ${answer.body?.message}`);
      }
    expect(failures).toEqual([]);
  });

  it('refuses each non-number in each number parameter of each query with a 400 naming it', async () => {
    const failures: string[] = [];
    for (const c of queryCases)
      for (const value of QUERY_VALUES) {
        const client = c.api === 'payins' ? payins.merchant : b2b.merchant;
        const answer = await client[c.method as 'get'](`${fill(c.path)}?${c.field}=${encodeURIComponent(value)}`);
        if (answer.status !== 400 || !`${answer.body?.message ?? ''}`.includes(c.field))
          failures.push(`${c.method} ${c.path}?${c.field}=${value} → ${answer.status} ${answer.body?.message}`);
      }
    expect(failures).toEqual([]);
  });

  it('still reads plain digits (and a decimal amount where one is allowed)', async () => {
    expect((await payins.merchant.get('/payin?page=2&limit=10&minAmount=10.5')).status).toBe(200);
    expect((await b2b.merchant.get('/payment-intent?page=1&pageSize=5')).status).toBe(200);
  });

  it('refuses a payout schedule without its interval (found by the fuzz test)', async () => {
    const merchantId = payins.tenant.merchants[0].merchantId;
    const answer = await payins.merchant.put(`/merchant/${merchantId}/configuration`, { payoutSchedule: { minimumAmount: { UYU: 10 } } });
    expect([answer.status, answer.body.errorId]).toEqual([400, 'Payins:ERROR_IN_UPDATE_MERCHANT_CONFIGURATION']);
    expect(answer.body.message).toContain('payoutSchedule.interval');
  });
});
