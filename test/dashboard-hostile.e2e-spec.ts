import { NestExpressApplication } from '@nestjs/platform-express';
import { readyPerson, signInOverHttp, testIdentity, testMasterKey } from './dashboard-people';
import { DisputeReports } from '@pcs/disputes';
import { multipartBody, pdfFile } from '@pcs/testing';
import * as crypto from 'node:crypto';
import * as net from 'node:net';
import request from 'supertest';
import { createDashboard } from '../apps/dashboard/src/dashboard';
import { freePort } from './payins-app';
import { Testbed, testbed } from './testbed';

/**
 * Hostile input on every dashboard route (forms and addresses): odd
 * characters, arrays, absurd numbers, huge bodies. Each gets a page (4xx or a
 * 200 that ignored what it could not use), never a 500, never a change, and
 * nothing typed comes back unescaped.
 */
describe('the dashboard under hostile input', () => {
  let bed: Testbed;
  let dashboard: NestExpressApplication;
  let cookie: string;
  let csrf: string;
  let intentId: string;
  let disputeId: string;

  const HOSTILE = [
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    '\u0000',
    '../../etc/passwd',
    '1e400',
    '-1',
    '１００',
    '0x10',
    'NaN',
    ' '.repeat(3),
    'ñ'.repeat(300),
    "'; DROP TABLE payin; --",
  ];

  beforeAll(async () => {
    bed = await testbed({ payer: { firstName: 'Hostile', lastName: 'Input' } });
    const payinsUrl = await bed.app.getUrl();
    dashboard = await createDashboard(
      {
        databaseUrl: process.env.TEST_DATABASE_URL!,
        payinsApiUrl: payinsUrl,
        apiKey: bed.tenant.business.apiKey,
        apiSecret: bed.tenant.business.apiSecret,
        trustProxy: false,
        secretsMasterKey: testMasterKey(),
      },
      'silent',
    );
    await dashboard.init();
    const person = await readyPerson(testIdentity(bed.dataSource), { businessId: bed.tenant.business.businessId, role: 'operator' });
    ({ cookie } = await signInOverHttp(dashboard.getHttpServer(), person));
    const page = await request(dashboard.getHttpServer()).get('/payments').set('cookie', cookie);
    csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    const created = await bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount: 500,
      payinType: 'DEFAULT',
      externalReference: 'hostile',
      payerId: bed.payerId,
      offSession: true,
      invoiceNumber: 1,
      country: 'URY',
      paymentInstrumentData: { paymentMethodName: 'OCA' },
      confirm: true,
    });
    intentId = created.body.paymentIntent.paymentIntentId;
    disputeId = await bed.app.get(DisputeReports).openSandbox({ paymentIntentId: await bed.paidIntent(50) }, 'GENERAL');
  }, 60_000);

  afterAll(async () => {
    await dashboard?.close();
    await bed?.close();
  });

  const refunds = async () =>
    (
      await bed.dataSource.query(`SELECT count(*)::int AS n FROM payin WHERE payment_intent_id = $1 AND transaction_type = 'REFUND'`, [
        intentId,
      ])
    )[0].n as number;

  it('answers every filter value, page and id in the address with a page, never a 500, and escapes what it shows', async () => {
    for (const value of HOSTILE) {
      const query = new URLSearchParams({
        status: value,
        currency: value,
        minAmount: value,
        dateFrom: value,
        merchantId: value,
        page: value,
        sort: value,
      });
      const list = await request(dashboard.getHttpServer()).get(`/payments?${query.toString()}`).set('cookie', cookie);
      expect(list.status).toBe(200);
      expect(list.text).not.toContain('<script>alert');
      expect(list.text).not.toContain('<img src=x');
      const one = await request(dashboard.getHttpServer())
        .get(`/payments/${encodeURIComponent(value)}`)
        .set('cookie', cookie);
      expect(one.status).toBe(404);
    }
    // Arrays and repeated fields are not filters.
    expect(
      (await request(dashboard.getHttpServer()).get('/payments?status=APPROVED&status=PENDING&currency[]=UYU').set('cookie', cookie))
        .status,
    ).toBe(200);
  });

  it('refuses every odd refund amount and kind with a page, refunding nothing', async () => {
    for (const amount of [...HOSTILE, '0', '0.001', '500.01', '1,2,3']) {
      const response = await request(dashboard.getHttpServer())
        .post(`/payments/${intentId}/refund`)
        .set('cookie', cookie)
        .type('form')
        .send({ _csrf: csrf, amount, kind: amount, confirmed: 'yes', operation: crypto.randomUUID() });
      expect(response.status).toBe(400);
      expect(response.text).not.toContain('<script>alert');
    }
    const arrays = await request(dashboard.getHttpServer())
      .post(`/payments/${intentId}/refund`)
      .set('cookie', cookie)
      .type('form')
      .send(`_csrf=${encodeURIComponent(csrf)}&amount[]=1&amount[]=2&confirmed=yes&operation=x`);
    expect(arrays.status).toBeLessThan(500);
    // A confirmed refund without a well-formed key of its own is refused.
    const keyless = await request(dashboard.getHttpServer())
      .post(`/payments/${intentId}/refund`)
      .set('cookie', cookie)
      .type('form')
      .send({ _csrf: csrf, amount: '1', kind: 'refund', confirmed: 'yes', operation: '<script>' });
    expect(keyless.status).toBe(403);
    expect(await refunds()).toBe(0);
  });

  it('answers hostile values on every other page and form with a page, never a 500, writing nothing it should not', async () => {
    const server = dashboard.getHttpServer();
    for (const value of HOSTILE) {
      for (const route of [
        '/overview',
        '/links',
        '/payers',
        '/webhooks',
        '/merchants',
        '/team',
        '/audit',
        '/balance',
        '/payouts',
        '/disputes',
        '/subscriptions',
        `/subscriptions/${encodeURIComponent(value)}`,
        '/reconciliation',
      ]) {
        const query = new URLSearchParams({
          payerId: value,
          span: value,
          merchantId: value,
          status: value,
          page: value,
          searchTerm: value,
          delivered: value,
          before: value,
        });
        // The value in a path goes alone (with the query too, a long one passes the server's header limit: 431).
        const address = route.startsWith('/subscriptions/') ? route : `${route}?${query.toString()}`;
        const answer = await request(server).get(address).set('cookie', cookie);
        // An operator: the team and the audit log are an admin's (403); every other page answers.
        // A subscription's page of an address that names none: 404, a page.
        const expected = ['/team', '/audit'].includes(route) ? 403 : route.startsWith('/subscriptions/') ? 404 : 200;
        expect([route, answer.status]).toEqual([route, expected]);
        expect(answer.text).not.toContain('<script>alert');
      }
      const form = (fields: Record<string, string>) => ({ _csrf: csrf, ...fields });
      const posts: [string, Record<string, string>][] = [
        [
          '/links',
          form({
            merchantId: value,
            amount: value,
            vatPercentage: value,
            currency: value,
            country: value,
            processor: value,
            description: value,
          }),
        ],
        [
          '/links',
          form({
            merchantId: bed.tenant.merchants[0].merchantId,
            amount: value,
            vatPercentage: value,
            currency: value,
            country: value,
            processor: value,
          }),
        ],
        [`/links/${encodeURIComponent(value)}/share`, form({ receiverEmail: value, receiverName: value })],
        [`/links/${encodeURIComponent(value)}/delete`, form({})],
        [`/subscriptions/${encodeURIComponent(value)}/cancel`, form({ when: value, confirmed: value })],
        [`/subscriptions/${encodeURIComponent(value)}/pause`, form({})],
        [`/webhooks/events/${encodeURIComponent(value)}/redeliver`, form({})],
        [`/payments/${intentId}/events/${encodeURIComponent(value)}/redeliver`, form({})],
        ['/team', form({ email: value, role: value, merchantId: value })],
        [`/team/${encodeURIComponent(value)}/reset-password`, form({})],
        [`/team/${encodeURIComponent(value)}/unlock`, form({})],
        [`/team/${encodeURIComponent(value)}/reset-mfa`, form({})],
        [`/team/${encodeURIComponent(value)}/disable`, form({})],
        [`/team/${encodeURIComponent(value)}/enable`, form({})],
        [`/team/${encodeURIComponent(value)}/role`, form({ role: value })],
        ['/sign-in/code', form({ code: value, next: value })],
        ['/sign-in/enrol', form({ code: value, next: value })],
        // The two new passwords differ: refused before the current one is checked (a wrong one would count towards the lockout).
        ['/account/password', form({ current: value, password: value, confirm: `${value}x`, next: value })],
        [`/disputes/${encodeURIComponent(value)}/accept`, form({ confirmed: 'yes' })],
        [`/disputes/${encodeURIComponent(value)}/submit`, form({})],
        [`/disputes/${encodeURIComponent(value)}/evidence`, form({ operation: value })],
        [`/disputes/${disputeId}/evidence`, form({ operation: value, file: value })],
        ['/balance/payout', form({ merchantId: value, currency: value, amount: value })],
        [
          '/balance/payout',
          form({ merchantId: bed.tenant.merchants[0].merchantId, currency: 'UYU', amount: value, confirmed: 'yes', operation: value }),
        ],
      ];
      for (const [route, fields] of posts) {
        const answer = await request(server).post(route).set('cookie', cookie).type('form').send(fields);
        expect([route, value, [400, 403, 404].includes(answer.status)]).toEqual([route, value, true]);
        expect(answer.text).not.toContain('<script>alert');
      }
    }
    const [{ n }] = await bed.dataSource.query('SELECT count(*)::int AS n FROM link WHERE merchant_id = $1', [
      bed.tenant.merchants[0].merchantId,
    ]);
    expect(n).toBe(0);
  });

  it('answers hostile multipart forms on the evidence upload with a page, never a 500, keeping nothing', async () => {
    const server = dashboard.getHttpServer();
    const upload = (body: Buffer | string, contentType: string) =>
      request(server).post(`/disputes/${disputeId}/evidence`).set('cookie', cookie).set('content-type', contentType).send(body);
    for (const value of HOSTILE) {
      // Odd file names, operations and field names; a file in another field; a part with no name.
      const forms = [
        multipartBody([
          { field: '_csrf', content: csrf },
          { field: 'operation', content: value },
          { fileName: value, contentType: 'application/pdf', content: pdfFile() },
        ]),
        multipartBody([
          { field: '_csrf', content: csrf },
          { field: 'operation', content: crypto.randomUUID() },
          { fileName: `${value}.pdf`, contentType: value, content: value },
        ]),
        multipartBody([
          { field: '_csrf', content: csrf },
          { field: value, content: value },
          { field: 'operation', content: crypto.randomUUID() },
          { field: value, fileName: 'x.pdf', contentType: 'application/pdf', content: pdfFile() },
        ]),
      ];
      for (const { body, contentType } of forms) {
        const answer = await upload(body, contentType);
        expect([value, [400, 403, 404, 413, 422].includes(answer.status)]).toEqual([value, true]);
        expect(answer.text).not.toContain('<script>alert');
        expect(answer.text).not.toContain('<img src=x');
      }
    }
    // Truncated, boundary-less, a boundary of the wrong shape, too many fields, a field past its size, too many files.
    const good = multipartBody([
      { field: '_csrf', content: csrf },
      { field: 'operation', content: crypto.randomUUID() },
      { fileName: 'a.pdf', contentType: 'application/pdf', content: pdfFile() },
    ]);
    const odd: [Buffer | string, string][] = [
      [good.body.subarray(0, good.body.length - 20), good.contentType],
      [good.body, 'multipart/form-data'],
      [good.body, 'multipart/form-data; boundary="'],
      [multipartBody(Array.from({ length: 30 }, (_, i) => ({ field: `f${i}`, content: 'x' }))).body, multipartBody([]).contentType],
      ...[
        multipartBody([
          { field: '_csrf', content: csrf },
          { field: 'operation', content: 'x'.repeat(5000) },
        ]),
        multipartBody([
          { field: '_csrf', content: csrf },
          { field: 'operation', content: crypto.randomUUID() },
          ...Array.from({ length: 8 }, (_, i) => ({ fileName: `${i}.pdf`, contentType: 'application/pdf', content: pdfFile() })),
        ]),
      ].map(({ body, contentType }): [Buffer, string] => [body, contentType]),
    ];
    for (const [body, contentType] of odd) {
      const answer = await upload(body, contentType);
      expect([contentType, answer.status >= 400 && answer.status < 500]).toEqual([contentType, true]);
    }
    const [{ n }] = await bed.dataSource.query('SELECT count(*)::int AS n FROM dispute_evidence WHERE dispute_id = $1', [disputeId]);
    expect(n).toBe(0);
  });

  it('answers a post that is no form, to every form of the dashboard, with a 4xx page (no body, JSON, text, another charset, multipart, repeated and huge fields)', async () => {
    const server = dashboard.getHttpServer();
    const id = crypto.randomUUID();
    const routes = [
      '/sign-in',
      '/links',
      `/links/${id}/share`,
      `/links/${id}/delete`,
      '/webhooks/endpoints',
      `/webhooks/endpoints/${id}/disable`,
      `/webhooks/events/${id}/redeliver`,
      `/merchants/${id}/configuration`,
      '/team',
      `/team/${id}/reset-password`,
      `/team/${id}/unlock`,
      `/team/${id}/reset-mfa`,
      `/team/${id}/disable`,
      `/team/${id}/enable`,
      `/team/${id}/role`,
      '/sign-in/code',
      '/sign-in/enrol',
      '/account/password',
      `/payments/${intentId}/refund`,
      `/payments/${intentId}/events/${id}/redeliver`,
      '/balance/payout',
      `/disputes/${disputeId}/evidence`,
      `/disputes/${disputeId}/submit`,
      `/disputes/${disputeId}/accept`,
    ];
    const field = (name: string, value: string) => `${name}=${encodeURIComponent(value)}`;
    const bodies: [string, string | undefined, string | Buffer | undefined][] = [
      ['nothing', undefined, undefined],
      ['empty form', 'application/x-www-form-urlencoded', ''],
      ['JSON', 'application/json', JSON.stringify({ _csrf: csrf, email: 'a@b.uy' })],
      ['JSON null', 'application/json', 'null'],
      ['text', 'text/plain', `_csrf=${csrf}`],
      ['latin-1 form', 'application/x-www-form-urlencoded; charset=latin1', Buffer.from(`_csrf=${csrf}&email=ñ`, 'latin1')],
      ['bad percent-encoding', 'application/x-www-form-urlencoded', `${field('_csrf', csrf)}&amount=%E0%A4%A&kind=%ZZ`],
      [
        'repeated fields',
        'application/x-www-form-urlencoded',
        `${field('_csrf', csrf)}&${field('_csrf', csrf)}&amount=1&amount=2&kind=refund&kind=manual`,
      ],
      ['huge field', 'application/x-www-form-urlencoded', `${field('_csrf', csrf)}&email=${'x'.repeat(20_000)}`],
      ['a field no form has', 'application/x-www-form-urlencoded', `${field('_csrf', csrf)}&kind=refund&amount=1&isAdmin=true`],
      ['a field as an object', 'application/x-www-form-urlencoded', `${field('_csrf', csrf)}&kind[a]=refund&url[b]=x&email[c]=y`],
      ['multipart', 'multipart/form-data; boundary=b', `--b\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrf}\r\n--b--\r\n`],
    ];
    for (const route of routes)
      for (const [name, type, body] of bodies) {
        let call = request(server).post(route).set('cookie', cookie);
        if (type) call = call.set('content-type', type);
        const answer = body === undefined ? await call : await call.send(body);
        expect([route, name, answer.status >= 400 && answer.status < 500]).toEqual([route, name, true]);
        expect(answer.text).not.toContain('<script>alert');
      }
    expect(await refunds()).toBe(0);
  }, 120_000);

  it('refuses odd sign-ins and oversized bodies without a 500', async () => {
    for (const value of HOSTILE) {
      const response = await request(dashboard.getHttpServer())
        .post('/sign-in')
        .type('form')
        .send({ _csrf: value, email: value, password: value, next: value });
      // Without the sign-in form's cookie: refused before anything is read; above 16 kB, too large to read.
      expect([403, 413]).toContain(response.status);
    }
    // A token of the right length in characters but not in bytes (ñ is two): refused, not a failed comparison.
    const wide = await request(dashboard.getHttpServer())
      .post(`/payments/${intentId}/refund`)
      .set('cookie', cookie)
      .type('form')
      .send({ _csrf: 'ñ'.repeat(csrf.length), amount: '1', kind: 'refund' });
    expect(wide.status).toBe(403);
    const form = await request(dashboard.getHttpServer()).get('/sign-in');
    const preCookie = (form.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const wideSignIn = await request(dashboard.getHttpServer())
      .post('/sign-in')
      .set('cookie', preCookie)
      .type('form')
      .send({ _csrf: 'ñ'.repeat(43), email: 'x@example.uy', password: 'x' });
    expect(wideSignIn.status).toBe(403);
    const huge = await request(dashboard.getHttpServer())
      .post(`/payments/${intentId}/refund`)
      .set('cookie', cookie)
      .type('form')
      .send({ _csrf: csrf, amount: '1', filler: 'x'.repeat(100_000) });
    expect(huge.status).toBe(413);
    const json = await request(dashboard.getHttpServer())
      .post(`/payments/${intentId}/refund`)
      .set('cookie', cookie)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ _csrf: csrf, amount: '1', confirmed: 'yes', operation: crypto.randomUUID() }));
    // Forms only: a JSON body carries no form fields, so no CSRF token either.
    expect(json.status).toBe(403);
    expect(await refunds()).toBe(0);
  });
});

