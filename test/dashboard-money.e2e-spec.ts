import { NestExpressApplication } from '@nestjs/platform-express';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import { Currency, MerchantId } from '@pcs/kernel';
import { BalancesService, PayoutsService, PricingService } from '@pcs/settlement';
import { launchChromium, screenshot } from '@pcs/testing';
import { Browser, Page } from 'playwright-core';
import { authenticatorCode, codeFor, listeningDashboard, Person, readyPerson } from './dashboard-people';
import { Testbed, testbed } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const BROU = 'dc53087a-2434-475e-bdcb-ea34a941e862';
const SANTANDER_UY = 'f5bf0358-24c3-4b35-8921-8b83117db42a';

/**
 * What a person sees of money (contract §24), tried as a new user after the README's walkthrough (a payment of 1,220 UYU
 * refunded while its net was still pending), in a real browser at 390 and 1280 pixels, in Spanish, Portuguese and English:
 * the refund drew on the pending net, the small negative that is left is explained, the payout form offers the merchant's
 * currency, the movements fit their card, dates are the merchant's own, types and statuses are words, and a changed account
 * waits until an admin confirms it with a code.
 */
describe('the dashboard’s money as a person reads it', () => {
  let bed: Testbed;
  let dashboard: NestExpressApplication;
  let base: string;
  let browser: Browser;
  let identity: DashboardIdentity;
  let admin: Person;
  let operator: Person;
  let merchantId: string;
  let net: number;

  beforeAll(async () => {
    // Payouts stay IN_TRANSIT until a test settles them: under load a sign-in may outlast the sandbox rail's usual second.
    bed = await testbed({
      payer: { firstName: 'Nueva', lastName: 'Usuaria', email: 'nueva@example.uy' },
      settlement: { sandboxPayoutDelaySeconds: 3600 },
    });
    merchantId = bed.tenant.merchants[0].merchantId;
    await bed.merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, {
      bankId: BROU,
      accountNumber: '00123456700001',
      accountType: 'SAVINGS',
    });
    // The catalog's price and two business days' wait, as the walkthrough's merchant has them; the payment refunded at once.
    const oca = ((await bed.merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Json[]).find(
      (r) => r.countryProcessor.paymentMethod.paymentMethodName === 'OCA',
    )!;
    await bed.app
      .get(PricingService)
      .set(merchantId as MerchantId, oca.merchantCountryProcessorId as string, { percentage: 4.49, settlementDelayDays: 2 });
    const intentId = await bed.paidIntent(1220);
    net = ((await bed.merchant.get(`/payin?paymentIntentId=${intentId}`)).body[0].results as Json[])[0].netAmount as number;
    expect((await bed.merchant.post(`/payment-intent/${intentId}/refund`)).status).toBe(200);
    ({ dashboard, base, identity } = await listeningDashboard(bed));
    [admin, operator] = await Promise.all([person('admin'), person('operator')]);
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
    await bed?.close();
  });

  /** A person of the business ready to sign in; one of their own for a test that confirms with a code (codes are used once). */
  const person = (role: 'admin' | 'operator') =>
    readyPerson(identity, { businessId: bed.tenant.business.businessId, merchantId: null, role });

  const signIn = async (who: Person, locale: string, width = 390): Promise<Page> => {
    const page = await (await browser.newContext({ locale, viewport: { width, height: 900 } })).newPage();
    await page.goto(`${base}/sign-in`);
    await page.fill('#email', who.email);
    await page.fill('#password', who.password);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/sign-in\/code/);
    await page.fill('#code', await codeFor(who));
    await page.click('#verify');
    await page.waitForURL(`${base}/overview`);
    return page;
  };
  /** Whether an element stays within the card it is in (nothing scrolls sideways out of it). */
  const withinCard = (page: Page, selector: string): Promise<boolean> =>
    page.evaluate(`(() => {
      const table = document.querySelector(${JSON.stringify(selector)});
      const card = table && table.closest('.card');
      if (!table || !card) return false;
      const [t, c] = [table.getBoundingClientRect(), card.getBoundingClientRect()];
      return t.left >= c.left && t.right <= c.right && card.scrollWidth <= card.clientWidth && document.documentElement.scrollWidth <= document.documentElement.clientWidth;
    })()`);

  it('explains the small negative the refund left (it drew on the pending net first), offers pesos, and keeps the table in its card', async () => {
    const api = (await bed.merchant.get(`/merchant/${merchantId}/balance`)).body.balances as Json[];
    const uyu = api.find((b) => b.currency === 'UYU')!;
    // The refund of 1,220 took the payment's own pending net first: what is left is the fee, taken from available.
    expect(uyu.pending).toBe(0);
    expect(Math.round(uyu.available * 100)).toBe(Math.round((net - 1220) * 100));
    expect(api.map((b) => b.currency)).toContain('USD');
    for (const width of [390, 1280]) {
      const page = await signIn(admin, 'es-UY', width);
      await page.goto(`${base}/balance`);
      const card = page.locator('.figure[data-currency="UYU"]');
      expect(await card.locator('[data-figure="available"]').textContent()).toContain('-');
      expect(await card.locator('[data-explains="negative"]').textContent()).toContain('Disponible es negativo');
      expect(await page.locator('.figure[data-currency="USD"] [data-explains]').count()).toBe(0);
      // No currency has money: the form offers the merchant's own, pesos (not the first in the alphabet, dollars).
      expect(await page.locator('#currency').inputValue()).toBe('UYU');
      expect(await withinCard(page, '#movements')).toBe(true);
      if (width === 390) await screenshot(page, 'dashboard-money-balance-phone-es');
      await page.context().close();
    }
  }, 90_000);

  it('shows the movements’ types and statuses as words and their dates in Montevideo’s time, in Spanish, Portuguese and English', async () => {
    const rows = (await bed.merchant.get(`/balance-transaction?merchantId=${merchantId}&limit=10`)).body[0].results as Json[];
    const words = {
      'es-UY': { types: ['Cobro', 'Reembolso'], pending: 'Pendiente', zone: 'Fechas y horas en la hora de Montevideo.' },
      'pt-BR': { types: ['Recebimento', 'Reembolso'], pending: 'Pendente', zone: 'Datas e horas no horário de Montevideo.' },
      'en-US': { types: ['Payment', 'Refund'], pending: 'Pending', zone: 'Dates and times in Montevideo time.' },
    } as const;
    for (const [locale, expected] of Object.entries(words)) {
      const page = await signIn(operator, locale, locale === 'pt-BR' ? 390 : 1280);
      await page.goto(`${base}/balance`);
      expect(await page.getAttribute('html', 'lang')).toBe(locale === 'es-UY' ? 'es' : locale === 'pt-BR' ? 'pt-BR' : 'en');
      const shown = await page.locator('#movements tbody tr td:nth-child(2)').allTextContents();
      expect(shown.map((s) => s.trim())).toEqual(expect.arrayContaining([...expected.types]));
      expect(shown.join(' ')).not.toMatch(/PAYIN|REFUND/);
      expect(await page.locator('#movements [data-status="PENDING"]').first().textContent()).toBe(expected.pending);
      expect(await page.textContent('#time-zone')).toBe(expected.zone);
      // The first movement's date as Montevideo reads it (UTC−3), not UTC's.
      const first = new Date(rows[0].createdAt as string).toLocaleString(locale === 'es-UY' ? 'es-UY' : locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'America/Montevideo',
      });
      expect((await page.locator('#movements tbody tr').first().locator('td').first().textContent())!.trim()).toBe(first);
      expect(await withinCard(page, '#movements')).toBe(true);
      if (locale === 'pt-BR') await screenshot(page, 'dashboard-money-balance-phone-pt');
      await page.context().close();
    }
  }, 120_000);

  it('names payments’ types and statuses, and dates them in their merchant’s time, on the payments list and a payment', async () => {
    const [charge] = (
      (await bed.merchant.get(`/payin?merchantId=${merchantId}&status=APPROVED&limit=10`)).body[0].results as Json[]
    ).filter((r) => r.transactionType === 'PAYIN');
    const page = await signIn(operator, 'pt-BR');
    await page.goto(`${base}/payments?status=APPROVED`);
    // The filter speaks the page's language too; its values stay the API's codes.
    expect(await page.locator('#status option[value="APPROVED"]').textContent()).toBe('Aprovado');
    const row = page.locator('#payments tbody tr[data-concept="PAYIN"]').first();
    expect(await row.locator('td').nth(2).textContent()).toBe('Recebimento');
    expect(await row.locator('[data-status="APPROVED"]').textContent()).toBe('Aprovado');
    expect(await page.textContent('#time-zone')).toBe('Datas e horas no horário de Montevideo.');
    const when = new Date(charge.createdAt as string).toLocaleString('pt-BR', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'America/Montevideo',
    });
    // The charge's own row: its refunds link to the same payment and may be a minute later.
    expect(
      (await page
        .locator(`#payments tbody tr[data-concept="PAYIN"]:has(a[href="/payments/${charge.paymentIntentId as string}"]) td`)
        .first()
        .textContent())!.trim(),
    ).toBe(when);
    await page.goto(`${base}/payments/${charge.paymentIntentId as string}`);
    expect([await page.getAttribute('#state', 'data-status'), await page.textContent('#state')]).toEqual(['REFUNDED', 'Reembolsado']);
    await page.context().close();
  }, 60_000);

  it('holds a changed account: the page says until when, an operator only reads it, an admin ends it with a code', async () => {
    await bed.merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, {
      bankId: SANTANDER_UY,
      accountNumber: '5566778899',
      accountType: 'CHECKING',
    });
    const reader = await signIn(operator, 'es-UY');
    await reader.goto(`${base}/balance`);
    expect(await reader.textContent('#hold-UYU')).toContain('····8899');
    expect(await reader.locator('#confirm-UYU').count()).toBe(0);
    await reader.context().close();

    const admin = await person('admin');
    const page = await signIn(admin, 'es-UY');
    await page.goto(`${base}/balance`);
    expect(await page.textContent('#hold-UYU')).toContain('Los retiros a ella esperan hasta');
    await screenshot(page, 'dashboard-money-hold-phone-es');
    // A wrong code is refused on the page, the account still held.
    await page.fill('#code-UYU', '000000');
    await page.click('#confirm-UYU');
    expect(await page.textContent('#problem')).toContain('La cuenta no se confirmó');
    expect(await page.locator('#hold-UYU').count()).toBe(1);
    await page.fill('#code-UYU', await authenticatorCode(admin));
    await page.click('#confirm-UYU');
    await page.waitForURL(/done=confirmed/);
    expect(await page.textContent('#notice')).toContain('Cuenta confirmada');
    expect(await page.locator('#hold-UYU').count()).toBe(0);
    const [account] = (await bed.merchant.get(`/merchant/${merchantId}/settlement-account`)).body as Json[];
    expect(account).toMatchObject({ holdUntil: null, accountNumber: '5566778899' });
    expect(account.confirmedAt).not.toBeNull();
    const audit = await identity.auditLog(bed.tenant.business.businessId, { limit: 30 });
    expect(audit.filter((e) => e.action === 'settlement-account:confirm' && e.email === admin.email).map((e) => e.result)).toEqual(
      expect.arrayContaining(['succeeded', 'refused']),
    );
    await page.context().close();
  }, 90_000);

  it('labels a payout’s status in the page’s language, on the list and on the payout', async () => {
    await bed.app.get(BalancesService).adjust(merchantId as MerchantId, bed.tenant.business.businessId, Currency.UYU, 50_000, 'test money');
    const payout = (await bed.merchant.post(`/merchant/${merchantId}/payout`, { currency: 'UYU' })).body as Json;
    expect(payout.status).toBe('IN_TRANSIT');
    const page = await signIn(operator, 'pt-BR');
    await page.goto(`${base}/payouts`);
    expect(await page.locator(`#payouts [data-status="IN_TRANSIT"]`).first().textContent()).toBe('A caminho');
    await page.goto(`${base}/payouts/${payout.payoutId as string}`);
    expect(await page.textContent('#state')).toBe('A caminho');
    expect(await page.locator('#swept [data-status="AVAILABLE"]').first().textContent()).toBe('Disponível');
    await page.context().close();
  }, 60_000);

  it('says when a bank returned a payout: the payout is Returned, the account stopped, and an admin may confirm it', async () => {
    const payouts = bed.app.get(PayoutsService);
    const [sent] = ((await bed.merchant.get(`/payout?merchantId=${merchantId}&status=IN_TRANSIT`)).body[0].results as Json[]).map(
      (p) => p.payoutId as string,
    );
    await payouts.settle(sent);
    await payouts.markReturned(sent, 'cuenta cerrada');
    const admin = await person('admin');
    const page = await signIn(admin, 'en-US', 1280);
    await page.goto(`${base}/balance`);
    const notice = page.locator('#hold-UYU[data-returned="true"]');
    expect(await notice.textContent()).toContain('A bank returned payout');
    expect(await notice.textContent()).toContain('····8899');
    expect(await notice.textContent()).toContain('If the account is right and the bank has resolved what refused it');
    // The movements, now with their payout's links, still fit their card on a desktop.
    expect(await withinCard(page, '#movements')).toBe(true);
    await screenshot(page, 'dashboard-money-returned-desktop-en');
    await notice.locator(`a[href="/payouts/${sent}"]`).click();
    expect(await page.textContent('#state')).toBe('Returned by the bank');
    await page.goto(`${base}/balance`);
    await page.fill('#code-UYU', await authenticatorCode(admin));
    await page.click('#confirm-UYU');
    await page.waitForURL(/done=confirmed/);
    expect(await page.locator('#hold-UYU').count()).toBe(0);
    expect(((await bed.merchant.get(`/merchant/${merchantId}/settlement-account`)).body as Json[])[0].returnedPayoutId).toBeNull();
    await page.context().close();
  }, 90_000);
});
