import { NestExpressApplication } from '@nestjs/platform-express';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import { fitsWidth, launchChromium, screenshot } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { Browser, Page } from 'playwright-core';
import { codeFor, listeningDashboard, Person, readyPerson } from './dashboard-people';
import { Testbed, testbed } from './testbed';

/**
 * Subscriptions in the dashboard (contracts §18 and §31), in a real browser on a 390-pixel phone: from a payer to
 * their history, a subscription with its invoices (paid, and declined with its tries), in Spanish, English and
 * Portuguese; nothing of another merchant's for a merchant-scoped person.
 */
describe('the dashboard: subscriptions and a payer’s history', () => {
  let bed: Testbed;
  let dashboard: NestExpressApplication;
  let base: string;
  let browser: Browser;
  let viewer: Person;
  let operator: Person;
  let otherMerchantsViewer: Person;
  let identity: DashboardIdentity;
  let subscriptionId: string;
  let declinedId: string;

  beforeAll(async () => {
    bed = await testbed({ merchants: 2, payer: { firstName: 'Sofía', lastName: 'Socia', email: 'sofia@example.uy' } });
    ({ dashboard, base, identity } = await listeningDashboard(bed));
    [viewer, operator, otherMerchantsViewer] = await Promise.all([
      readyPerson(identity, { businessId: bed.tenant.business.businessId, merchantId: null, role: 'viewer' }),
      readyPerson(identity, { businessId: bed.tenant.business.businessId, merchantId: null, role: 'operator' }),
      readyPerson(identity, { businessId: bed.tenant.business.businessId, merchantId: bed.tenant.merchants[1].merchantId, role: 'viewer' }),
    ]);
    const merchantId = bed.tenant.merchants[0].merchantId;
    const instrument = (await bed.merchant.post('/payment-instrument', { payerId: bed.payerId, paymentMethodName: 'VISA', country: 'URY' }))
      .body.paymentInstrumentId as string;
    const clock = (await bed.merchant.post('/test-clock', { merchantId, frozenTime: '2027-01-15T12:00:00Z' })).body.testClockId as string;
    const subscribe = async (amount: number, description: string) =>
      (
        await bed.merchant.post('/subscription', {
          merchantId,
          payerId: bed.payerId,
          paymentInstrumentId: instrument,
          amount,
          currency: 'UYU',
          interval: 'MONTH',
          intervalCount: 1,
          description,
          testClockId: clock,
        })
      ).body.subscriptionId as string;
    subscriptionId = await subscribe(890, 'Gimnasio mensual');
    declinedId = await subscribe(450.13, 'Clases de natación');
    expect((await bed.merchant.post(`/test-clock/${clock}/advance`, { to: '2027-03-16T12:00:00Z' })).status).toBe(200);
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
    await bed?.close();
  });

  const signIn = async (person: Person, locale: string): Promise<Page> => {
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

  it('leads from a payer to their history, and from a subscription to its invoices and their payments', async () => {
    const page = await signIn(viewer, 'en-US');
    await page.goto(`${base}/payers?searchTerm=Socia`);
    await page.click(`a[href*="payerId=${bed.payerId}"]`);
    await page.waitForURL(/\/subscriptions\?/);
    expect(await page.textContent('h1')).toBe('Subscriptions · History');
    const rows = await page.locator('#subscriptions tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-subscription')));
    expect(rows.sort()).toEqual([subscriptionId, declinedId].sort());
    expect(await page.textContent(`[data-subscription="${declinedId}"] [data-status]`)).toBe('Unpaid');
    expect(await fitsWidth(page, '#subscriptions')).toMatchObject({ pageFits: true });

    await page.click(`a[href="/subscriptions/${subscriptionId}"]`);
    expect([await page.getAttribute('#state', 'data-status'), await page.textContent('#amount')]).toEqual(['ACTIVE', '890.00 UYU']);
    const invoices = page.locator('#invoices tbody tr');
    expect(await invoices.count()).toBe(3);
    expect(await invoices.locator('[data-status]').allTextContents()).toEqual(['Paid', 'Paid', 'Paid']);
    await page.click('#invoices tbody tr:first-child a[href^="/payments/"]');
    await page.waitForURL(/\/payments\//);
    await screenshot(page, 'dashboard-subscription-payment-en');

    await page.goto(`${base}/subscriptions/${declinedId}`);
    const declined = page.locator('#invoices tbody tr').first();
    expect(await declined.locator('[data-status]').textContent()).toBe('Uncollectible');
    expect(await declined.locator('td').nth(3).textContent()).toBe('5');
    expect(await declined.locator('td').nth(4).textContent()).toBe('insufficient funds');
    expect(await fitsWidth(page, '#invoices')).toMatchObject({ pageFits: true });
    await screenshot(page, 'dashboard-subscription-declined-en');
    await page.context().close();
  }, 60_000);

  it('speaks Spanish and Portuguese', async () => {
    for (const [locale, title, status] of [
      ['es-UY', 'Suscripciones', 'Activa'],
      ['pt-BR', 'Assinaturas', 'Ativa'],
    ] as const) {
      const page = await signIn(viewer, locale);
      await page.goto(`${base}/subscriptions?merchantId=${bed.tenant.merchants[0].merchantId}`);
      expect(await page.textContent('h1')).toBe(title);
      expect(await page.textContent(`[data-subscription="${subscriptionId}"] [data-status]`)).toBe(status);
      await screenshot(page, `dashboard-subscriptions-${locale}`);
      await page.context().close();
    }
  }, 60_000);

  it('shows a merchant-scoped person nothing of another merchant’s subscriptions, guessed addresses included', async () => {
    const page = await signIn(otherMerchantsViewer, 'en-US');
    await page.goto(`${base}/subscriptions?merchantId=${bed.tenant.merchants[0].merchantId}&payerId=${bed.payerId}`);
    expect(await page.textContent('#subscriptions')).toBe('No subscriptions.');
    expect((await page.goto(`${base}/subscriptions/${subscriptionId}`))?.status()).toBe(404);
    expect((await page.goto(`${base}/subscriptions/${crypto.randomUUID()}`))?.status()).toBe(404);
    await page.context().close();
  }, 60_000);

  it('lets an operator pause, resume and cancel at the period’s end after a confirmation, audited; a viewer neither sees nor forges it', async () => {
    const viewing = await signIn(viewer, 'en-US');
    await viewing.goto(`${base}/subscriptions/${subscriptionId}`);
    expect(await viewing.locator('#actions').count()).toBe(0);
    const csrf = await viewing.locator('input[name=_csrf]').first().getAttribute('value');
    const forged = await viewing.request.post(`${base}/subscriptions/${subscriptionId}/pause`, { form: { _csrf: csrf! } });
    expect(forged.status()).toBe(403);
    await viewing.context().close();
    expect((await bed.merchant.get(`/subscription/${subscriptionId}`)).body.status).toBe('ACTIVE');

    const page = await signIn(operator, 'en-US');
    await page.goto(`${base}/subscriptions/${subscriptionId}`);
    await page.click('#pause');
    expect([await page.textContent('#notice'), await page.getAttribute('#state', 'data-status')]).toEqual([
      'Subscription paused.',
      'PAUSED',
    ]);
    await page.click('#resume');
    expect([await page.textContent('#notice'), await page.getAttribute('#state', 'data-status')]).toEqual([
      'Subscription resumed.',
      'ACTIVE',
    ]);
    await page.click('#cancel-at-end');
    expect(await page.textContent('#question')).toContain('It is canceled when the current period ends');
    expect(await fitsWidth(page, '#confirm')).toMatchObject({ pageFits: true });
    await page.click('#confirm');
    expect(await page.textContent('#notice')).toBe('Subscription canceled.');
    const after = (await bed.merchant.get(`/subscription/${subscriptionId}`)).body;
    expect([after.status, after.cancelAtPeriodEnd]).toEqual(['ACTIVE', true]);
    await page.context().close();
    const audited = (await identity.auditLog(bed.tenant.business.businessId, { limit: 50 }))
      .filter((e) => e.action.startsWith('subscription:'))
      .map((e) => [e.action, e.result, e.email === operator.email]);
    expect(audited).toEqual(
      expect.arrayContaining([
        ['subscription:pause', 'refused', false],
        ['subscription:pause', 'succeeded', true],
        ['subscription:resume', 'succeeded', true],
        ['subscription:cancel', 'succeeded', true],
      ]),
    );
  }, 60_000);
});
