import { NestExpressApplication } from '@nestjs/platform-express';
import { verifyRedirect } from '@pcs/client';
import { clientFor, fitsWidth, launchChromium, MercadoPagoStandIn, screenshot } from '@pcs/testing';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser } from 'playwright-core';
import { startPayinsApi } from './payins-app';
import { Testbed, testbed } from './testbed';

const TOKEN = 'TEST-3312345678901234-112408-f0e1d2c3b4a5-555000222';
const SECRET = 'mp-secret-of-the-cafe';

/**
 * A payer on a phone pays through Mercado Pago (contract §16), in a real
 * browser: from a link's page, and from the B2B checkout, through the
 * stand-in's Checkout Pro page, and back to the paid page or the shop.
 */
describe('paying through Mercado Pago in a browser', () => {
  const mp = new MercadoPagoStandIn().account(TOKEN, SECRET);
  let browser: Browser;

  beforeAll(async () => {
    await mp.start();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await mp.stop();
  });

  const phone = () => browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-UY' });

  it("from a link's pay page to Mercado Pago's page and back to the paid page", async () => {
    const bed = await testbed({ reachable: true, gateway: { processorApis: { MERCADO_PAGO: { url: mp.url, timeoutMs: 3000 } } } });
    try {
      const merchantId = bed.tenant.merchants[0].merchantId;
      expect(
        (await bed.business.put(`/merchant/${merchantId}/gateway-account/mercado-pago`, { accessToken: TOKEN, webhookSecret: SECRET }))
          .status,
      ).toBe(200);
      const relationships = (await bed.business.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as {
        merchantCountryProcessorId: string;
        countryProcessor: { paymentMethod: { paymentMethodName: string } };
      }[];
      const processors = relationships
        .filter((r) => ['MERCADO_PAGO', 'VISA'].includes(r.countryProcessor.paymentMethod.paymentMethodName))
        .map((r) => r.merchantCountryProcessorId);
      const link = (
        await bed.merchant.post('/link', {
          amount: 845.5,
          vatPercentage: 22,
          currency: 'UYU',
          merchantCountryProcessors: processors,
          country: 'URY',
          description: 'Dos cafés',
        })
      ).body as { linkId: string; url: string };

      const context = await phone();
      const page = await context.newPage();
      await page.goto(link.url);
      expect(await fitsWidth(page, 'button[data-method="MERCADO_PAGO"]')).toEqual({ pageFits: true, elementFits: true });
      await page.click('button[data-method="MERCADO_PAGO"]');
      await page.waitForURL(new RegExp(`^${mp.url}/checkout/v1/redirect`));
      expect(await page.textContent('#amount')).toBe('UYU 845.5');
      expect(await page.textContent('#title')).toBe('Dos cafés');
      await screenshot(page, 'mercado-pago-stand-in-phone');
      await page.click('button.approve');
      await page.waitForURL(link.url);
      await page.waitForSelector('#state[data-state="PAID"]', { state: 'attached' });
      await screenshot(page, 'mercado-pago-link-paid-phone-es');
      await context.close();
      expect((await bed.merchant.get(`/link/${link.linkId}`)).body.status).toBe('USED');
    } finally {
      await bed.close();
    }
  }, 90_000);

  it('from a gatewayUrl the API handed out (operation 21) to Mercado Pago and back to our thank-you page, in English', async () => {
    const bed = await testbed({
      reachable: true,
      payer: { firstName: 'Ana', lastName: 'Sosa' },
      gateway: { processorApis: { MERCADO_PAGO: { url: mp.url, timeoutMs: 3000 } } },
    });
    try {
      const merchantId = bed.tenant.merchants[0].merchantId;
      await bed.business.put(`/merchant/${merchantId}/gateway-account/mercado-pago`, { accessToken: TOKEN, webhookSecret: SECRET });
      const created = await bed.merchant.post('/payment-intent', {
        currency: 'UYU',
        amount: 99.9,
        payinType: 'DEFAULT',
        offSession: false,
        country: 'URY',
        externalReference: 'api-op-21',
        invoiceNumber: 21,
        payerId: bed.payerId,
      });
      const intentId = created.body.paymentIntent.paymentIntentId as string;
      const methods = (await bed.merchant.get(`/payment-intent/${intentId}/payment-methods`)).body.paymentIntentAvailablePaymentMethods as {
        countryProcessorId: string;
        paymentMethod: { paymentMethodName: string };
      }[];
      const wallet = methods.find((m) => m.paymentMethod.paymentMethodName === 'MERCADO_PAGO')!;
      const started = await bed.merchant.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: wallet.countryProcessorId });
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        locale: 'en-GB',
        extraHTTPHeaders: { 'accept-language': 'en-GB,en;q=0.9' },
      });
      const page = await context.newPage();
      await page.goto(started.body.gatewayUrl);
      await page.click('button.approve');
      await page.waitForURL(/\/gateways\/mercado-pago\/return\//);
      expect(await page.textContent('h1')).toBe('Thank you');
      expect(await fitsWidth(page, 'h1')).toEqual({ pageFits: true, elementFits: true });
      await screenshot(page, 'mercado-pago-returned-phone-en');
      await context.close();
      expect((await bed.merchant.get(`/payment-intent/${intentId}`)).body.paymentIntentStatus).toBe('SUCCEEDED');
    } finally {
      await bed.close();
    }
  }, 90_000);

  it("from the B2B checkout to Mercado Pago's page and back to the shop, signed", async () => {
    const bed: Testbed = await testbed({
      api: 'b2b',
      reachable: true,
      gateway: { processorApis: { MERCADO_PAGO: { url: mp.url, timeoutMs: 3000 } } },
    });
    const payins: NestExpressApplication = await startPayinsApi();
    const returns: string[] = [];
    const shop = http.createServer((request, response) => {
      returns.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<h1 id="shop">Gracias</h1>');
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    const shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/return`;
    try {
      const merchantId = bed.tenant.merchants[0].merchantId;
      const connected = await clientFor(payins, bed.tenant.business).put(`/merchant/${merchantId}/gateway-account/mercado-pago`, {
        accessToken: TOKEN,
        webhookSecret: SECRET,
      });
      expect(connected.status).toBe(200);
      const created = await bed.merchant.post('/payment-intent', {
        countryCode: 'URY',
        currency: 'UYU',
        amount: 1220,
        externalReference: 'Pedido 7/B',
        redirectUrl: shopUrl,
      });
      expect(created.status).toBe(200);

      const context = await phone();
      const page = await context.newPage();
      await page.goto(created.body.nextAction.redirect.reference);
      await page.click('button[data-method="MERCADO_PAGO"]');
      await page.waitForURL(new RegExp(`^${mp.url}/checkout/v1/redirect`));
      await page.click('button.approve');
      await page.waitForURL(/\/return\?/);
      await context.close();
      const returned = new URL(returns.at(-1)!, shopUrl);
      const verdict = await verifyRedirect(returned, bed.tenant.merchants[0].apiSecret);
      expect(verdict).toMatchObject({ valid: true, parameters: { status: 'APPROVED', externalReference: 'Pedido 7/B' } });
      expect((await bed.merchant.get(`/payment-intent/${created.body.paymentIntentId}`)).body.status.code).toBe('APPROVED');
    } finally {
      await new Promise<void>((resolve) => shop.close(() => resolve()));
      await payins.close();
      await bed.close();
    }
  }, 90_000);
});
