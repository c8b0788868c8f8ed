import { NestExpressApplication } from '@nestjs/platform-express';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import { codeFor, listeningDashboard, Person, readyPerson } from './dashboard-people';
import { MerchantId } from '@pcs/kernel';
import { PricingService } from '@pcs/settlement';
import { fitsWidth, launchChromium, screenshot } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { Browser, Page } from 'playwright-core';
import { Testbed, testbed } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** The dashboard's money after the collection (contract §19) in a real browser: balance, payouts, fees, reconciliation. */
describe('the dashboard: balance, payouts, fees and net, reconciliation', () => {
  let bed: Testbed;
  let dashboard: NestExpressApplication;
  let base: string;
  let browser: Browser;
  let identity: DashboardIdentity;
  let operator: Person;
  let viewer: Person;
  let merchantId: string;
  let pendingIntent: string;

  beforeAll(async () => {
    bed = await testbed({ payer: { firstName: 'Sofía', lastName: 'Saldo', email: 'sofia@example.uy' } });
    merchantId = bed.tenant.merchants[0].merchantId;
    const brou = ((await bed.merchant.get('/bank?country=URY')).body as Json[]).find((b) => b.code === '001')!.bankId;
    await bed.merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, {
      bankId: brou,
      accountNumber: '00123456700001',
      accountType: 'SAVINGS',
    });
    // One payment pending (the catalog's two business days), then the price changed to pay at once: one available.
    pendingIntent = await bed.paidIntent(1220);
    const oca = ((await bed.merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Json[]).find(
      (r) => r.countryProcessor.paymentMethod.paymentMethodName === 'OCA',
    )!;
    await bed.app
      .get(PricingService)
      .set(merchantId as MerchantId, oca.merchantCountryProcessorId, { percentage: 3, settlementDelayDays: 0 });
    await bed.paidIntent(500);
    ({ dashboard, base, identity } = await listeningDashboard(bed));
    const person = (role: 'operator' | 'viewer') =>
      readyPerson(identity, { businessId: bed.tenant.business.businessId, merchantId: null, role });
    [operator, viewer] = await Promise.all([person('operator'), person('viewer')]);
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
    await bed?.close();
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

  it('shows the balance per currency as the API has it, with what becomes available when, on a 390-pixel phone', async () => {
    const page = await signIn(viewer);
    await page.goto(`${base}/balance`);
    const api = (await bed.merchant.get(`/merchant/${merchantId}/balance`)).body.balances.find((b: Json) => b.currency === 'UYU');
    const card = page.locator('[data-currency="UYU"]');
    const es = (n: number) => `${n.toLocaleString('es-UY', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} UYU`;
    expect(await card.locator('[data-figure="available"]').textContent()).toBe(es(api.available));
    expect(await card.locator('[data-figure="pending"]').textContent()).toBe(es(api.pending));
    expect(api.pending).toBeGreaterThan(0);
    expect(await page.locator('svg.chart rect.bar').count()).toBeGreaterThan(0);
    expect(await page.locator('#movements tbody tr').count()).toBe(2);
    // A viewer sees no payout form.
    expect(await page.locator('#request-payout').count()).toBe(0);
    expect(await fitsWidth(page, '#balances')).toEqual({ pageFits: true, elementFits: true });
    await screenshot(page, 'dashboard-balance-phone-es');
    await page.context().close();
  }, 60_000);

  it('shows fees, net and the availability date on the payment page', async () => {
    const page = await signIn(viewer, 'en-US');
    await page.goto(`${base}/payments/${pendingIntent}`);
    const [row] = (await bed.merchant.get(`/payin?paymentIntentId=${pendingIntent}`)).body[0].results;
    const en = (n: number) => `${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} UYU`;
    expect(await page.locator('#rows [data-field="fee"]').first().textContent()).toBe(en(row.feeAmount + row.feeTaxAmount));
    expect(await page.locator('#rows [data-field="net"]').first().textContent()).toBe(en(row.netAmount));
    await page.context().close();
  }, 60_000);

  it('lets an operator pay out with a confirmation, then follow the payout to what it swept and its CSV, audited', async () => {
    const page = await signIn(operator);
    await page.goto(`${base}/balance`);
    const available = (await bed.merchant.get(`/merchant/${merchantId}/balance`)).body.balances.find(
      (b: Json) => b.currency === 'UYU',
    ).available;
    await page.click('#request-payout');
    expect(await page.textContent('#question')).toContain('00123456700001');
    await page.click('#confirm');
    await page.waitForURL(/\/payouts\/[0-9a-f-]{36}\?done=requested/);
    expect(await page.textContent('#notice')).toContain('Retiro solicitado');
    const payoutId = new URL(page.url()).pathname.split('/').pop()!;
    expect((await bed.merchant.get(`/payout/${payoutId}`)).body).toMatchObject({ amount: available, transactionCount: 1 });
    expect(await page.locator('#swept tbody tr').count()).toBe(2);
    const csv = await page.request.get(`${base}/payouts/${payoutId}/transactions.csv`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect((await csv.text()).trim().split('\r\n')).toHaveLength(3);
    await screenshot(page, 'dashboard-payout-phone-es');
    // Listed among the merchant's payouts.
    await page.goto(`${base}/payouts`);
    expect(await page.locator(`#payouts a[href="/payouts/${payoutId}"]`).count()).toBe(1);
    expect(await fitsWidth(page, '#payouts')).toMatchObject({ pageFits: true });
    const entries = await identity.auditLog(bed.tenant.business.businessId, { limit: 20 });
    expect(entries.find((e) => e.action === 'payout' && e.email === operator.email)).toMatchObject({
      target: merchantId,
      result: 'succeeded',
    });
    // Nothing left: asking again is refused with the API's reason, on the page.
    await page.goto(`${base}/balance`);
    await page.selectOption('#currency', 'UYU');
    await page.click('#request-payout');
    await page.click('#confirm');
    expect(await page.textContent('#problem')).toContain('No hay fondos para retirar');
    await page.context().close();
  }, 90_000);

  it('refuses a viewer’s forged payout post (403), and a malformed one (4xx), paying nothing', async () => {
    const page = await signIn(viewer);
    await page.goto(`${base}/balance`);
    const csrf = await page.locator('input[name=_csrf]').first().getAttribute('value');
    const before = (await bed.merchant.get(`/payout?merchantId=${merchantId}`)).body[0].rowCount;
    const forged = await page.request.post(`${base}/balance/payout`, {
      form: { _csrf: csrf!, merchantId, currency: 'UYU', confirmed: 'yes', operation: crypto.randomUUID() },
    });
    expect(forged.status()).toBe(403);
    const operatorPage = await signIn(operator);
    await operatorPage.goto(`${base}/balance`);
    const token = await operatorPage.locator('input[name=_csrf]').first().getAttribute('value');
    const forms: Record<string, string>[] = [
      { _csrf: token!, merchantId, currency: 'XXX' },
      { _csrf: token!, merchantId: crypto.randomUUID(), currency: 'UYU' },
      { _csrf: token!, merchantId, currency: 'UYU', amount: '-5' },
      { _csrf: token!, merchantId, currency: 'UYU', confirmed: 'yes', operation: 'not-a-uuid' },
    ];
    for (const form of forms) {
      const answer = await operatorPage.request.post(`${base}/balance/payout`, { form });
      expect(answer.status()).toBeGreaterThanOrEqual(400);
      expect(answer.status()).toBeLessThan(500);
    }
    expect((await bed.merchant.get(`/payout?merchantId=${merchantId}`)).body[0].rowCount).toBe(before);
    await page.context().close();
    await operatorPage.context().close();
  }, 60_000);

  it('lists reconciliation runs and shows a run’s discrepancies', async () => {
    const runId = crypto.randomUUID();
    await bed.dataSource.query(
      `INSERT INTO reconciliation_run (run_id, business_id, merchant_id, provider, from_date, to_date, status, matched, ignored, created_at, finished_at)
       VALUES ($1, $2, $3, 'MERCADO_PAGO', '2026-11-24', '2026-11-24', 'COMPLETED', 7, 2, now(), now())`,
      [runId, bed.tenant.business.businessId, merchantId],
    );
    await bed.dataSource.query(
      `INSERT INTO reconciliation_discrepancy (run_id, position, kind, external_id, ours, theirs)
       VALUES ($1, 0, 'AMOUNT_MISMATCH', 'order-77', '{"externalId":"p1","currency":"UYU","amount":25000,"fee":998,"date":null}', '{"externalId":"p1","currency":"UYU","amount":25100,"fee":998,"date":null}')`,
      [runId],
    );
    const page = await signIn(viewer, 'en-US');
    await page.goto(`${base}/reconciliation`);
    expect(await page.locator(`#runs a[href="/reconciliation/${runId}"]`).count()).toBe(1);
    await page.goto(`${base}/reconciliation/${runId}`);
    expect(await page.textContent('#matched')).toBe('7');
    const row = await page.locator('#discrepancies tbody tr').first().textContent();
    expect(row).toContain('AMOUNT_MISMATCH');
    expect(row).toContain('order-77');
    expect(row).toContain('250');
    expect(row).toContain('251');
    expect((await page.request.get(`${base}/reconciliation/${crypto.randomUUID()}`)).status()).toBe(404);
    await screenshot(page, 'dashboard-reconciliation-phone-en');
    await page.context().close();
  }, 60_000);
});
