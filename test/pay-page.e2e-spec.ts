import { errorShape, fitsWidth, launchChromium, screenshot } from '@pcs/testing';
import { Browser } from 'playwright-core';
import request from 'supertest';
import { freePort } from './payins-app';
import { Inbox } from './smtp-inbox';
import { Testbed, testbed } from './testbed';

type Relationship = { merchantCountryProcessorId: string; countryProcessor: { paymentMethod: { paymentMethodName: string } } };

/**
 * A link's hosted pay page in a real browser: the merchant shares a link, the
 * email reaches a real SMTP server, the payer opens the link it carries on a
 * phone, picks a method, approves at the sandbox gateway, comes back to the
 * paid page; the link is then USED everywhere. Also on a desktop in English,
 * the expired and deleted pages, and a cross-site form post refused.
 */
describe("a link's pay page in a real browser", () => {
  let bed: Testbed;
  let browser: Browser;
  let inbox: Inbox;
  let processors: string[];

  beforeAll(async () => {
    inbox = new Inbox(await freePort());
    await inbox.start();
    bed = await testbed({ reachable: true, mail: { smtpUrl: `smtp://127.0.0.1:${inbox.port}`, directory: null } });
    const relationships = (await bed.business.get(`/merchant-country-processor?merchantId=${bed.tenant.merchants[0].merchantId}`))
      .body as Relationship[];
    processors = relationships
      .filter((r) => ['VISA', 'OCA'].includes(r.countryProcessor.paymentMethod.paymentMethodName))
      .map((r) => r.merchantCountryProcessorId);
    // The merchant offers installments with a credit card (contract §25): the page says so before the payer leaves.
    const policy = await bed.business.put(`/merchant/${bed.tenant.merchants[0].merchantId}/configuration`, {
      installments: { URY: { maxInstallments: 6, interestFreeUpTo: 3 } },
    });
    expect(policy.status).toBe(200);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await bed.close();
    await inbox.stop();
  });

  const newLink = async (extra: Record<string, unknown> = {}) =>
    (
      await bed.merchant.post('/link', {
        amount: 1220,
        vatPercentage: 22,
        currency: 'UYU',
        merchantCountryProcessors: processors,
        country: 'URY',
        description: 'Dos cafés',
        ...extra,
      })
    ).body as { linkId: string; url: string };

  it('takes a payer on a phone from the emailed link to the gateway and back to the paid page; the link is then USED', async () => {
    const link = await newLink();
    const shared = await bed.merchant.post(`/link/${link.linkId}/share`, { receiverEmail: 'payer@example.uy', receiverName: 'Paula' });
    expect(shared.status).toBe(200);
    const [mail] = await inbox.waitFor(1);
    expect((mail.to as { text: string }).text).toBe('payer@example.uy');
    // The payer follows the link in the email's HTML part, as a mail client would.
    const emailed = /href="([^"]+)"/.exec(String(mail.html))?.[1];
    expect(emailed).toBe(link.url);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-UY', deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(emailed!);
    expect(await page.getAttribute('#state', 'data-state')).toBe('CHOOSE');
    expect(await page.textContent('#amount')).toBe('1.220,00 UYU');
    expect(await page.textContent('#vat')).toBe('IVA incluido: 220,00 UYU');
    expect(await page.textContent('#description')).toBe('Dos cafés');
    expect((await page.textContent('#expires')) ?? '').toMatch(/^Vence el /);
    expect(await fitsWidth(page, 'button[data-method="VISA"]')).toEqual({ pageFits: true, elementFits: true });
    expect(await page.textContent('#installments')).toBe('Con tarjeta de crédito, hasta 6 cuotas (3 sin interés): elija el plan al pagar.');
    expect(await fitsWidth(page, '#installments')).toEqual({ pageFits: true, elementFits: true });
    await screenshot(page, 'pay-page-phone-es');
    await page.click('button[data-method="VISA"]');
    await page.waitForSelector('#amount');
    expect(page.url()).toContain('/sandbox/gateway/');
    expect(await page.textContent('#amount')).toBe('1.220,00 UYU');
    await page.click('button.approve');
    await page.waitForURL(link.url);
    await page.waitForSelector('#state[data-state="PAID"]', { state: 'attached' });
    await screenshot(page, 'pay-page-phone-es-paid');
    await context.close();

    const stored = (await bed.merchant.get(`/link/${link.linkId}`)).body;
    expect(stored).toMatchObject({ status: 'USED', used: true });
    const listed = (await bed.merchant.get(`/link?status=USED`)).body as { linkId: string }[];
    expect(listed.map((l) => l.linkId)).toContain(link.linkId);
    expect((await bed.merchant.get(`/link/${link.linkId}/validate`)).body).toEqual(errorShape('Payins:LINK_ALREADY_USED'));
    expect((await bed.merchant.get(`/payment-intent/${stored.paymentIntentId}`)).body).toMatchObject({
      paymentIntentStatus: 'SUCCEEDED',
      linkId: link.linkId,
    });
    // A second payment is refused.
    const again = await bed.merchant.post(`/link/${link.linkId}/payment-intent`, {
      paymentInstrumentTypeName: 'CREDIT_CARD',
      paymentMethodName: 'VISA',
    });
    expect(again.body).toEqual(errorShape('Payins:LINK_ALREADY_USED'));
  }, 90_000);

  it('reads in English on a desktop, lets a payer retry after a rejection, and says when a link is expired or gone', async () => {
    const link = await newLink();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(link.url);
    expect(await page.textContent('#amount')).toBe('1,220.00 UYU');
    expect(await page.textContent('#installments')).toBe(
      'With a credit card, up to 6 installments (3 interest-free): choose the plan when you pay.',
    );
    await screenshot(page, 'pay-page-desktop-en');
    await page.click('button[data-method="OCA"]');
    await page.waitForSelector('button.reject');
    await page.click('button.reject');
    await page.waitForURL(link.url);
    // Rejected: the intent is open again, with the method chosen first.
    expect(await page.getAttribute('#state', 'data-state')).toBe('CHOOSE');
    expect(await page.textContent('#rejected')).toContain('did not go through');
    expect(await page.$$eval('button.method', (buttons) => buttons.length)).toBe(1);
    await page.click('button[data-method="OCA"]');
    await page.waitForSelector('button.approve');
    await page.click('button.approve');
    await page.waitForSelector('#state[data-state="PAID"]', { state: 'attached' });

    const expiring = await newLink({ expirationDate: new Date(Date.now() + 1000).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await page.goto(expiring.url);
    expect(await page.getAttribute('#state', 'data-state')).toBe('EXPIRED');
    const deleted = await newLink();
    await bed.merchant.delete(`/link/${deleted.linkId}`);
    const gone = await page.goto(deleted.url);
    expect(gone?.status()).toBe(404);
    expect(await page.textContent('#state')).toBe('Link not available');
    await context.close();
  }, 90_000);

  it('refuses a form post from another site (no cookie, or a forged token), changing nothing', async () => {
    const link = await newLink();
    const server = bed.app.getHttpServer();
    const opened = await request(server).get(`/pay/${link.linkId}`);
    const token = /name="token" value="([\w-]{43})"/.exec(opened.text)![1];
    const countryProcessorId = /name="countryProcessorId" value="([0-9a-f-]{36})"/.exec(opened.text)![1];
    const forged = await request(server).post(`/pay/${link.linkId}`).type('form').send({ token, countryProcessorId });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('data-state="STALE"');
    const cookie = String(opened.headers['set-cookie']).split(';')[0];
    expect(String(opened.headers['set-cookie'])).toMatch(/SameSite=Strict/i);
    const withOtherToken = await request(server)
      .post(`/pay/${link.linkId}`)
      .set('cookie', cookie)
      .type('form')
      .send({ token: 'a'.repeat(43), countryProcessorId });
    expect(withOtherToken.status).toBe(403);
    // A token of the right length in characters but not in bytes (contract §27): 403, never a 500.
    for (const multiByte of ['é'.repeat(43), '€'.repeat(43), '😀'.repeat(21) + 'a']) {
      const odd = await request(server)
        .post(`/pay/${link.linkId}`)
        .set('cookie', cookie)
        .type('form')
        .send({ token: multiByte, countryProcessorId });
      expect(odd.status).toBe(403);
    }
    expect((await bed.merchant.get(`/link/${link.linkId}`)).body.status).toBe('ACTIVE');
    // With the page's own cookie and token, the same post goes to the gateway.
    const real = await request(server).post(`/pay/${link.linkId}`).set('cookie', cookie).type('form').send({ token, countryProcessorId });
    expect(real.status).toBe(303);
    expect(real.headers.location).toContain('/sandbox/gateway/');
  });
});