/** The payins API going away (contract §17 for the dashboard's own outside call): a 503 page within the bound, never a hang or a 500. */
describe('the dashboard when the payins API does not answer', () => {
  let bed: Testbed;
  const silent = net.createServer(() => undefined); // accepts, never answers
  const dashboards: NestExpressApplication[] = [];

  beforeAll(async () => {
    bed = await testbed({});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await Promise.all(dashboards.map((d) => d.close()));
    silent.close();
    await bed.close();
  });

  const dashboardAt = async (payinsApiUrl: string) => {
    const dashboard = await createDashboard(
      {
        databaseUrl: process.env.TEST_DATABASE_URL!,
        payinsApiUrl,
        apiKey: bed.tenant.business.apiKey,
        apiSecret: bed.tenant.business.apiSecret,
        trustProxy: false,
        secretsMasterKey: testMasterKey(),
        payinsTimeoutMs: 500,
      },
      'silent',
    );
    await dashboard.init();
    dashboards.push(dashboard);
    return dashboard;
  };

  it('answers a 503 page with Retry-After when the API hangs or refuses the connection', async () => {
    const person = await readyPerson(testIdentity(bed.dataSource), { businessId: bed.tenant.business.businessId, role: 'viewer' });
    const closedPort = await freePort();
    for (const url of [`http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, `http://127.0.0.1:${closedPort}`]) {
      const dashboard = await dashboardAt(url);
      const form = await request(dashboard.getHttpServer()).get('/sign-in');
      const preCookie = (form.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
      const token = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
      const startedAt = Date.now();
      // Signing in asks the API which business the dashboard serves.
      const answer = await request(dashboard.getHttpServer())
        .post('/sign-in')
        .set('cookie', preCookie)
        .type('form')
        .send({ _csrf: token, email: person.email, password: person.password });
      expect(Date.now() - startedAt).toBeLessThan(5_000);
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('5');
      expect(answer.text).toContain('El servicio de pagos no responde');
    }
  });
});
