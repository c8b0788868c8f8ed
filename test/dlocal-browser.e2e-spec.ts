import { NestExpressApplication } from '@nestjs/platform-express';
import { B2bClient, createB2bClient, verifyRedirect } from '@pcs/client';
import { clientFor, DLocalStandIn, fitsWidth, launchChromium, screenshot } from '@pcs/testing';
import * as http from 'node:http';
import { Browser } from 'playwright-core';
import request from 'supertest';
import { freePort, startPayinsApi } from './payins-app';
import { Testbed, testbed } from './testbed';

const LOGIN = 'dl-login-loja-brasil';
const TRANS_KEY = 'dl-trans-key-loja-brasil';
const SECRET_KEY = 'dl-secret-key-loja-brasil-0001';

/** A Brazilian shop: B6 from its server, the payer to nextAction, and its return page verifying the signed parameters. */
class Shop {
  readonly verdicts: { valid: boolean; status: string | null; paymentIntentId: string | null }[] = [];
  private server!: http.Server;
  private readonly api: B2bClient;
  port = 0;

  constructor(
    b2bBase: string,
    private readonly credentials: { apiKey: string; apiSecret: string },
  ) {
    this.api = createB2bClient({ baseUrl: b2bBase, ...credentials });
  }

  async start(): Promise<void> {
    this.port = await freePort();
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.port}`);
    if (url.pathname === '/buy') {
      const { data, error, response } = await this.api.POST('/payment-intent', {
        body: {
          countryCode: 'BRA',
          currency: 'BRL',
          amount: Number(url.searchParams.get('amount')),
          externalReference: url.searchParams.get('order') ?? undefined,
          description: 'Camiseta azul',
          redirectUrl: `http://127.0.0.1:${this.port}/return`,
        },
      });
      if (!data) throw new Error(`B6 answered ${response.status}: ${JSON.stringify(error)}`);
      res.writeHead(303, { location: data.nextAction!.redirect.reference }).end();
      return;
    }
    if (url.pathname === '/return') {
      const verified = await verifyRedirect(url, this.credentials.apiSecret);
      this.verdicts.push({
        valid: verified.valid,
        status: url.searchParams.get('status'),
        paymentIntentId: url.searchParams.get('paymentIntentId'),
      });
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><p id="verdict" data-valid="${verified.valid}" data-status="${url.searchParams.get('status')}">ok</p>`);
      return;
    }
    res.writeHead(404).end();
  }
}

/**
 * Contract §20 in a real browser: a Brazilian payer on the B2B hosted
 * checkout picks PIX, which the merchant collects through dLocal; the
 * checkout asks (in Portuguese, because the browser prefers it) for the
 * name, e-mail and CPF dLocal needs, refuses a CPF with wrong check digits
 * beside its field, then sends the payer to dLocal's page, and dLocal's
 * signed return brings them back to the shop with the signed outcome. A card
 * the sandbox serves asks nothing.
 */
describe('PIX through dLocal on the B2B checkout, in a real browser', () => {
  let bed: Testbed;
  let payins: NestExpressApplication;
  let browser: Browser;
  let shop: Shop;
  const dl = new DLocalStandIn().merchant(LOGIN, TRANS_KEY, SECRET_KEY);

  beforeAll(async () => {
    await dl.start();
    const gateway = { processorApis: { DLOCAL: { url: dl.url, timeoutMs: 3000 } }, reconcileAfterSeconds: 60 };
    bed = await testbed({ api: 'b2b', reachable: true, name: 'Loja Azul', country: 'BRA', gateway });
    payins = await startPayinsApi(gateway);
    const merchant = bed.tenant.merchants[0];
    const connected = await clientFor(payins, bed.tenant.business).put(`/merchant/${merchant.merchantId}/gateway-account/dlocal`, {
      xLogin: LOGIN,
      xTransKey: TRANS_KEY,
      secretKey: SECRET_KEY,
      paymentMethods: ['PIX'],
    });
    expect(connected.status).toBe(200);
    shop = new Shop((await bed.app.getUrl()).replace('[::1]', '127.0.0.1'), merchant);
    await shop.start();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await dl.rejectOpen();
    await browser?.close();
    await shop?.stop();
    await payins?.close();
    await bed?.close();
    await dl.stop();
  });

  it('asks a Brazilian payer on a phone for name, e-mail and CPF, in Portuguese, then pays with PIX at dLocal and lands back at the shop', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'pt-BR', deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${shop.port}/buy?amount=1234.5&order=BR-1`);
    expect(page.url()).toMatch(/\/checkout\/chk_[\w-]{24}$/);
    expect(await page.getAttribute('html', 'lang')).toBe('pt-BR');
    expect(await page.textContent('h2')).toBe('Escolha como pagar');
    expect(await page.textContent('#amount')).toBe('1.234,50 BRL');
    await page.click('button[data-method="PIX"]');
    // dLocal serves PIX: the payer's details first.
    expect(await page.getAttribute('#state', 'data-state')).toBe('PAYER');
    expect(await page.textContent('label[for="payerName"]')).toBe('Nome completo');
    expect(await page.textContent('label[for="payerDocument"]')).toBe('CPF ou CNPJ');
    expect(await page.getAttribute('#payerName', 'autocomplete')).toBe('name');
    expect(await page.getAttribute('#payerEmail', 'autocomplete')).toBe('email');
    expect(await fitsWidth(page, '#payerDocument')).toEqual({ pageFits: true, elementFits: true });
    await page.fill('#payerName', 'Ana Souza');
    await page.fill('#payerEmail', 'ana@example.com.br');
    await page.fill('#payerDocument', '530.333.155-51');
    const refused = page.waitForResponse((r) => r.request().method() === 'POST' && /\/checkout\/chk_/.test(r.url()));
    await page.click('#payer-continue');
    expect((await refused).status()).toBe(400);
    expect(await page.textContent('#payerDocument-error')).toBe('Informe um documento válido: um CPF ou um CNPJ.');
    expect(await page.getAttribute('#payerDocument', 'aria-invalid')).toBe('true');
    expect(await page.inputValue('#payerName')).toBe('Ana Souza');
    await screenshot(page, 'dlocal-checkout-phone-pt-payer');
    await page.fill('#payerDocument', '530.333.155-50');
    await page.click('#payer-continue');
    await page.waitForURL(/\/collect\/pay\/D-4-/);
    expect(await page.textContent('#method')).toBe('PQ');
    expect(await page.textContent('#amount')).toBe('BRL 1234.50');
    const asked = JSON.parse(dl.requests.filter((r) => r.method === 'POST' && r.path === '/payments').at(-1)!.body);
    expect(asked).toMatchObject({
      country: 'BR',
      currency: 'BRL',
      amount: 1234.5,
      payment_method_id: 'PQ',
      payer: { name: 'Ana Souza', email: 'ana@example.com.br', document: '53033315550' },
    });
    await page.click('button.pay');
    await page.waitForURL(/127\.0\.0\.1:\d+\/return\?/);
    expect(await page.getAttribute('#verdict', 'data-valid')).toBe('true');
    expect(await page.getAttribute('#verdict', 'data-status')).toBe('APPROVED');
    await context.close();
    const verdict = shop.verdicts.at(-1)!;
    expect((await bed.merchant.get(`/payment-intent/${verdict.paymentIntentId}`)).body).toMatchObject({ status: { code: 'APPROVED' } });
  }, 90_000);

  it('asks nothing for a card the sandbox serves, and its page speaks Portuguese too', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${shop.port}/buy?amount=99.9&order=BR-2`);
    await page.click('button[data-method="VISA"][data-type="CREDIT_CARD"]');
    await page.waitForSelector('button.approve');
    expect(page.url()).toContain('/sandbox/gateway/');
    expect(await page.textContent('button.approve')).toBe('Aprovar');
    expect(await page.textContent('#amount')).toBe('99,90 BRL');
    await screenshot(page, 'dlocal-sandbox-phone-pt');
    await context.close();
  }, 60_000);

  it('refuses a forged form: a post without the page’s token asks nothing and opens nothing at dLocal', async () => {
    const before = dl.requests.length;
    const { data } = await createB2bClient({
      baseUrl: (await bed.app.getUrl()).replace('[::1]', '127.0.0.1'),
      ...bed.tenant.merchants[0],
    }).POST('/payment-intent', {
      body: { countryCode: 'BRA', currency: 'BRL', amount: 10, redirectUrl: `http://127.0.0.1:${shop.port}/return` },
    });
    const path = new URL(data!.nextAction!.redirect.reference).pathname;
    const forged = await request(bed.app.getHttpServer()).post(path).type('form').send({
      countryProcessorId: '00000000-0000-4000-8000-000000000000',
      payerName: 'X',
      payerEmail: 'x@x.x',
      payerDocument: '53033315550',
    });
    expect(forged.status).toBe(403);
    expect(dl.requests.length).toBe(before);
  });
});
