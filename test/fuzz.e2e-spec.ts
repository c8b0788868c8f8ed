import { INestApplication } from '@nestjs/common';
import { Currency } from '@pcs/kernel';
import { ReconciliationRunsService } from '@pcs/processor-reports';
import { BalancesService } from '@pcs/settlement';
import { DisputeReports } from '@pcs/disputes';
import { hmacHex, multipartBody, pdfFile, pngFile, SignedClient, signV3, TestTenant } from '@pcs/testing';
import fc from 'fast-check';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { startB2bApi } from './payins-app';
import { Document, operationsOf, resolve, Schema } from './openapi-operations';
import { Testbed, testbed } from './testbed';

/**
 * Generated bad requests for every route of both committed OpenAPI
 * documents: hostile path parameters, queries and bodies built from each
 * operation's own schema, mostly correctly signed so they reach validation.
 * Asserted for every one: never a 5xx, every refusal in the error shape, and
 * a refused request changes nothing (the tenant's rows, fingerprinted before
 * and after). Seeded and reproducible: FUZZ_SEED and FUZZ_RUNS override.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Values no field should accept as they are, or should accept only after checking them. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    [],
    [{}],
    {},
    '',
    ' ',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    -1,
    0,
    1e308,
    1e20,
    0.001,
    123.456,
    true,
    'x'.repeat(5000),
    '4111 1111 1111 1111',
    "'; DROP TABLE payin; --",
    '%00',
    '😀',
    '00000000-0000-0000-0000-000000000000',
    'URY',
    'UYU',
  ),
  fc.constant(nested(40)),
  fc.constant(JSON.parse('{"__proto__":{"polluted":true}}')),
  fc.constant(JSON.parse('{"constructor":{"prototype":{"polluted":true}}}')),
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.uuid(),
);

interface KnownIds {
  readonly [name: string]: string[];
}

/** Something of the schema's shape (often valid), to carry the hostile parts deeper into the validators. */
function plausible(schema: Schema, doc: Document, known: KnownIds, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, doc);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.format === 'uuid') return fc.oneof(fc.uuid(), fc.constantFrom(...Object.values(known).flat()));
  switch (Array.isArray(s.type) ? s.type.find((type) => type !== 'null') : s.type) {
    case 'string':
      return fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom('URY', 'UYU', 'VISA', 'CREDIT_CARD', 'ana@example.uy', '+59899123456', '2026-11-23'),
      );
    case 'number':
    case 'integer':
      return fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.constantFrom(10.5, 122));
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(s.items && depth < 3 ? plausible(s.items, doc, known, depth + 1) : hostileValue, { maxLength: 3 });
    default:
      return s.properties && depth < 3
        ? bodyOf(s, doc, known, depth + 1)
        : fc.dictionary(fc.string({ maxLength: 6 }), hostileValue, { maxKeys: 2 });
  }
}

function bodyOf(schema: Schema, doc: Document, known: KnownIds, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const s = resolve(schema, doc);
  const fields = Object.entries(s.properties ?? {}).map(([name, property]) =>
    fc
      .option(fc.oneof({ weight: 2, arbitrary: plausible(property, doc, known, depth) }, { weight: 1, arbitrary: hostileValue }), {
        nil: undefined,
      })
      .map((value) => [name, value] as const),
  );
  return fc
    .tuple(
      fc.tuple(...fields),
      fc.option(fc.tuple(fc.constantFrom('unknownField', 'constructor', '__proto__', 'cvv', 'a\u0000'), hostileValue), { freq: 5 }),
    )
    .map(([entries, extra]) => {
      const body: Record<string, unknown> = {};
      for (const [name, value] of entries) if (value !== undefined) body[name] = value;
      if (extra) Object.defineProperty(body, extra[0], { value: extra[1], enumerable: true, configurable: true, writable: true });
      return body;
    });
}

