import { NestExpressApplication } from '@nestjs/platform-express';
import { B2bClient, B2bComponents, createB2bClient, verifyRedirect } from '@pcs/client';
import { CheckoutExpiryService } from '@pcs/payments';
import { clientFor, fitsWidth, launchChromium, screenshot, SignedClient } from '@pcs/testing';
import * as crypto from 'node:crypto';
import * as http from 'node:http';
import { Browser } from 'playwright-core';
import request from 'supertest';
import { freePort, startPayinsApi } from './payins-app';
import { Testbed, testbed } from './testbed';

/** What the shop's return page saw. */
interface Verdict {
  readonly valid: boolean;
  /** Verified as a shop in PHP or Go would: the HMAC of the raw query's pairs, nothing decoded. */
  readonly rawValid: boolean;
  readonly status: string | null;
  readonly paymentIntentId: string | null;
  readonly externalReference: string | null;
}

/**
 * A merchant's shop, as a business client builds it: it creates the payment
 * intent through B6 over signed HTTP from its server, sends the browser to
 * the checkout, and on its return page verifies the signed parameters with
 * the secret it holds (the README's few lines).
 */
class Shop {
  readonly verdicts: Verdict[] = [];
  private server!: http.Server;
  port = 0;

  private readonly api: B2bClient;

  constructor(
    b2bBase: string,
    private readonly credentials: { apiKey: string; apiSecret: string },
  ) {
    this.api = createB2bClient({ baseUrl: b2bBase, ...credentials });
  }

  get returnUrl(): string {
    return `http://127.0.0.1:${this.port}/return`;
  }

  async start(): Promise<void> {
    this.port = await freePort();
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** B6 from the shop's server, through the typed client (signed by it). */
  async createIntent(body: Omit<B2bComponents['schemas']['CreateB2bPaymentIntentDto'], 'redirectUrl'>) {
    const { data, error, response } = await this.api.POST('/payment-intent', { body: { redirectUrl: this.returnUrl, ...body } });
    if (!data) throw new Error(`B6 answered ${response.status}: ${JSON.stringify(error)}`);
    return data;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.port}`);
    if (url.pathname === '/buy') {
      const intent = await this.createIntent({
        countryCode: 'URY',
        currency: 'UYU',
        amount: Number(url.searchParams.get('amount')),
        amountDetails: { tip: Number(url.searchParams.get('tip') ?? 0) },
        externalReference: url.searchParams.get('order') ?? undefined,
        description: 'Mesa 4 <café>',
      });
      res.writeHead(303, { location: intent.nextAction!.redirect.reference }).end();
      return;
    }
    if (url.pathname === '/return') {
      const verified = await verifyRedirect(url, this.credentials.apiSecret);
      const pairs = (req.url ?? '').split('?')[1].split('&');
      const signed = ['externalReference', 'paymentIntentId', 'status', 'timestamp'].map((name) =>
        pairs.find((p) => p.startsWith(`${name}=`)),
      );
      const expected = crypto.createHmac('sha256', this.credentials.apiSecret).update(signed.join('&')).digest('hex');
      const verdict: Verdict = {
        valid: verified.valid,
        rawValid: pairs.includes(`signature=${expected}`),
        status: url.searchParams.get('status'),
        paymentIntentId: url.searchParams.get('paymentIntentId'),
        externalReference: url.searchParams.get('externalReference'),
      };
      this.verdicts.push(verdict);
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><p id="verdict" data-valid="${verdict.valid}" data-status="${verdict.status}">${verdict.status}</p>`);
      return;
    }
    res.writeHead(404).end();
  }
}

/**
 * The B2B journey end to end in a real browser (contract §13): the shop
 * creates the intent through B6, the payer follows nextAction, chooses a
 * method, approves at the sandbox gateway, and lands on the shop's
 * redirectUrl, which verifies the signature; then B7, the payins ledger and
 * a refund through the payins API. Also a rejection retried, the return to
 * the merchant, a forged post, and a checkout that expires.
 */
