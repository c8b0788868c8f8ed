import { NestExpressApplication } from '@nestjs/platform-express';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import { codeFor, listeningDashboard, Person, readyPerson } from './dashboard-people';
import { eventually, fitsWidth, launchChromium, screenshot, SignedClient, clientFor, TestTenant } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { Browser, Page } from 'playwright-core';
import { Testbed, testbed } from './testbed';
import { WebhookReceiver } from './webhook-receiver';

/**
 * The operations dashboard (contract §18) in a real browser: its own app on
 * its own port, reading and changing payments only through the payins API
 * over HTTP (signed with the business's credential), its people in its own
 * tables.
 */
describe('the operations dashboard', () => {
  let bed: Testbed;
  let tenant: TestTenant;
  let dashboard: NestExpressApplication;
  let base: string;
  let browser: Browser;
  let identity: DashboardIdentity;
  let operator: Person;
  let viewer: Person;
  let scoped: Person;
  let admin: Person;
  const receiver = new WebhookReceiver();
  let otherMerchant: SignedClient;
  let payerId: string;

  beforeAll(async () => {
    bed = await testbed({ merchants: 2, payer: { firstName: 'Dash', lastName: 'Board' } });
    ({ tenant, payerId } = bed);
    otherMerchant = clientFor(bed.app, tenant.merchants[1]);
    ({ dashboard, base, identity } = await listeningDashboard(bed));
    const person = (role: 'operator' | 'viewer' | 'admin', merchantId: string | null = null) =>
      readyPerson(identity, { businessId: tenant.business.businessId, merchantId, role });
    [operator, viewer, scoped, admin] = await Promise.all([
      person('operator'),
      person('viewer'),
      person('viewer', tenant.merchants[0].merchantId),
      person('admin'),
    ]);
    // The first merchant's webhooks go to a receiver here: the payment's story shows their deliveries.
    await receiver.start();
    expect((await bed.merchant.post('/webhook-endpoint', { url: receiver.url })).status).toBe(200);
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await receiver.stop();
    await browser?.close();
    await dashboard?.close();
    await bed?.close();
  });

  /** A SUCCEEDED intent of a merchant, charged off-session in the sandbox. */
  const paidIntent = async (client: SignedClient, amount: number, reference: string, payer = payerId): Promise<string> => {
    const response = await client.post('/payment-intent', {
      currency: 'UYU',
      amount,
      payinType: 'DEFAULT',
      externalReference: reference,
      payerId: payer,
      offSession: true,
      invoiceNumber: 1,
      country: 'URY',
      paymentInstrumentData: { paymentMethodName: 'OCA' },
      confirm: true,
    });
    expect(response.body.status).toBe('SUCCEEDED');
    return response.body.paymentIntent.paymentIntentId;
  };

  const signIn = async (person: Person, options: { width?: number; locale?: string } = {}): Promise<Page> => {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 1280, height: 900 },
      locale: options.locale ?? 'es-UY',
    });
    const page = await context.newPage();
    await page.goto(`${base}/payments`);
    // Not signed in: the sign-in page, which comes back to where the person was going.
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await page.fill('#email', person.email);
    await page.fill('#password', person.password);
    await page.click('button[type=submit]');
    // Then the second factor (contract §22), and on to where the person was going.
    await page.waitForURL(/\/sign-in\/code/);
    await page.fill('#code', await codeFor(person));
    await page.click('#verify');
    await page.waitForURL(/\/payments/);
    return page;
  };

  it('lets an operator find a payment by its filters, refund part of it after a confirmation, and see it in the audit log', async () => {
    const intentId = await paidIntent(bed.merchant, 1234.5, `dash-${crypto.randomUUID().slice(0, 6)}`);
    const page = await signIn(operator, { locale: 'en-US' });

    // Filters of operation 36: approved, UYU, this exact amount.
    await page.selectOption('#status', 'APPROVED');
    await page.selectOption('#currency', 'UYU');
    await page.fill('#minAmount', '1234.5');
    await page.fill('#maxAmount', '1234.5');
    await page.click('button:has-text("Apply")');
    await page.waitForURL(/minAmount=1234.5/);
    const link = page.locator(`a[href="/payments/${intentId}"]`);
    await expect(link.count()).resolves.toBe(1);
    expect(await page.textContent('#payments')).toContain('1,234.50 UYU');
    await link.click();
    await page.waitForURL(`${base}/payments/${intentId}`);
    expect(await page.textContent('#refundable')).toBe('1,234.50 UYU');

    await page.fill('#amount', '200.25');
    await page.click('#refund');
    // The confirmation step says what will be refunded; nothing is refunded yet.
    expect(await page.textContent('#question')).toContain('200.25 UYU');
    const [{ refunds }] = await bed.dataSource.query(
      `SELECT count(*)::int AS refunds FROM payin WHERE payment_intent_id = $1 AND transaction_type = 'REFUND'`,
      [intentId],
    );
    expect(refunds).toBe(0);
    const confirmation = {
      _csrf: (await page.locator('input[name=_csrf]').last().getAttribute('value'))!,
      operation: (await page.locator('input[name=operation]').getAttribute('value'))!,
    };
    await page.click('#confirm');
    await page.waitForURL(/done=refund/);
    expect(await page.textContent('#notice')).toContain('Refund recorded');
    expect(await page.textContent('#refunded')).toBe('200.25 UYU');
    expect(await page.textContent('#refundable')).toBe('1,034.25 UYU');
    // The ledger row carries its code for machines and its name for people.
    const refundRow = page.locator('#rows tr[data-concept="REFUND"]');
    await expect(refundRow.count()).resolves.toBe(1);
    expect(await refundRow.textContent()).toContain('Refund');
    // The story: the refund's events, and their webhook delivered to the merchant's receiver.
    await receiver.waitFor((received) =>
      received.some((w) => w.event.type === 'refund.succeeded' && w.event.data.object.paymentIntentId === intentId),
    );
    await page.reload();
    const refunded = page.locator('#timeline li[data-event="refund.succeeded"]');
    await expect(refunded.count()).resolves.toBe(1);
    for (let i = 0; i < 50 && !(await refunded.textContent())?.includes('delivered'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await page.reload();
    }
    expect(await refunded.textContent()).toContain(`delivered ${receiver.url}`);
    expect(await page.textContent('#timeline')).toContain('payment_intent.succeeded');
    // In the order it happened (the events' sequence), created first.
    expect(await page.locator('#timeline li').first().getAttribute('data-event')).toBe('payment_intent.created');
    // An operator does not redeliver (webhooks are an admin's).
    expect(await page.locator('#timeline button').count()).toBe(0);

    // At the API: exactly one refund of 200.25, made through the payins API.
    const intent = await bed.merchant.get(`/payment-intent/${intentId}`);
    expect(intent.body.paymentIntentStatus).toBe('PARTIALLY_REFUNDED');

    // The same confirmation sent again (a double click, the back button) refunds nothing more: its key is the API's Idempotency-Key.
    const again = await page.request.post(`${base}/payments/${intentId}/refund`, {
      form: { ...confirmation, amount: '200.25', kind: 'refund', confirmed: 'yes' },
    });
    expect(again.status()).toBe(200);
    const [{ total }] = await bed.dataSource.query(
      `SELECT count(*)::int AS total FROM payin WHERE payment_intent_id = $1 AND transaction_type = 'REFUND'`,
      [intentId],
    );
    expect(total).toBe(1);

    const entries = await identity.auditLog(tenant.business.businessId, { limit: 20 });
    expect(entries.find((e) => e.action === 'refund' && e.target === intentId)).toMatchObject({
      email: operator.email,
      result: 'succeeded',
      detail: expect.objectContaining({ amount: '200.25', currency: 'UYU' }),
    });
    expect(entries.find((e) => e.action === 'sign-in' && e.email === operator.email)?.result).toBe('succeeded');
    await screenshot(page, 'dashboard-payment-refunded');
    await page.context().close();
  }, 90_000);

  it("shows a viewer no refund button, and refuses a viewer's forged refund post with 403, changing nothing and auditing the refusal", async () => {
    const intentId = await paidIntent(bed.merchant, 300, `viewer-${crypto.randomUUID().slice(0, 6)}`);
    const page = await signIn(viewer);
    await page.goto(`${base}/payments/${intentId}`);
    expect(await page.locator('#refund').count()).toBe(0);
    // The viewer's own session and CSRF token: only the role stands in the way.
    const csrf = await page.locator('input[name=_csrf]').first().getAttribute('value');
    const forged = await page.request.post(`${base}/payments/${intentId}/refund`, {
      form: { _csrf: csrf!, amount: '', kind: 'refund', confirmed: 'yes', operation: crypto.randomUUID() },
    });
    expect(forged.status()).toBe(403);
    const intent = await bed.merchant.get(`/payment-intent/${intentId}`);
    expect(intent.body.paymentIntentStatus).toBe('SUCCEEDED');
    const entries = await identity.auditLog(tenant.business.businessId, { limit: 50 });
    expect(entries.find((e) => e.action === 'refund' && e.target === intentId)).toMatchObject({ email: viewer.email, result: 'refused' });
    // Nor the audit log: an admin's.
    expect((await page.goto(`${base}/audit`))?.status()).toBe(403);
    await page.context().close();
  }, 90_000);

  it("never shows a merchant-scoped person another merchant's payment, guessed URLs included, and fits a 390-pixel phone", async () => {
    const mine = await paidIntent(bed.merchant, 150, `mine-${crypto.randomUUID().slice(0, 6)}`);
    const otherPayer = (await otherMerchant.post('/payer', { firstName: 'Otro', lastName: 'Comercio' })).body.payerId;
    const theirs = await paidIntent(otherMerchant, 175, `theirs-${crypto.randomUUID().slice(0, 6)}`, otherPayer);
    const page = await signIn(scoped, { width: 390 });
    const table = await page.textContent('#payments');
    expect(await page.locator(`a[href="/payments/${mine}"]`).count()).toBe(1);
    expect(await page.locator(`a[href="/payments/${theirs}"]`).count()).toBe(0);
    expect(table).not.toContain(tenant.merchants[1].merchantId);
    // No merchant filter to choose another merchant; a merchantId in the address is overridden by the person's own.
    expect(await page.locator('#merchantId').count()).toBe(0);
    await page.goto(`${base}/payments?merchantId=${tenant.merchants[1].merchantId}`);
    expect(await page.locator(`a[href="/payments/${theirs}"]`).count()).toBe(0);
    const guessed = await page.goto(`${base}/payments/${theirs}`);
    expect(guessed?.status()).toBe(404);
    expect((await page.goto(`${base}/payments/${mine}`))?.status()).toBe(200);
    expect(await fitsWidth(page, '#fields')).toEqual({ pageFits: true, elementFits: true });
    await screenshot(page, 'dashboard-payment-phone');
    await page.context().close();
  }, 90_000);

  it("lets an admin send a payment's event to its webhooks again, audited", async () => {
    const intentId = await paidIntent(bed.merchant, 99, `again-${crypto.randomUUID().slice(0, 6)}`);
    await receiver.waitFor((received) =>
      received.some((w) => w.event.type === 'payment_intent.succeeded' && w.event.data.object.paymentIntentId === intentId),
    );
    const before = receiver.ofType('payment_intent.succeeded').filter((w) => w.event.data.object.paymentIntentId === intentId).length;
    const page = await signIn(admin, { locale: 'en-US' });
    await page.goto(`${base}/payments/${intentId}`);
    await page.click('#timeline li[data-event="payment_intent.succeeded"] button');
    await page.waitForURL(/done=redeliver/);
    expect(await page.textContent('#notice')).toContain('Event sent again');
    await receiver.waitFor(
      (received) =>
        received.filter((w) => w.event.type === 'payment_intent.succeeded' && w.event.data.object.paymentIntentId === intentId).length >
        before,
    );
    const entries = await identity.auditLog(tenant.business.businessId, { limit: 20 });
    expect(entries.find((e) => e.action === 'event:redeliver')).toMatchObject({ email: admin.email, result: 'succeeded' });
    // The audit log page shows it to the admin.
    await page.goto(`${base}/audit`);
    expect(await page.textContent('#audit')).toContain('event:redeliver');
    // Its CSV (admins alone), every entry with its place in the chain and the client's address; reading and exporting are audited.
    // An entry takes its place when the sealer chains it, off the request path, normally within a second (contract §29).
    const unsealed = await eventually(
      async () =>
        (
          await bed.dataSource.query('SELECT count(*)::int AS n FROM dashboard_audit WHERE business_id = $1 AND sequence IS NULL', [
            tenant.business.businessId,
          ])
        )[0].n as number,
      (n) => n === 0,
    );
    expect(unsealed).toBe(0);
    const csv = await page.request.get(`${base}/audit/export.csv`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('sequence,at,email,address,action,target,result,detail');
    expect(lines.find((l) => l.includes(',event:redeliver,'))).toMatch(/^\d+,\S+,admin-[^,]+,127\.0\.0\.1,event:redeliver,/);
    const log = await identity.auditLog(tenant.business.businessId, { limit: 20 });
    expect(log.filter((e) => e.email === admin.email).map((e) => e.action)).toEqual(expect.arrayContaining(['audit:read', 'audit:export']));
    const viewerPage = await signIn(viewer);
    expect((await viewerPage.request.get(`${base}/audit/export.csv`)).status()).toBe(403);
    await viewerPage.context().close();
    await page.context().close();
  }, 90_000);

  it("exports the filtered rows as CSV, equal to the API's rows for the same filters", async () => {
    for (let i = 0; i < 3; i++) await paidIntent(bed.merchant, 20 + i, `csv-${i},"quoted"`);
    const page = await signIn(viewer);
    await page.selectOption('#status', 'APPROVED');
    await page.selectOption('#currency', 'UYU');
    await page.click('button[type=submit]:has-text("Aplicar")');
    await page.waitForURL(/status=APPROVED/);
    const href = await page.getAttribute('#export', 'href');
    // The list's filters (its sort too: the export itself always runs oldest first).
    expect(href).toBe('/payments/export.csv?status=APPROVED&currency=UYU&sort=DATE&order=DESC');
    const download = await page.request.get(`${base}${href}`);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...lines] = (await download.text()).trimEnd().split('\r\n');
    expect(header).toBe(
      'transactionId,paymentIntentId,createdAt,merchantId,merchantName,transactionType,conceptCode,status,currency,amount,externalId,liquidationDate,liquidationSource,fundsFlow,origin,feeAmount,feeTaxAmount,netAmount,installments,installmentAmount,payerTotalAmount,financingFeeAmount,payoutRequestId',
    );

    const expected: { transactionId: string; amount: number; status: string }[] = [];
    for (let n = 1; ; n++) {
      const answer = await bed.business.get(`/payin?status=APPROVED&currency=UYU&sort=DATE&order=ASC&limit=100&page=${n}`);
      expected.push(...answer.body[0].results);
      if (n >= answer.body[0].pageCount) break;
    }
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(lines.map((line) => line.split(',')[0])).toEqual(expected.map((row) => row.transactionId));
    expect(lines.map((line) => Number(line.split(',')[9]))).toEqual(expected.map((row) => row.amount));
    expect(lines.every((line) => line.includes(',APPROVED,UYU,'))).toBe(true);
    const entries = await identity.auditLog(tenant.business.businessId, { limit: 10 });
    expect(entries.find((e) => e.action === 'payments:export')).toMatchObject({
      email: viewer.email,
      detail: expect.objectContaining({ rows: expected.length }),
    });
    await page.context().close();
  }, 90_000);

  it('shows the overview — today, the last 30 days, approval rate, charts — equal to the API, reached with the keyboard alone on a phone', async () => {
    await paidIntent(bed.merchant, 321.5, `overview-${crypto.randomUUID().slice(0, 6)}`);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${base}/sign-in`);
    // The keyboard alone: the email field first, then the password, then the button.
    await page.keyboard.press('Tab');
    const focused = () => page.evaluate('document.activeElement && document.activeElement.id');
    for (let i = 0; i < 10 && (await focused()) !== 'email'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('email');
    await page.keyboard.type(operator.email);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('password');
    await page.keyboard.type(operator.password);
    await page.keyboard.press('Enter');
    // The code's field has the focus: type and Enter.
    await page.waitForURL(/\/sign-in\/code/);
    expect(await focused()).toBe('code');
    await page.keyboard.type(await codeFor(operator));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/overview`);

    const api = (await bed.business.get('/payin/summary')).body;
    const uyu = api.totals.find((total: { currency: string }) => total.currency === 'UYU');
    const card = page.locator('#figures [data-currency="UYU"]');
    const number = (text: string | null) => Number(text!.replace(/[^\d.]/g, ''));
    expect(number(await card.locator('[data-figure="span"]').textContent())).toBe(uyu.collected);
    const today = api.days.find(
      (d: { day: string; currency: string }) => d.currency === 'UYU' && d.day === new Date().toISOString().slice(0, 10),
    );
    expect(number(await card.locator('[data-figure="today"]').textContent())).toBe(today.collected);
    expect(await card.locator('[data-figure="approval"]').textContent()).toBe(`${Math.round(uyu.approvalRate * 1000) / 10}%`);
    expect(await page.locator('svg.chart[role=img]').count()).toBe(2);
    expect(await page.locator('svg.chart rect.bar').count()).toBeGreaterThanOrEqual(31);
    expect(await fitsWidth(page, '#figures')).toEqual({ pageFits: true, elementFits: true });
    await screenshot(page, 'dashboard-overview-phone');

    // Keyboard on to the payments page: a visible link in the header, then Enter.
    await page.focus('header a[href="/payments"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/payments`);
    await context.close();
  }, 90_000);

  it('refuses posts without the CSRF token or from another origin, and locks an account after ten failures', async () => {
    const page = await signIn(operator);
    const noToken = await page.request.post(`${base}/sign-out`, { form: {} });
    expect(noToken.status()).toBe(403);
    const csrf = await page.locator('input[name=_csrf]').first().getAttribute('value');
    const otherOrigin = await page.request.post(`${base}/sign-out`, {
      form: { _csrf: csrf! },
      headers: { origin: 'https://evil.example' },
    });
    expect(otherOrigin.status()).toBe(403);
    // Still signed in after both.
    expect((await page.goto(`${base}/payments`))?.url()).toBe(`${base}/payments`);

    const target = await readyPerson(identity, { businessId: tenant.business.businessId, role: 'viewer' });
    // Two wrong passwords from elsewhere first: one address alone stops at 8 failures, below a person's lockout (contract §30).
    for (let i = 0; i < 2; i++)
      expect((await identity.signIn(target.email, 'wrong password', `203.0.113.${90 + i}`, tenant.business.businessId)).outcome).toBe(
        'refused',
      );
    const context = await browser.newContext();
    const attempt = await context.newPage();
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      await attempt.goto(`${base}/sign-in`);
      await attempt.fill('#email', target.email);
      await attempt.fill('#password', i < 8 ? 'wrong password' : target.password);
      const [response] = await Promise.all([
        attempt.waitForResponse((r) => r.url().endsWith('/sign-in') && r.request().method() === 'POST'),
        attempt.click('button[type=submit]'),
      ]);
      statuses.push(response.status());
    }
    // Eight wrong passwords from this browser: its address waits (429), whatever it sends next, saying so.
    expect(statuses).toEqual([...Array(8).fill(401), 429]);
    expect(await attempt.textContent('#problem')).toMatch(/Demasiados intentos/);
    // Ten in all lock the account (contract §22): from anywhere, even the right password is refused.
    const locked = await identity.signIn(target.email, target.password, '203.0.113.99', tenant.business.businessId);
    expect(locked.outcome).toBe('locked');
    // This test's address waits 15 minutes: the suites after it in this database sign in from the same loopback address.
    await bed.dataSource.query(`DELETE FROM dashboard_sign_in_limit WHERE key LIKE 'address:%'`);
    await context.close();
    await page.context().close();
  }, 120_000);
});