const rawBodies = fc.constantFrom(
  'not json',
  '{',
  '[',
  'null',
  '"text"',
  '[1,2]',
  '{"a":1,}',
  `${'['.repeat(2000)}${']'.repeat(2000)}`,
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
);
/** Hostile uploads (contract §21): every part a file field could get wrong, and bodies that are not multipart at all. */
const multipartBodies = fc.constantFrom<{ body: Buffer; contentType: string }>(
  multipartBody([{ fileName: 'a.pdf', contentType: 'image/png', content: pdfFile() }]),
  multipartBody([{ fileName: 'a.exe', contentType: 'application/pdf', content: pdfFile() }]),
  multipartBody([{ fileName: 'a.pdf', contentType: 'application/pdf', content: '<script>alert(1)</script>' }]),
  multipartBody([{ fileName: 'a\u0000.pdf', contentType: 'application/pdf', content: pdfFile() }]),
  multipartBody([{ fileName: 'x'.repeat(400), contentType: 'application/pdf', content: pdfFile() }]),
  multipartBody([{ fileName: 'a.png', contentType: 'image/png', content: pngFile().subarray(0, 30) }]),
  multipartBody([{ field: '__proto__', fileName: 'a.pdf', contentType: 'application/pdf', content: pdfFile() }]),
  multipartBody([{ field: 'file', content: '4111 1111 1111 1111' }]),
  multipartBody(Array.from({ length: 6 }, () => ({ fileName: 'a.pdf', contentType: 'application/pdf', content: pdfFile() }))),
  multipartBody([{ fileName: 'a.pdf', contentType: 'application/pdf', content: pdfFile() }], { truncate: 10 }),
  multipartBody([]),
  { body: Buffer.from('--x\r\nContent-Disposition: form-data\r\n\r\n'), contentType: 'multipart/form-data; boundary=x' },
  { body: Buffer.from('not multipart'), contentType: 'multipart/form-data' },
  { body: Buffer.from('%PDF-1.4'), contentType: 'application/pdf' },
);

const hostileQueryValue = fc.oneof(
  fc.constantFrom(
    '%00',
    '-1',
    '0',
    '1e400',
    '99999999999999999999',
    '',
    'abc',
    '%ED%A0%80',
    '1.5',
    '2026-13-45',
    'DESC',
    'APPROVED',
    'UYU',
    '%E0%A4%A',
  ),
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
);
const hostilePathValue = fc.oneof(
  fc.uuid(),
  fc.constantFrom(
    'not-a-uuid',
    '%00',
    '..%2F..%2Fmerchant',
    'x'.repeat(300),
    '00000000-0000-0000-0000-000000000000',
    '%ED%A0%80',
    'URY',
    'ZZZ',
    "1'%20OR%20'1'='1",
  ),
);