describe('the B2B hosted checkout in a real browser', () => {
  let bed: Testbed;
  let payins: NestExpressApplication;
  let payinsMerchant: SignedClient;
  let browser: Browser;
  let shop: Shop;
  let base: string;

  beforeAll(async () => {
    bed = await testbed({ api: 'b2b', reachable: true, name: 'Café Sur' });
    base = (await bed.app.getUrl()).replace('[::1]', '127.0.0.1');
    payins = await startPayinsApi();
    payinsMerchant = clientFor(payins, bed.tenant.merchants[0]);
    // The merchant offers installments with a credit card (contract §25): the checkout says so before the payer leaves.
    const policy = await clientFor(payins, bed.tenant.business).put(`/merchant/${bed.tenant.merchants[0].merchantId}/configuration`, {
      installments: { URY: { maxInstallments: 6, interestFreeUpTo: 3 } },
    });
    expect(policy.status).toBe(200);
    shop = new Shop(base, bed.tenant.merchants[0]);
    await shop.start();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await payins?.close();
    await bed?.close();
  });

  it('takes a payer on a phone from the shop through the checkout and the gateway back to the shop, signed; then the payins API sees and refunds it', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-UY', deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${shop.port}/buy?amount=1220&tip=50&order=A-100`);
    expect(page.url()).toMatch(/\/checkout\/chk_[\w-]{24}$/);
    expect(await page.getAttribute('#state', 'data-state')).toBe('CHOOSE');
    expect(await page.textContent('#merchant')).toBe('Merchant 1 of Café Sur');
    expect(await page.textContent('#description')).toBe('Mesa 4 <café>');
    expect(await page.textContent('#amount')).toBe('1.270,00 UYU');
    expect(await page.textContent('#vat')).toContain('IVA incluido: 220,00 UYU');
    expect(await page.textContent('#tip')).toBe('Propina incluida: 50,00 UYU');
    expect(await fitsWidth(page, 'button[data-method="VISA"][data-type="CREDIT_CARD"]')).toEqual({ pageFits: true, elementFits: true });
    expect(await fitsWidth(page, '#return')).toEqual({ pageFits: true, elementFits: true });
    expect(await page.textContent('#installments')).toBe('Con tarjeta de crédito, hasta 6 cuotas (3 sin interés): elija el plan al pagar.');
    expect(await fitsWidth(page, '#installments')).toEqual({ pageFits: true, elementFits: true });
    await screenshot(page, 'checkout-phone-es');
    await page.click('button[data-method="VISA"][data-type="CREDIT_CARD"]');
    await page.waitForSelector('button.approve');
    expect(page.url()).toContain('/sandbox/gateway/');
    expect(await page.textContent('#amount')).toBe('1.270,00 UYU');
    await page.click('button.approve');
    await page.waitForURL(/127\.0\.0\.1:\d+\/return\?/);
    expect(await page.getAttribute('#verdict', 'data-valid')).toBe('true');
    await screenshot(page, 'checkout-phone-es-returned');
    await context.close();

    const verdict = shop.verdicts.at(-1)!;
    expect(verdict).toMatchObject({ valid: true, rawValid: true, status: 'APPROVED', externalReference: 'A-100' });
    const id = verdict.paymentIntentId!;
    const b7 = await bed.merchant.get(`/payment-intent/${id}`);
    expect(b7.body).toMatchObject({
      status: { code: 'APPROVED' },
      paymentMethod: { name: 'CREDIT_CARD', options: { networks: ['VISA'] } },
      nextAction: null,
    });
    const ledger = await payinsMerchant.get(`/payin?merchantId=${bed.tenant.merchants[0].merchantId}&limit=100`);
    const payin = (ledger.body[0].results as { paymentIntentId: string; status: string; amount: number }[]).find(
      (p) => p.paymentIntentId === id,
    );
    expect(payin).toMatchObject({ status: 'APPROVED', amount: 1270 });
    const partial = await payinsMerchant.post(`/payment-intent/${id}/refund`, { requestedRefundAmount: 270 });
    expect(partial.status).toBe(200);
    expect((await bed.merchant.get(`/payment-intent/${id}`)).body.status.code).toBe('PARTIALLY_REFUNDED');
    const rest = await payinsMerchant.post(`/payment-intent/${id}/refund`, {});
    expect(rest.status).toBe(200);
    expect((await bed.merchant.get(`/payment-intent/${id}`)).body.status.code).toBe('REFUNDED');
    const listed = await bed.merchant.get('/payment-intent?status=REFUNDED&externalReference=A-100');
    expect(listed.body.data.map((d: { paymentIntentId: string }) => d.paymentIntentId)).toEqual([id]);
  }, 90_000);

  it('reads in English on a desktop, lets the payer try another method after a rejection, and returns to the merchant on request', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${shop.port}/buy?amount=500&order=B-200`);
    expect(await page.textContent('#amount')).toBe('500.00 UYU');
    expect(await page.$('#tip')).toBeNull();
    await screenshot(page, 'checkout-desktop-en');
    await page.click('button[data-method="OCA"]');
    await page.waitForSelector('button.reject');
    await page.click('button.reject');
    await page.waitForURL(/\/checkout\/chk_[\w-]{24}\/return$/);
    expect(await page.getAttribute('#state', 'data-state')).toBe('CHOOSE');
    expect(await page.textContent('#rejected')).toContain('did not go through');
    const checkoutUrl = page.url().replace(/\/return$/, '');
    const id = (await bed.merchant.get('/payment-intent?externalReference=B-200')).body.data[0].paymentIntentId as string;
    expect((await bed.merchant.get(`/payment-intent/${id}`)).body).toMatchObject({
      status: { code: 'REJECTED' },
      paymentMethod: { options: { networks: ['OCA'] } },
      nextAction: { redirect: { reference: checkoutUrl } },
    });
    await screenshot(page, 'checkout-desktop-en-rejected');
    await page.click('button[data-method="MASTER_CARD"][data-type="CREDIT_CARD"]');
    await page.waitForSelector('button.approve');
    await page.click('button.approve');
    await page.waitForURL(/127\.0\.0\.1:\d+\/return\?/);
    expect(shop.verdicts.at(-1)).toMatchObject({ valid: true, status: 'APPROVED', paymentIntentId: id });

    // "Return to the merchant" before paying: signed, with the status as it is.
    // An externalReference with a space and a slash: the raw query verifies as it arrived.
    await page.goto(`http://127.0.0.1:${shop.port}/buy?amount=75.5&order=${encodeURIComponent('C 300/B (mesa)!')}`);
    await page.click('#return');
    await page.waitForURL(/127\.0\.0\.1:\d+\/return\?/);
    expect(page.url()).toContain('externalReference=C+300%2FB+%28mesa%29%21&');
    expect(shop.verdicts.at(-1)).toMatchObject({
      valid: true,
      rawValid: true,
      status: 'PAYMENT_METHOD_PENDING',
      externalReference: 'C 300/B (mesa)!',
    });
    // A paid checkout says so; an unknown one is a 404 page.
    await page.goto(checkoutUrl);
    expect(await page.getAttribute('#state', 'data-state')).toBe('PAID');
    const unknown = await page.goto(`${base}/checkout/chk_AAAAAAAAAAAAAAAAAAAAAAAA`);
    expect(unknown?.status()).toBe(404);
    expect(await page.textContent('#state')).toBe('Payment not available');
    await context.close();
  }, 90_000);

  it('refuses a form post from another site (no cookie, or a forged token), changing nothing', async () => {
    const intent = await shop.createIntent({ countryCode: 'URY', currency: 'UYU', amount: 100 });
    const path = new URL(intent.nextAction!.redirect.reference).pathname;
    const server = bed.app.getHttpServer();
    const opened = await request(server).get(path);
    const token = /name="token" value="([\w-]{43})"/.exec(opened.text)![1];
    const countryProcessorId = /name="countryProcessorId" value="([0-9a-f-]{36})"/.exec(opened.text)![1];
    const noCookie = await request(server).post(path).type('form').send({ token, countryProcessorId });
    expect(noCookie.status).toBe(403);
    const cookie = String(opened.headers['set-cookie']).split(';')[0];
    const forged = await request(server)
      .post(path)
      .set('cookie', cookie)
      .type('form')
      .send({ token: 'x'.repeat(43), countryProcessorId });
    expect(forged.status).toBe(403);
    // A token of the right length in characters but not in bytes (contract §27): 403, never a 500.
    const multiByte = await request(server)
      .post(path)
      .set('cookie', cookie)
      .type('form')
      .send({ token: 'ñ'.repeat(43), countryProcessorId });
    expect(multiByte.status).toBe(403);
    expect((await bed.merchant.get(`/payment-intent/${intent.paymentIntentId}`)).body.status.code).toBe('PAYMENT_METHOD_PENDING');
    const genuine = await request(server).post(path).set('cookie', cookie).type('form').send({ token, countryProcessorId });
    expect(genuine.status).toBe(303);
    expect(genuine.headers.location).toContain('/sandbox/gateway/');
    expect((await bed.merchant.get(`/payment-intent/${intent.paymentIntentId}`)).body.status.code).toBe('PAYMENT_PENDING');
  });

  it('answers hostile requests to its pages with a 4xx, never a 500 and never a change', async () => {
    const server = bed.app.getHttpServer();
    const intent = await shop.createIntent({ countryCode: 'URY', currency: 'UYU', amount: 100 });
    const path = new URL(intent.nextAction!.redirect.reference).pathname;
    const odd = ['chk_', 'chk_%00', `chk_${'A'.repeat(500)}`, 'chk_ñandú-ñandú-ñandú-ñandú', '..%2f..%2fetc', 'null', '%F0%9F%92%B3'];
    for (const reference of odd) {
      for (const suffix of ['', '/return', '/back']) {
        const answer = await request(server).get(`/checkout/${reference}${suffix}`);
        expect([reference, suffix, answer.status]).toEqual([reference, suffix, 404]);
      }
      const posted = await request(server).post(`/checkout/${reference}`).type('form').send({ token: 'x', countryProcessorId: 'y' });
      expect([reference, posted.status]).toEqual([reference, 403]);
    }
    const opened = await request(server).get(path);
    const cookie = String(opened.headers['set-cookie']).split(';')[0];
    const token = /name="token" value="([\w-]{43})"/.exec(opened.text)![1];
    const hostile = [
      request(server)
        .post(path)
        .set('cookie', cookie)
        .set('content-type', 'application/json')
        .send(JSON.stringify({ token, countryProcessorId: null })),
      request(server).post(path).set('cookie', cookie).set('content-type', 'application/json').send('[1,2]'),
      request(server).post(path).set('cookie', cookie).type('form').send(`token=${token}&countryProcessorId=a&countryProcessorId=b`),
      request(server)
        .post(path)
        .set('cookie', cookie)
        .type('form')
        .send({ token, countryProcessorId: '00000000-0000-4000-8000-000000000000' }),
      request(server)
        .post(path)
        .set('cookie', cookie)
        .type('form')
        .send(`token=${token}&countryProcessorId=${'z'.repeat(10_000)}`),
    ];
    for (const answer of await Promise.all(hostile)) {
      expect(answer.status).toBeGreaterThanOrEqual(300);
      expect(answer.status).toBeLessThan(500);
    }
    expect((await bed.merchant.get(`/payment-intent/${intent.paymentIntentId}`)).body.status.code).toBe('PAYMENT_METHOD_PENDING');
  });
});

