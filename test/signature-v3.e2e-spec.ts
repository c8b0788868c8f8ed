import { ApiCredentials, errorShape, hmacHex, signV3 } from '@pcs/testing';
import * as crypto from 'node:crypto';
import request from 'supertest';
import { operationsOf } from './openapi-operations';
import { startB2bApi, startPayinsApi } from './payins-app';
import { Testbed, testbed } from './testbed';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Signing version 3 (contract §29): RFC 9421 HTTP Message Signatures with
 * HMAC-SHA256 over the method, the path, the query and the body's
 * Content-Digest; a nonce accepted once per api-key, reads included. Real
 * HTTP against the real app; the signatures are made by the tests' own
 * signer (libs/testing), written from the contract.
 */
describe('signing version 3 (RFC 9421)', () => {
  let bed: Testbed;
  const someId = '00000000-0000-4000-8000-00000000abcd';

  beforeAll(async () => {
    bed = await testbed({ payer: { firstName: 'Sig', lastName: 'Three', email: 'sig3@example.uy' } });
  });
  afterAll(() => bed.close());

  const server = () => bed.app.getHttpServer();
  const merchant = () => bed.tenant.merchants[0];
  const now = () => Math.floor(Date.now() / 1000);

  const v1 = (method: Method, path: string, body?: unknown, credentials: ApiCredentials = merchant()) => {
    const payload = body === undefined ? '{}' : JSON.stringify(body);
    const test = request(server())
      [method](path)
      .set('api-key', credentials.apiKey)
      .set('signature', hmacHex(credentials.apiSecret, payload));
    return body === undefined ? test : test.set('content-type', 'application/json').send(payload);
  };
  let lastAt = 0;
  const v2 = (method: Method, path: string, body?: unknown, credentials: ApiCredentials = merchant()) => {
    const payload = body === undefined ? '{}' : JSON.stringify(body);
    const at = Math.max(now(), lastAt + 1);
    lastAt = at;
    const test = request(server())
      [method](path)
      .set('api-key', credentials.apiKey)
      .set('timestamp', String(at))
      .set('signature', hmacHex(credentials.apiSecret, `${at}.${payload}`));
    return body === undefined ? test : test.set('content-type', 'application/json').send(payload);
  };
  const v3 = (method: Method, path: string, body?: unknown, credentials: ApiCredentials = merchant(), app = bed.app) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const test = request(app.getHttpServer())
      [method](path)
      .set(signV3(credentials, method, path, payload));
    return payload === undefined ? test : test.set('content-type', 'application/json').send(payload);
  };
  const unauthorized = (response: request.Response) => {
    expect([response.status, response.body]).toEqual([401, errorShape('Auth:UNAUTHORIZED')]);
  };
  const versionRequired = (response: request.Response) => {
    expect([response.status, response.body]).toEqual([401, errorShape('Auth:SIGNATURE_VERSION_REQUIRED')]);
    expect(response.body.showMessage.ES).toMatch(/versión 3/);
  };

  /**
   * Every row of the tables a change could touch, as one digest: not the audit, the nonces, the credentials' uses and the
   * rate counters that a refusal writes, nor the webhook deliveries the queue worker goes on attempting meanwhile (the
   * events they deliver are in).
   */
  const fingerprint = async (): Promise<string> => {
    const tables = await bed.query<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public'
         AND tablename NOT IN ('dashboard_audit', 'signed_request', 'api_credential', 'api_credential_use', 'rate_limit',
                               'webhook_delivery', 'webhook_attempt', 'migrations', 'typeorm_metadata')
       ORDER BY tablename`,
    );
    const digests: string[] = [];
    for (const { tablename } of tables) {
      // An event's dispatch time is the dispatcher's to set, whenever it gets to it: the events themselves are what counts.
      const row_ = tablename === 'event' ? 'row(t.event_id, t.type, t.subject_id, t.sequence, t.payload)::text' : 't::text';
      const [row] = await bed.query<{ d: string | null }>(
        `SELECT md5(string_agg(${row_}, '|' ORDER BY ${row_})) AS d FROM "${tablename}" t`,
      );
      digests.push(`${tablename}:${row.d ?? '-'}`);
    }
    return digests.join('\n');
  };

  it('takes a version 3 read and change; each nonce is accepted once, reads included, in any process of the service', async () => {
    const read = signV3(merchant(), 'GET', '/payer?limit=1');
    expect((await request(server()).get('/payer?limit=1').set(read)).status).toBe(200);
    unauthorized(await request(server()).get('/payer?limit=1').set(read));

    const body = JSON.stringify({ firstName: 'Nonce', lastName: 'Once' });
    const change = signV3(merchant(), 'POST', '/payer', body);
    const created = await request(server()).post('/payer').set(change).set('content-type', 'application/json').send(body);
    expect(created.status).toBe(200);
    // The same request again, here and in a second process of the service: refused, nothing created.
    const other = await startPayinsApi();
    try {
      unauthorized(await request(other.getHttpServer()).post('/payer').set(change).set('content-type', 'application/json').send(body));
      unauthorized(await request(server()).post('/payer').set(change).set('content-type', 'application/json').send(body));
      // A fresh nonce in the other process: accepted.
      expect((await v3('get', '/payer?limit=1', undefined, merchant(), other)).status).toBe(200);
    } finally {
      await other.close();
    }
    const [row] = await bed.query<{ n: number }>(`SELECT count(*)::int AS n FROM payer WHERE last_name = 'Once' AND merchant_id = $1`, [
      merchant().merchantId,
    ]);
    expect(row.n).toBe(1);
  });

  it('accepts one of many copies of a request sent at once (nonces recorded in groups), and distinct nonces all', async () => {
    const body = JSON.stringify({ firstName: 'Copies', lastName: 'AtOnce' });
    const copy = signV3(merchant(), 'POST', '/payer', body);
    const sendCopy = () => request(server()).post('/payer').set(copy).set('content-type', 'application/json').send(body);
    const reads = Array.from({ length: 8 }, () => v3('get', '/payer?limit=1'));
    const answers = await Promise.all([...Array.from({ length: 10 }, sendCopy), ...reads]);
    expect(
      answers
        .slice(0, 10)
        .map((answer) => answer.status)
        .sort(),
    ).toEqual([200, ...Array<number>(9).fill(401)]);
    expect(answers.slice(10).map((answer) => answer.status)).toEqual(Array<number>(8).fill(200));
    const [row] = await bed.query<{ n: number }>(`SELECT count(*)::int AS n FROM payer WHERE last_name = 'AtOnce'`);
    expect(row.n).toBe(1);
  });

  it('refuses a wrong key, secret, time, digest or nonce with one 401, and an api-key header that is not the keyid', async () => {
    const body = JSON.stringify({ firstName: 'Wrong', lastName: 'Sig' });
    const send = (headers: Record<string, string>, sent = body) =>
      request(server()).post('/payer').set(headers).set('content-type', 'application/json').send(sent);
    unauthorized(await send(signV3({ apiKey: merchant().apiKey, apiSecret: 'not-the-secret' }, 'POST', '/payer', body)));
    unauthorized(await send(signV3({ apiKey: 'pk_nobody', apiSecret: merchant().apiSecret }, 'POST', '/payer', body)));
    unauthorized(await send(signV3(merchant(), 'POST', '/payer', body, { created: now() - 301 })));
    // Ahead by 305, not 301: the server reads its clock a moment after this one, across a second's
    // turn at worst, so 301 ahead here can be 300 ahead there (a clean-clone run saw it accepted).
    unauthorized(await send(signV3(merchant(), 'POST', '/payer', body, { created: now() + 305 })));
    unauthorized(await send(signV3(merchant(), 'POST', '/payer', body), JSON.stringify({ firstName: 'Other', lastName: 'Sig' })));
    unauthorized(await send({ ...signV3(merchant(), 'POST', '/payer', body), 'api-key': bed.tenant.business.apiKey }));
    unauthorized(await send(signV3(merchant(), 'POST', '/payer', body, { nonce: 'short' })));
    // Another tenant's key named in keyid with this merchant's secret: nothing.
    unauthorized(await send(signV3({ apiKey: bed.tenant.business.apiKey, apiSecret: merchant().apiSecret }, 'POST', '/payer', body)));
    const [row] = await bed.query<{ n: number }>(`SELECT count(*)::int AS n FROM payer WHERE last_name = 'Sig'`);
    expect(row.n).toBe(0);
  });

  it('answers every malformed Signature-Input, Signature or Content-Digest with 401 in the contract’s shape, never a 500', async () => {
    const body = JSON.stringify({ firstName: 'Malformed', lastName: 'Headers' });
    const good = signV3(merchant(), 'POST', '/payer', body);
    const input = good['signature-input'];
    const variants: Record<string, string>[] = [
      { 'signature-input': 'pcs=("@method" "@path"' },
      { 'signature-input': '(((' },
      { 'signature-input': `${input}, ${input}` },
      { 'signature-input': input.replace('hmac-sha256', 'ed25519') },
      { 'signature-input': input.replace(' "content-digest"', '') },
      { 'signature-input': input.replace('"@method" ', '') },
      { 'signature-input': input.replace('"@method"', '"@method" "@status"') },
      { 'signature-input': input.replace(/created=\d+/, `created=${now() + 3600}`) },
      { 'signature-input': input.replace(/created=\d+/, 'created=99999999999999999999') },
      { 'signature-input': input.replace(/nonce="[^"]+"/, 'nonce=""') },
      { 'signature-input': 'pcs=("@méthod");created=1' },
      { signature: 'pcs=:not base64:' },
      { signature: `${good.signature}, ${good.signature}` },
      { signature: 'pcs=?1' },
      { 'content-digest': 'sha-256=:' + crypto.createHash('sha256').update('{}').digest('base64') + ':' },
      { 'content-digest': 'md5=:AAAA:' },
      { 'content-digest': 'garbage' },
    ];
    for (const variant of variants) {
      const answer = await request(server())
        .post('/payer')
        .set({ ...good, ...variant })
        .set('content-type', 'application/json')
        .send(body);
      expect([variant, answer.status, answer.body]).toEqual([variant, 401, errorShape('Auth:UNAUTHORIZED')]);
    }
    // The good one still passes (its nonce was never recorded by the refusals above).
    expect((await request(server()).post('/payer').set(good).set('content-type', 'application/json').send(body)).status).toBe(200);
  });

  it('requires version 3 where §29 says, after the credential is verified: versions 1 and 2 get SIGNATURE_VERSION_REQUIRED, an unknown key or wrong signature only 401 UNAUTHORIZED', async () => {
    const merchantId = merchant().merchantId;
    const business = bed.tenant.business;
    const intentId = await bed.paidIntent(500);
    const changes: [Method, string, unknown, ApiCredentials?][] = [
      ['post', `/merchant/${merchantId}/payout`, { currency: 'UYU' }],
      ['post', `/payout/${someId}/cancel`, { reason: 'x' }],
      ['put', `/merchant/${merchantId}/settlement-account/UYU`, { bankId: someId, accountNumber: '001234567', accountType: 'CHECKING' }],
      ['post', `/merchant/${merchantId}/settlement-account/UYU/confirm`, { confirmation: 'not.theirs' }],
      ['put', `/merchant/${merchantId}/gateway-account/mercado-pago`, { accessToken: 'APP_USR-1', fundsFlow: 'PLATFORM' }],
      ['put', `/merchant/${merchantId}/gateway-account/dlocal`, { xLogin: 'x', xTransKey: 'y', secretKey: 'z' }],
      ['post', `/webhook-endpoint/${someId}/rotate-secret`, { graceMinutes: 0 }],
      ['post', `/dispute/${someId}/submit`, { note: 'x' }],
      ['post', `/dispute/${someId}/accept`, { note: 'x' }],
      ['post', `/payment-intent/${intentId}/refund`, { requestedRefundAmount: 1 }],
      ['post', `/payment-intent/${intentId}/manual-refund`, { status: 'MANUAL_REFUND_PENDING', requestedRefundAmount: 1 }],
      ['post', '/webhook-endpoint', { url: 'https://example.com/hooks', enabledEvents: ['*'] }],
      ['patch', `/webhook-endpoint/${someId}`, { url: 'https://example.com/other' }],
      ['post', '/merchant-country-processor', { merchantId, countryProcessorIds: [someId] }, business],
      ['patch', `/merchant-country-processor/${someId}`, { active: false }, business],
      [
        'patch',
        `/merchant/${merchantId}`,
        { account: { settlementBank: { bankId: someId, accountNumber: '1', currency: 'UYU' } } },
        business,
      ],
    ];
    const deletions: string[] = [
      `/payer/${someId}`,
      `/link/${someId}`,
      `/webhook-endpoint/${someId}`,
      `/merchant/${someId}`,
      `/merchant/${merchantId}/gateway-account/mercado-pago`,
      `/merchant/${merchantId}/gateway-account/dlocal`,
    ];
    const all: [Method, string, unknown, ApiCredentials?][] = [
      ...changes,
      ...deletions.map((path): [Method, string, unknown] => ['delete', path, undefined]),
    ];
    for (const [method, path, body, credentials = merchant()] of all) {
      versionRequired(await v1(method, path, body, credentials));
      versionRequired(await v2(method, path, body, credentials));
      // Unproven callers learn nothing of the route's rule.
      unauthorized(await v1(method, path, body, { apiKey: 'pk_unknown', apiSecret: credentials.apiSecret }));
      unauthorized(await v1(method, path, body, { apiKey: credentials.apiKey, apiSecret: 'wrong' }));
      const answer = await v3(method, path, body, credentials);
      expect([method, path, answer.status]).not.toEqual([method, path, 401]);
    }
    // Nothing was refunded by the refused ones; the version-3 refund and manual refund of 1.00 each were.
    const intent = await bed.merchant.get(`/payment-intent/${intentId}`);
    expect(intent.body.refundedAmount).toBe(2);
  });

  it('keeps versions 1 and 2 for reads and the specification’s other changes, but never a version 1 or 2 signature of no body on a change', async () => {
    expect((await v1('get', '/payer?limit=1')).status).toBe(200);
    expect((await v2('get', '/payer?limit=1')).status).toBe(200);
    expect((await v1('post', '/payer', { firstName: 'Still', lastName: 'Version-one' })).status).toBe(200);
    expect((await v2('post', '/payer', { firstName: 'Still', lastName: 'Version-two' })).status).toBe(200);
    // `{}` is what every GET signs: refused on a change even where version 1 is otherwise fine, before any validation.
    versionRequired(await v1('post', '/payer', {}));
    versionRequired(await v1('post', `/link/${someId}/share`));
    versionRequired(await v2('post', `/event/${someId}/redeliver`));
    versionRequired(
      await request(server())
        .post('/payer')
        .set('api-key', merchant().apiKey)
        .set('signature', hmacHex(merchant().apiSecret, '{ }'))
        .set('content-type', 'application/json')
        .send('{ }'),
    );
  });

  it('a captured GET signature of versions 1, 2 and 3, replayed on every change of both APIs, changes nothing', async () => {
    const business = bed.tenant.business;
    const merchantId = merchant().merchantId;
    const intentId = await bed.paidIntent(700);
    const endpoint = await bed.merchant.post('/webhook-endpoint', {
      url: 'https://example.com/replay',
      enabledEvents: ['payment_intent.succeeded'],
    });
    expect(endpoint.status).toBe(200);
    const ids: Record<string, string> = {
      merchantId,
      paymentIntentId: intentId,
      payerId: bed.payerId,
      webhookEndpointId: endpoint.body.webhookEndpointId,
      currency: 'UYU',
    };
    const b2b = await startB2bApi();
    try {
      const before = await fingerprint();
      // What a proxy log keeps of a GET each credential sent (and that was answered).
      const captured: { version: number; credentials: ApiCredentials; headers: Record<string, string> }[] = [];
      for (const credentials of [merchant(), business]) {
        const at = now();
        captured.push(
          { version: 1, credentials, headers: { 'api-key': credentials.apiKey, signature: hmacHex(credentials.apiSecret, '{}') } },
          {
            version: 2,
            credentials,
            headers: { 'api-key': credentials.apiKey, timestamp: String(at), signature: hmacHex(credentials.apiSecret, `${at}.{}`) },
          },
          { version: 3, credentials, headers: signV3(credentials, 'GET', '/merchant') },
        );
      }
      for (const { headers } of captured) expect((await request(server()).get('/merchant').set(headers)).status).toBe(200);

      const operations = [...operationsOf('payins'), ...operationsOf('b2b')].filter((operation) => operation.method !== 'get');
      expect(operations.length).toBeGreaterThan(30);
      const answers: string[] = [];
      for (const operation of operations) {
        const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? someId);
        const target = operation.api === 'b2b' ? b2b.getHttpServer() : server();
        for (const { version, headers } of captured) {
          const answer = await request(target)[operation.method](path).set(headers);
          answers.push(`${version} ${operation.method} ${path} ${answer.status} ${answer.body.errorId}`);
          expect([version, operation.method, path, answer.status]).toEqual([version, operation.method, path, 401]);
        }
      }
      expect(await fingerprint()).toBe(before);
      expect((await bed.merchant.get(`/payment-intent/${intentId}`)).body.refundedAmount).toBe(0);
      // Versions 1 and 2 are told the version they need once the key is proved; version 3 fails its own base.
      expect(answers.filter((line) => line.startsWith('3 ')).every((line) => line.endsWith('Auth:UNAUTHORIZED'))).toBe(true);
    } finally {
      await b2b.close();
    }
  });
});