describe('fuzz: generated bad requests on every documented route', () => {
  let bed: Testbed;
  let merchant: SignedClient;
  let payins: INestApplication;
  let b2b: INestApplication;
  let tenant: TestTenant;
  let dataSource: DataSource;
  let known: KnownIds;
  const operations = [...operationsOf('payins'), ...operationsOf('b2b')];

  beforeAll(async () => {
    bed = await testbed({
      name: 'Fuzz business',
      payer: { firstName: 'Fuzz', lastName: 'Target', email: 'fuzz@example.uy' },
      // Payouts stay as made: the rail's background steps would change rows between a refused request's fingerprints.
      settlement: { pollSeconds: 3600 },
    });
    ({ app: payins, dataSource, tenant, merchant } = bed);
    b2b = await startB2bApi();
    const payer = { payerId: bed.payerId };
    const instrument = (await merchant.post('/payment-instrument', { payerId: payer.payerId, paymentMethodName: 'VISA', country: 'URY' }))
      .body;
    const intent = (
      await merchant.post('/payment-intent', {
        currency: 'UYU',
        amount: 500,
        payinType: 'DEFAULT',
        externalReference: 'fuzz',
        payerId: payer.payerId,
        offSession: true,
        invoiceNumber: 1,
        country: 'URY',
        paymentInstrumentId: instrument.paymentInstrumentId,
        confirm: true,
      })
    ).body.paymentIntent;
    const relations = (await merchant.get(`/merchant-country-processor?merchantId=${tenant.merchants[0].merchantId}`)).body;
    // Money to pay out, an account to pay it to, a payout and a reconciliation run (contract §19).
    const merchantId = tenant.merchants[0].merchantId;
    const brou = ((await merchant.get('/bank?country=URY')).body as { bankId: string; code: string }[]).find(
      (b) => b.code === '001',
    )!.bankId;
    await merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, {
      bankId: brou,
      accountNumber: '00123456700001',
      accountType: 'SAVINGS',
    });
    await payins.get(BalancesService).adjust(merchantId, tenant.business.businessId, 'UYU' as Currency, 1_000_000, 'fuzz');
    const payout = (await merchant.post(`/merchant/${merchantId}/payout`, { currency: 'UYU', amount: 10 })).body;
    const run = await payins.get(ReconciliationRunsService).run(merchantId, '2026-11-24', '2026-11-24');
    // A dispute of the paid intent (contract §21), to upload evidence to, submit and accept.
    const disputeId = await payins.get(DisputeReports).openSandbox({ paymentIntentId: intent.paymentIntentId });
    known = {
      merchantId: [tenant.merchants[0].merchantId],
      payerId: [payer.payerId],
      paymentInstrumentId: [instrument.paymentInstrumentId],
      paymentIntentId: [intent.paymentIntentId],
      merchantCountryProcessorId: [relations[0].merchantCountryProcessorId],
      countryProcessorId: [relations[0].countryProcessor.countryProcessorId],
      payoutId: [payout.payoutId],
      runId: [run.runId],
      disputeId: [disputeId],
      bankId: [brou],
      currency: ['UYU', 'USD'],
    };
  });
  afterAll(async () => {
    await b2b.close();
    await bed.close();
  });

  /** The tenant's rows, hashed: equal before and after a refused request. */
  const fingerprint = async (): Promise<string> => {
    const of = (table: string, where: string) =>
      `(SELECT coalesce(string_agg(t::text, ',' ORDER BY t::text), '') FROM ${table} t WHERE ${where})`;
    const byBusiness = 't.business_id = $1';
    const byMerchant = 't.merchant_id IN (SELECT merchant_id FROM merchant WHERE business_id = $1)';
    const [{ hash }] = await dataSource.query(
      `SELECT md5(concat_ws('|', ${[
        of('merchant', byBusiness),
        of('business_country_processor', byBusiness),
        of('merchant_configuration', byMerchant),
        of('merchant_country_configuration', byMerchant),
        of('merchant_country_processor', byMerchant),
        of('payer', byBusiness),
        of('payment_instrument', byBusiness),
        of('payment_intent', byBusiness),
        of('payin', byBusiness),
        of('balance_transaction', byBusiness),
        of('balance_figure', byMerchant),
        of('settlement_account', byBusiness),
        of('payout', byBusiness),
        of('merchant_pricing', byMerchant),
        of('reconciliation_run', byBusiness),
        of('gateway_account', byBusiness),
        of('dispute', byBusiness),
        `(SELECT coalesce(string_agg(t.evidence_id::text || t.sha256, ',' ORDER BY t.evidence_id), '') FROM dispute_evidence t
           WHERE t.dispute_id IN (SELECT dispute_id FROM dispute WHERE business_id = $1))`,
      ].join(', ')})) AS hash`,
      [tenant.business.businessId],
    );
    return hash;
  };

  const requestArbitrary = fc.constantFrom(...operations).chain((op) =>
    fc.record({
      op: fc.constant(op),
      pathValues: fc.tuple(
        ...op.pathParams.map((name) =>
          // DELETE never gets the tenant's real ids: deleting them would only shrink what the rest reaches.
          op.method === 'delete' || !known[name] ? hostilePathValue : fc.oneof(fc.constantFrom(...known[name]), hostilePathValue),
        ),
      ),
      query: fc.array(
        fc.oneof(
          fc
            .constantFrom(...(op.query.length ? op.query.map((q) => q.name) : ['x']))
            .chain((name) => hostileQueryValue.map((value) => `${name}=${value}`)),
          fc.constantFrom('unknown=1', 'page=1&page=2', 'searchTerm[]=x', 'limit=101'),
        ),
        { maxLength: 3 },
      ),
      upload: op.multipart ? fc.option(multipartBodies, { freq: 6 }) : fc.constant(null),
      body: op.body
        ? fc.oneof(
            { weight: 6, arbitrary: bodyOf(op.body, op.doc, known).map((b) => JSON.stringify(b)) },
            { weight: 1, arbitrary: rawBodies },
          )
        : fc.option(rawBodies, { freq: 4 }),
      signer: fc.constantFrom<'business' | 'merchant' | 'none' | 'wrong'>('business', 'business', 'merchant', 'merchant', 'none', 'wrong'),
      // Signing version 1, version 2 with a current, stale or hostile timestamp (contract §17), or version 3 (RFC 9421,
      // contract §29: what refunds, deletions and the other guarded changes take), well formed or with hostile fields.
      timestamp: fc.constantFrom<'none' | 'now' | 'stale' | 'junk' | 'v3' | 'v3-junk'>(
        'none',
        'now',
        'stale',
        'junk',
        'v3',
        'v3',
        'v3',
        'v3-junk',
      ),
      junk: fc.constantFrom(
        { 'signature-input': 'pcs=("@method" "@path");created=1;nonce="x";keyid="k"' },
        { 'signature-input': '((((' },
        { signature: 'pcs=?0' },
        { 'content-digest': 'sha-256=:AAAA:' },
        { 'signature-input': 'pcs=("@method" "@path" "@status");created=9999999999999999;nonce="aaaaaaaaaaaaaaaaaaaa";keyid="k"' },
      ),
    }),
  );

  it(`answers ${RUNS} generated bad requests (seed ${SEED}) with no 5xx, the error shape, and no change when refused`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArbitrary, async ({ op, pathValues, query, body, upload, signer, timestamp, junk }) => {
        let url = op.path;
        op.pathParams.forEach((name, i) => (url = url.replace(`{${name}}`, pathValues[i])));
        if (query.length) url += `?${query.join('&')}`;
        const payload: string | Buffer = upload?.body ?? body ?? '{}';
        const app = op.api === 'payins' ? payins : b2b;
        let test = request(app.getHttpServer())[op.method](url);
        if (signer !== 'none') {
          const credentials = signer === 'merchant' ? tenant.merchants[0] : tenant.business;
          const secret = signer === 'wrong' ? 'not the secret' : credentials.apiSecret;
          if (timestamp === 'v3' || timestamp === 'v3-junk') {
            const sent = upload?.body ?? body ?? undefined;
            test = test.set(signV3({ apiKey: credentials.apiKey, apiSecret: secret }, op.method, url, sent));
            if (timestamp === 'v3-junk') test = test.set(junk);
          } else {
            const at = {
              none: '',
              now: String(Math.floor(Date.now() / 1000)),
              stale: String(Math.floor(Date.now() / 1000) - 301),
              junk: '1e9',
            }[timestamp];
            const signed = at ? Buffer.concat([Buffer.from(`${at}.`), Buffer.from(payload)]) : payload;
            test = test.set('api-key', credentials.apiKey).set('signature', hmacHex(secret, signed));
            if (at) test = test.set('timestamp', at);
          }
        }
        if (upload) test = test.set('content-type', upload.contentType).send(upload.body);
        else if (body !== null) test = test.set('content-type', 'application/json').send(body);
        const mutating = op.method !== 'get';
        const before = mutating ? await fingerprint() : '';
        const response = await test;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const context = `${op.method.toUpperCase()} ${url} ${Buffer.isBuffer(payload) ? `(${payload.length} bytes)` : payload.slice(0, 300)} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
        if (response.status >= 500) throw new Error(`5xx: ${context}`);
        if (response.status >= 400) {
          expect(response.headers['content-type']).toMatch(/^application\/json/);
          expect(Object.keys(response.body).sort()).toEqual(['errorId', 'message', 'needUpdate', 'showMessage']);
          expect(response.body.errorId).toMatch(/^(Auth|Payins|B2B|Validation):[A-Z_]+$/);
          expect(response.body.showMessage.ES).not.toBe(response.body.showMessage.EN);
          if (mutating && (await fingerprint()) !== before) throw new Error(`a refused request changed data: ${context}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    process.stderr.write(
      `[fuzz] seed ${SEED}, ${RUNS} requests over ${operations.length} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`,
    );
    // Most requests must be refused (that is what the generator aims at), and some must get through.
    expect([...statuses].filter(([s]) => s >= 400).reduce((n, [, c]) => n + c, 0)).toBeGreaterThan(RUNS / 2);
  }, 600_000);
});
