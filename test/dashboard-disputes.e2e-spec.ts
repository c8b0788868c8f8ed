import { NestExpressApplication } from '@nestjs/platform-express';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import { codeFor, listeningDashboard, Person, readyPerson } from './dashboard-people';
import { DisputeReports } from '@pcs/disputes';
import { eventually, fitsWidth, launchChromium, multipartBody, pdfFile, pngFile, screenshot } from '@pcs/testing';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Browser, Page } from 'playwright-core';
import { Testbed, testbed } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Disputes in the dashboard (contracts §18 and §21), in a real browser on a 390-pixel phone: the list, the evidence, the answer. */
describe('the dashboard: disputes', () => {
  let bed: Testbed;
  let dashboard: NestExpressApplication;
  let base: string;
  let browser: Browser;
  let identity: DashboardIdentity;
  let reports: DisputeReports;
  let operator: Person;
  let viewer: Person;
  let otherMerchantsOperator: Person;
  let files: string;

  beforeAll(async () => {
    bed = await testbed({ merchants: 2, payer: { firstName: 'Diego', lastName: 'Disputa', email: 'diego@example.uy' } });
    reports = bed.app.get(DisputeReports);
    ({ dashboard, base, identity } = await listeningDashboard(bed));
    const person = (role: 'operator' | 'viewer', merchantId: string | null = null) =>
      readyPerson(identity, { businessId: bed.tenant.business.businessId, merchantId, role });
    [operator, viewer, otherMerchantsOperator] = await Promise.all([
      person('operator'),
      person('viewer'),
      person('operator', bed.tenant.merchants[1].merchantId),
    ]);
    files = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-evidence-'));
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
    await bed?.close();
    if (files) fs.rmSync(files, { recursive: true, force: true });
  });

  const signIn = async (person: Person, locale = 'es-UY'): Promise<Page> => {
    const page = await (await browser.newContext({ locale, viewport: { width: 390, height: 844 } })).newPage();
    await page.goto(`${base}/sign-in`);
    await page.fill('#email', person.email);
    await page.fill('#password', person.password);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/sign-in\/code/);
    await page.fill('#code', await codeFor(person));
    await page.click('#verify');
    await page.waitForURL(`${base}/overview`);
    return page;
  };
  const disputed = async (amount: number): Promise<{ intentId: string; disputeId: string }> => {
    const intentId = await bed.paidIntent(amount);
    return { intentId, disputeId: await reports.openSandbox({ paymentIntentId: intentId }, 'PRODUCT_NOT_RECEIVED') };
  };
  const file = (name: string, content: Buffer): string => {
    const at = path.join(files, name);
    fs.writeFileSync(at, content);
    return at;
  };
  const disputeOf = async (disputeId: string): Promise<Json> => (await bed.merchant.get(`/dispute/${disputeId}`)).body;
  const auditOf = async (action: string, email: string) =>
    (await identity.auditLog(bed.tenant.business.businessId, { limit: 50 })).filter((e) => e.action === action && e.email === email);

  it('lists disputes with the nearest due date first, marks one due within three days, and shows a viewer no answer', async () => {
    const later = await disputed(40);
    const soon = await disputed(60);
    await bed.dataSource.query(`UPDATE dispute SET evidence_due_by = now() + interval '2 days' WHERE dispute_id = $1`, [soon.disputeId]);
    const page = await signIn(viewer, 'en-US');
    await page.goto(`${base}/disputes?merchantId=${bed.tenant.merchants[0].merchantId}&status=NEEDS_RESPONSE`);
    const ids = await page.locator('#disputes tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-dispute')));
    expect(ids.indexOf(soon.disputeId)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(soon.disputeId)).toBeLessThan(ids.indexOf(later.disputeId));
    expect(await page.locator(`[data-dispute="${soon.disputeId}"] [data-urgency="due-soon"]`).textContent()).toBe('Due soon');
    expect(await page.locator(`[data-dispute="${later.disputeId}"] [data-urgency]`).count()).toBe(0);
    expect(await fitsWidth(page, '#disputes')).toMatchObject({ pageFits: true });

    await page.click(`[data-dispute="${later.disputeId}"] a[href="/disputes/${later.disputeId}"]`);
    expect([await page.getAttribute('#state', 'data-status'), await page.textContent('#state')]).toEqual([
      'NEEDS_RESPONSE',
      'Needs a response',
    ]);
    expect(await page.textContent('#reason')).toBe('Product not received');
    expect(await page.textContent('#amount')).toBe('40.00 UYU');
    expect(await page.locator('#upload, #submit, #accept').count()).toBe(0);

    // A viewer's forged upload is refused and audited; nothing is kept.
    const csrf = await page.locator('input[name=_csrf]').first().getAttribute('value');
    const forged = await page.request.post(`${base}/disputes/${later.disputeId}/evidence?_csrf=${encodeURIComponent(csrf!)}`, {
      multipart: {
        _csrf: csrf!,
        operation: crypto.randomUUID(),
        file: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: pdfFile() },
      },
    });
    expect(forged.status()).toBe(403);
    expect((await disputeOf(later.disputeId)).evidence).toEqual([]);
    expect(await auditOf('dispute:evidence', viewer.email)).toEqual([expect.objectContaining({ result: 'refused' })]);
    // Another tenant's or an unknown dispute is not found.
    expect((await page.request.get(`${base}/disputes/${crypto.randomUUID()}`)).status()).toBe(404);
    await page.context().close();
  }, 90_000);

  it('lets an operator upload evidence, once per form, see a refused file’s reason, submit, and see the sandbox decide', async () => {
    const { intentId, disputeId } = await disputed(75);
    const page = await signIn(operator);
    await page.goto(`${base}/disputes/${disputeId}`);
    expect(await page.locator('#submit').count()).toBe(0);
    const operation = await page.locator('input[name=operation]').getAttribute('value');
    await page.setInputFiles('#file', [file('win-entrega.pdf', pdfFile('Entregado')), file('firma.png', pngFile())]);
    await page.click('#upload');
    await page.waitForURL(`${base}/disputes/${disputeId}?done=evidence`);
    expect(await page.textContent('#notice')).toBe('Pruebas agregadas.');
    expect(await page.locator('#evidence tbody tr').count()).toBe(2);
    expect((await disputeOf(disputeId)).evidence.map((e: Json) => e.fileName)).toEqual(['win-entrega.pdf', 'firma.png']);
    expect(await fitsWidth(page, 'main')).toMatchObject({ pageFits: true });
    await screenshot(page, 'dashboard-dispute-phone-es');

    // The same form sent again (a double click, a reload) keeps nothing twice: its operation is the API's Idempotency-Key.
    const csrf = await page.locator('input[name=_csrf]').first().getAttribute('value');
    const { body, contentType } = multipartBody([
      { field: '_csrf', content: csrf! },
      { field: 'operation', content: operation! },
      { fileName: 'win-entrega.pdf', contentType: 'application/pdf', content: fs.readFileSync(path.join(files, 'win-entrega.pdf')) },
      { fileName: 'firma.png', contentType: 'image/png', content: fs.readFileSync(path.join(files, 'firma.png')) },
    ]);
    const again = await page.request.post(`${base}/disputes/${disputeId}/evidence?_csrf=${encodeURIComponent(csrf!)}`, {
      headers: { 'content-type': contentType },
      data: body,
      maxRedirects: 0,
    });
    expect(again.status()).toBe(303);
    expect((await disputeOf(disputeId)).evidence).toHaveLength(2);

    // A file whose content is not what its name says: the API's reason, in Spanish, on the page; nothing kept.
    await page.setInputFiles('#file', [file('factura.pdf', Buffer.from('no soy un PDF'))]);
    await page.click('#upload');
    expect(await page.textContent('#problem')).toContain('No se pudo:');
    expect(await page.textContent('#problem')).toContain('factura.pdf');
    expect((await disputeOf(disputeId)).evidence).toHaveLength(2);
    // No file chosen.
    await page.click('#upload');
    expect(await page.textContent('#problem')).toBe('Elija al menos un archivo.');

    await page.click('#submit');
    await page.waitForURL(`${base}/disputes/${disputeId}?done=submitted`);
    expect([await page.getAttribute('#state', 'data-status'), await page.textContent('#state')]).toEqual(['UNDER_REVIEW', 'En revisión']);
    expect(await page.locator('#upload, #submit, #accept').count()).toBe(0);
    const won = await eventually(
      () => disputeOf(disputeId),
      (d) => d.status === 'WON',
    );
    expect(won.closedAt).not.toBeNull();
    await page.goto(`${base}/payments/${intentId}`);
    expect(await page.locator(`#disputes a[href="/disputes/${disputeId}"]`).count()).toBe(1);
    expect(await page.locator('#disputed').count()).toBe(0);
    expect(await page.textContent('#refundable')).toBe('75,00 UYU');
    const audited = await auditOf('dispute:evidence', operator.email);
    expect(audited.map((e) => e.result).sort()).toEqual(['refused', 'succeeded', 'succeeded']);
    expect(await auditOf('dispute:submit', operator.email)).toEqual([expect.objectContaining({ target: disputeId, result: 'succeeded' })]);
    await page.context().close();
  }, 90_000);

  it('accepts a dispute only after a confirmation, and shows the payment what it holds back', async () => {
    const { intentId, disputeId } = await disputed(30);
    const page = await signIn(operator, 'en-US');
    await page.goto(`${base}/payments/${intentId}`);
    expect(await page.textContent('#disputed')).toBe('30.00 UYU');
    expect(await page.textContent('#refundable')).toBe('0.00 UYU');
    await page.click(`#disputes a[href="/disputes/${disputeId}"]`);
    await page.click('#accept');
    expect(await page.textContent('#question')).toContain('30.00 UYU');
    expect((await disputeOf(disputeId)).status).toBe('NEEDS_RESPONSE');
    await page.click('#confirm');
    await page.waitForURL(`${base}/disputes/${disputeId}?done=accepted`);
    expect(await page.textContent('#notice')).toBe('Dispute accepted.');
    expect([await page.getAttribute('#state', 'data-status'), await page.textContent('#state')]).toEqual(['ACCEPTED', 'Accepted']);
    expect((await disputeOf(disputeId)).status).toBe('ACCEPTED');
    expect(await auditOf('dispute:accept', operator.email)).toEqual([expect.objectContaining({ target: disputeId, result: 'succeeded' })]);
    // Accepting again is the API's refusal, on the page.
    const csrf = await page.locator('input[name=_csrf]').first().getAttribute('value');
    const twice = await page.request.post(`${base}/disputes/${disputeId}/accept`, {
      form: { _csrf: csrf!, confirmed: 'yes' },
      headers: { 'accept-language': 'en-US' },
    });
    expect(twice.status()).toBe(422);
    expect(await twice.text()).toContain('Not done:');
    await page.context().close();
  }, 60_000);

  it('refuses an upload past the dispute’s limits without reading it all, and a form sent where none is taken', async () => {
    const { disputeId } = await disputed(20);
    const page = await signIn(operator, 'en-US');
    await page.goto(`${base}/disputes/${disputeId}`);
    const csrf = await page.locator('input[name=_csrf]').first().getAttribute('value');
    const tooLarge = await page.request.post(`${base}/disputes/${disputeId}/evidence?_csrf=${encodeURIComponent(csrf!)}`, {
      headers: { 'accept-language': 'en-US' },
      multipart: {
        _csrf: csrf!,
        operation: crypto.randomUUID(),
        file: { name: 'huge.pdf', mimeType: 'application/pdf', buffer: pdfFile('huge', 10_200_000) },
      },
    });
    expect(tooLarge.status()).toBe(413);
    expect(await tooLarge.text()).toContain('The files are over the limit');
    // The form's token only inside the body: the session guard cannot see it before reading, and reads nothing (contract §30).
    const tokenInside = await page.request.post(`${base}/disputes/${disputeId}/evidence`, {
      multipart: { _csrf: csrf!, operation: crypto.randomUUID(), file: { name: 'p.pdf', mimeType: 'application/pdf', buffer: pdfFile() } },
    });
    expect(tokenInside.status()).toBe(403);
    expect(tokenInside.headers()['connection']).toBe('close');
    // A multipart form to a route that takes only plain forms has no readable token: refused.
    const elsewhere = await page.request.post(`${base}/balance/payout`, {
      multipart: { _csrf: csrf!, merchantId: bed.tenant.merchants[0].merchantId, currency: 'UYU' },
    });
    expect(elsewhere.status()).toBe(403);
    // A body that is not the multipart it claims is the request's fault.
    const broken = await page.request.post(`${base}/disputes/${disputeId}/evidence?_csrf=${encodeURIComponent(csrf!)}`, {
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      data: Buffer.from(`--xyz\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrf}`),
    });
    expect(broken.status()).toBeGreaterThanOrEqual(400);
    expect(broken.status()).toBeLessThan(500);
    expect((await disputeOf(disputeId)).evidence).toEqual([]);
    await page.context().close();
  }, 60_000);

  it("never shows or answers another merchant's dispute for a merchant-scoped operator, guessed addresses included", async () => {
    const { disputeId } = await disputed(45);
    const page = await signIn(otherMerchantsOperator, 'en-US');
    await page.goto(`${base}/disputes?merchantId=${bed.tenant.merchants[0].merchantId}`);
    expect(await page.locator(`[data-dispute="${disputeId}"]`).count()).toBe(0);
    expect(await page.textContent('#disputes')).toBe('No disputes.');
    expect((await page.goto(`${base}/disputes/${disputeId}`))?.status()).toBe(404);
    const csrf = await page.locator('input[name=_csrf]').first().getAttribute('value');
    for (const action of ['accept', 'submit']) {
      const forged = await page.request.post(`${base}/disputes/${disputeId}/${action}`, { form: { _csrf: csrf!, confirmed: 'yes' } });
      expect([action, forged.status()]).toEqual([action, 404]);
    }
    const upload = await page.request.post(`${base}/disputes/${disputeId}/evidence?_csrf=${encodeURIComponent(csrf!)}`, {
      multipart: { _csrf: csrf!, operation: crypto.randomUUID(), file: { name: 'p.pdf', mimeType: 'application/pdf', buffer: pdfFile() } },
    });
    expect(upload.status()).toBe(404);
    expect(await disputeOf(disputeId)).toMatchObject({ status: 'NEEDS_RESPONSE', evidence: [] });
    await page.context().close();
  }, 60_000);
});
