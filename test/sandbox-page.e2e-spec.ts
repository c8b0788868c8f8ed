import { GatewayRegistry } from '@pcs/gateways';
import { Currency } from '@pcs/kernel';
import { eventually, fitsWidth, launchChromium, screenshot } from '@pcs/testing';
import * as crypto from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Browser } from 'playwright-core';
import { Testbed, testbed } from './testbed';

type Processor = { countryProcessorId: string; paymentMethod: { paymentMethodName: string } };

/**
 * The sandbox gateway's page as a payer sees it, in a real browser: a
 * 390-pixel phone in Spanish and a desktop in English, the decision buttons,
 * the way back to the page that sent the payer, and an unknown address.
 */
describe('the sandbox gateway page in a real browser', () => {
  let bed: Testbed;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    bed = await testbed({ payer: { firstName: 'Lucía', lastName: 'Gómez' } });
    const { port } = bed.app.getHttpServer().address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await bed.close();
  });

  /** A checkout for 1,234.50 UYU, at the address the test server really listens on. */
  const openCheckout = async (): Promise<{ paymentIntentId: string; url: string; reference: string }> => {
    const created = await bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount: 1234.5,
      payinType: 'DEFAULT',
      externalReference: 'browser',
      payerId: bed.payerId,
      offSession: false,
      invoiceNumber: 1,
      country: 'URY',
    });
    const paymentIntentId = created.body.paymentIntent.paymentIntentId;
    const methods = (await bed.merchant.get(`/payment-intent/${paymentIntentId}/payment-methods`)).body
      .paymentIntentAvailablePaymentMethods as Processor[];
    const oca = methods.find((m) => m.paymentMethod.paymentMethodName === 'OCA')!;
    const initialized = await bed.merchant.post(`/payment-intent/${paymentIntentId}/initialize`, {
      countryProcessorId: oca.countryProcessorId,
    });
    return {
      paymentIntentId,
      url: `${base}${new URL(initialized.body.gatewayUrl).pathname}`,
      reference: initialized.body.gatewayReferenceId,
    };
  };

  it('fits a 390-pixel phone in Spanish, shows every decimal, and approves the payment', async () => {
    const { paymentIntentId, url, reference } = await openCheckout();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-UY', deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(url);
    expect(await page.textContent('#amount')).toBe('1.234,50 UYU');
    expect(await page.textContent('#reference')).toBe(reference);
    expect(await fitsWidth(page, '#reference')).toEqual({ pageFits: true, elementFits: true });
    expect(await fitsWidth(page, 'button.approve')).toEqual({ pageFits: true, elementFits: true });
    await screenshot(page, 'sandbox-phone-es');
    await page.click('button.approve');
    expect(await page.getAttribute('#status', 'data-status')).toBe('APPROVED');
    expect(await page.textContent('#status')).toContain('Pago aprobado');
    await screenshot(page, 'sandbox-phone-es-approved');
    await context.close();
    // The decision reached the service as a signed callback.
    for (let i = 0; i < 50; i++) {
      if ((await bed.merchant.get(`/payment-intent/${paymentIntentId}`)).body.paymentIntentStatus === 'SUCCEEDED') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await bed.merchant.get(`/payment-intent/${paymentIntentId}`)).body.paymentIntentStatus).toBe('SUCCEEDED');
  }, 60_000);

  it('lets the payer’s bank dispute an approved payment from the page (contract §21), once, on a 390-pixel phone', async () => {
    const { paymentIntentId, url } = await openCheckout();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(url);
    // Nothing to dispute before the payment is approved.
    expect(await page.locator('#dispute').count()).toBe(0);
    await page.click('button.approve');
    await eventually(
      async () => (await bed.merchant.get(`/payment-intent/${paymentIntentId}`)).body.paymentIntentStatus,
      (status) => status === 'SUCCEEDED',
    );
    await page.goto(url);
    expect(await fitsWidth(page, 'form.dispute')).toEqual({ pageFits: true, elementFits: true });
    await page.selectOption('#reason', 'DUPLICATE');
    await page.click('#dispute');
    const notice = await page.textContent('#notice');
    const disputeId = /Dispute ([0-9a-f-]{36}) opened/.exec(notice ?? '')?.[1];
    expect(disputeId).toBeDefined();
    await screenshot(page, 'sandbox-phone-en-disputed');
    expect((await bed.merchant.get(`/dispute/${disputeId}`)).body).toMatchObject({
      paymentIntentId,
      reason: 'DUPLICATE',
      status: 'NEEDS_RESPONSE',
      amount: 1234.5,
      processor: 'SANDBOX',
    });
    // The bank takes a payment back once: a second press says why nothing changed.
    await page.click('#dispute');
    expect(await page.textContent('#notice')).not.toContain('opened');
    expect((await bed.merchant.get(`/dispute?merchantId=${bed.tenant.merchants[0].merchantId}`)).body[0].results).toHaveLength(1);
    await context.close();
  }, 60_000);

  it('reads in English on a desktop, and says so in a page when the address is unknown', async () => {
    const { url } = await openCheckout();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(url);
    expect(await page.textContent('#amount')).toBe('1,234.50 UYU');
    expect(await page.textContent('button.approve')).toBe('Approve');
    expect((await fitsWidth(page, 'main')).pageFits).toBe(true);
    await screenshot(page, 'sandbox-desktop-en');
    const missing = await page.goto(`${base}/sandbox/gateway/no-such-reference`);
    expect(missing?.status()).toBe(404);
    expect(await page.textContent('#not-found')).toBe('Payment not found');
    await context.close();
  }, 60_000);

  it('sends the payer back to the page that opened the checkout once the decision is recorded', async () => {
    const visits: string[] = [];
    const shop = http.createServer((request, response) => {
      visits.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<h1 id="back-home">Back at the shop</h1>');
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    const returnUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/order/42`;
    try {
      const gateway = bed.app.get(GatewayRegistry).get('SANDBOX');
      const checkout = await gateway.openCheckout({
        payinId: crypto.randomUUID(),
        merchantId: bed.tenant.merchants[0].merchantId,
        title: 'Pedido 42',
        merchantName: 'Tienda de prueba',
        paymentMethod: 'OCA',
        currency: Currency.UYU,
        amount: 50000,
        expiresAt: new Date(Date.now() + 600_000),
        returnUrl,
      });
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-UY' });
      const page = await context.newPage();
      await page.goto(`${base}${new URL(checkout.url).pathname}`);
      expect(await page.getAttribute('#back', 'href')).toBe(returnUrl);
      await page.click('button.reject');
      await page.waitForSelector('#back-home');
      expect(visits).toEqual(['/order/42']);
      await context.close();
    } finally {
      shop.close();
    }
  }, 60_000);
});