describe('a B2B checkout left unpaid', () => {
  let bed: Testbed;

  beforeAll(async () => {
    // CHECKOUT_MINUTES of about a second, so the test waits for real time to pass.
    bed = await testbed({ api: 'b2b', reachable: true, gateway: { checkoutMinutes: 1.5 / 60 } });
  });
  afterAll(() => bed.close());

  const create = async () =>
    (
      await bed.merchant.post('/payment-intent', {
        countryCode: 'URY',
        currency: 'UYU',
        amount: 100,
        redirectUrl: 'https://shop.example/r',
      })
    ).body as { paymentIntentId: string; nextAction: { redirect: { reference: string } } };

  it('expires after CHECKOUT_MINUTES: read on the page at once, by the sweep otherwise, closing an attempt open at the gateway', async () => {
    const server = bed.app.getHttpServer();
    const read = await create();
    const swept = await create();
    const atGateway = await create();
    // The payer of the third goes to the gateway and leaves it open.
    const path = new URL(atGateway.nextAction.redirect.reference).pathname;
    const opened = await request(server).get(path);
    const cookie = String(opened.headers['set-cookie']).split(';')[0];
    const token = /name="token" value="([\w-]{43})"/.exec(opened.text)![1];
    const countryProcessorId = /name="countryProcessorId" value="([0-9a-f-]{36})"/.exec(opened.text)![1];
    const chosen = await request(server).post(path).set('cookie', cookie).type('form').send({ token, countryProcessorId });
    const gatewayPath = new URL(chosen.headers.location).pathname;

    await new Promise((resolve) => setTimeout(resolve, 1700));
    const page = await request(server).get(new URL(read.nextAction.redirect.reference).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-state="EXPIRED"');
    expect(page.text).not.toContain('name="token"');
    expect((await bed.merchant.get(`/payment-intent/${read.paymentIntentId}`)).body).toMatchObject({
      status: { code: 'EXPIRED' },
      nextAction: null,
    });

    // The sweep is global (other spec files share the database and may sweep first): what matters is where these two end.
    await bed.app.get(CheckoutExpiryService).expireDue();
    expect((await bed.merchant.get(`/payment-intent/${swept.paymentIntentId}`)).body.status.code).toBe('EXPIRED');
    expect((await bed.merchant.get(`/payment-intent/${atGateway.paymentIntentId}`)).body.status.code).toBe('EXPIRED');
    const [stored] = await bed.dataSource.query(
      `SELECT i.status, i.cancellation_reason, p.status AS payin FROM payment_intent i JOIN payin p USING (payment_intent_id) WHERE i.payment_intent_id = $1`,
      [atGateway.paymentIntentId],
    );
    expect(stored).toEqual({ status: 'CANCELED', cancellation_reason: 'EXPIRED', payin: 'EXPIRED' });
    // The gateway's page is closed: approving there now changes nothing.
    await request(server).post(gatewayPath).type('form').send({ outcome: 'approve' });
    expect((await bed.merchant.get(`/payment-intent/${atGateway.paymentIntentId}`)).body.status.code).toBe('EXPIRED');
    expect((await bed.merchant.get('/payment-intent?status=EXPIRED&pageSize=100')).body.pagination.totalItems).toBe(3);
  });
});

describe('a B2B checkout under card testing (contract §30)', () => {
  let bed: Testbed;

  beforeAll(async () => {
    bed = await testbed({ api: 'b2b', reachable: true });
  });
  afterAll(() => bed.close());

  it('refuses a checkout’s next attempt with a 429 page once it was declined 10 times (the defaults), and sends card_testing.suspected', async () => {
    const server = bed.app.getHttpServer();
    const intent = (
      await bed.merchant.post('/payment-intent', {
        countryCode: 'URY',
        currency: 'UYU',
        amount: 100,
        redirectUrl: 'https://shop.example/r',
      })
    ).body as { paymentIntentId: string; nextAction: { redirect: { reference: string } } };
    const path = new URL(intent.nextAction.redirect.reference).pathname;
    const choose = async () => {
      const opened = await request(server).get(path);
      const cookie = String(opened.headers['set-cookie']).split(';')[0];
      const token = /name="token" value="([\w-]{43})"/.exec(opened.text)![1];
      const countryProcessorId = /name="countryProcessorId" value="([0-9a-f-]{36})"/.exec(opened.text)![1];
      return request(server)
        .post(path)
        .set('cookie', cookie)
        .set('accept-language', 'pt-BR')
        .type('form')
        .send({ token, countryProcessorId });
    };
    for (let n = 0; n < 10; n++) {
      const chosen = await choose();
      expect([n, chosen.status]).toEqual([n, 303]);
      const declined = await request(server)
        .post(new URL(chosen.headers.location).pathname)
        .type('form')
        .send({ outcome: 'reject', cardBin: String(510000 + n), cardLast4: '0004', cardExpiry: '12/31' });
      expect(declined.status).toBe(303);
    }
    const refused = await choose();
    expect([refused.status, refused.text]).toEqual([429, expect.stringContaining('Tentativas de pagamento demais')]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    // The intent is as the last decline left it: nothing was started.
    expect((await bed.merchant.get(`/payment-intent/${intent.paymentIntentId}`)).body.status.code).toBe('REJECTED');
    const blocks = await bed.query<{ scope: string; reason: string; count: number; page: string; sale_id: string }>(
      `SELECT scope, reason, count, page, sale_id FROM card_testing_block WHERE merchant_id = $1 ORDER BY scope`,
      [bed.tenant.merchants[0].merchantId],
    );
    expect(blocks).toEqual([
      { scope: 'ADDRESS', reason: 'DECLINES_PER_ADDRESS', count: 10, page: 'CHECKOUT', sale_id: intent.paymentIntentId },
      { scope: 'LINK', reason: 'DECLINES_PER_LINK', count: 10, page: 'CHECKOUT', sale_id: intent.paymentIntentId },
    ]);
    const events = await bed.query<{ type: string }>(`SELECT type FROM event WHERE merchant_id = $1 AND type = 'card_testing.suspected'`, [
      bed.tenant.merchants[0].merchantId,
    ]);
    expect(events).toHaveLength(2);
  });
});
