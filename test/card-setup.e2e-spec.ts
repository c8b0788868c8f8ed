import { BillingScheduler } from '@pcs/billing';
import * as crypto from 'node:crypto';
import { DLocalStandIn, errorShape, eventually, fitsWidth, launchChromium, screenshot, SignedClient } from '@pcs/testing';
import { Browser, Page } from 'playwright-core';
import { freePort } from './payins-app';
import { Inbox } from './smtp-inbox';
import { Testbed, testbed } from './testbed';

type Row = Record<string, unknown>;

/**
 * Saving a card without charging it (contract §31), on the sandbox's card fields, in a real browser on a 390-pixel
 * phone: the setup route, its hosted page in three languages (its refusals beside the fields), the instrument with
 * what may be kept of the card and its event; and dunning's page, which a declined charge's mail links to, whose
 * new card becomes the subscription's and pays the open invoice.
 */
describe('card setup: a hosted page that saves a card, and dunning’s new card', () => {
  let inbox: Inbox;
  let bed: Testbed;
  let merchant: SignedClient;
  let merchantId: string;
  let browser: Browser;
  const dl = new DLocalStandIn().merchant('dl-login-setup-0001', 'dl-trans-key-setup-0001', 'dl-secret-key-setup-0001');

  beforeAll(async () => {
    inbox = new Inbox(await freePort());
    await inbox.start();
    await dl.start();
    bed = await testbed({
      reachable: true,
      name: 'Club Norte',
      payer: { firstName: 'Marta', lastName: 'Pagadora', email: 'marta@example.uy' },
      mail: { smtpUrl: `smtp://127.0.0.1:${inbox.port}`, directory: null },
      gateway: { processorApis: { DLOCAL: { url: dl.url, timeoutMs: 10_000 } } },
    });
    merchant = bed.merchant;
    merchantId = bed.tenant.merchants[0].merchantId;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await bed?.close();
    await inbox?.stop();
    await dl.stop();
  });

  const phone = async (locale: string): Promise<Page> =>
    (await browser.newContext({ locale, viewport: { width: 390, height: 844 } })).newPage();
  const start = async () => {
    const answer = await merchant.post('/payment-instrument/setup', {
      merchantId,
      payerId: bed.payerId,
      returnUrl: `${bed.url}/health?from=setup`,
    });
    expect(answer.status).toBe(200);
    return answer.body as { setupId: string; setupUrl: string; status: string; expiresAt: string };
  };
  const fill = async (page: Page, card: { bin: string; last4: string; expiry: string }) => {
    await page.fill('#holder', 'Marta Pagadora');
    await page.fill('#bin', card.bin);
    await page.fill('#last4', card.last4);
    await page.fill('#expiry', card.expiry);
    await page.click('#save');
  };

  it('saves a card from its hosted page: only the parts that may be kept, the event, the return to the merchant', async () => {
    const setup = await start();
    expect([setup.status, setup.setupUrl]).toEqual(['OPEN', `${bed.url}/setup/${setup.setupId}`]);
    expect(new Date(setup.expiresAt).getTime() - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const page = await phone('es-UY');
    await page.goto(setup.setupUrl);
    expect(await page.textContent('h1')).toBe('Guardar una tarjeta');
    expect(await fitsWidth(page, '#save')).toEqual({ pageFits: true, elementFits: true });
    // Refused beside the fields: a short BIN, letters, an expiry past.
    await fill(page, { bin: '4507', last4: '42a2', expiry: '01/20' });
    expect(await page.locator('.field-error').allTextContents()).toEqual([
      'Escriba los primeros seis dígitos de la tarjeta.',
      'Escriba los últimos cuatro dígitos de la tarjeta.',
      'Escriba un vencimiento válido y futuro, como 08/29.',
    ]);
    await screenshot(page, 'card-setup-refused-es');
    await fill(page, { bin: '450799', last4: '4242', expiry: '12/29' });
    await page.waitForURL(/\/health\?from=setup&setupId=/);
    const done = (await merchant.get(`/payment-instrument/setup/${setup.setupId}`)).body as Row;
    expect(done.status).toBe('COMPLETED');
    const instrument = (await merchant.get(`/payment-instrument/${done.paymentInstrumentId as string}`)).body as Row;
    expect([instrument.payerId, instrument.validated, instrument.card]).toEqual([
      bed.payerId,
      true,
      { brand: expect.any(String), bin: '450799', last4: '4242', expMonth: 12, expYear: 2029 },
    ]);
    const events = await bed.query<{ type: string; payload: string }>(`SELECT type, payload FROM event WHERE subject_id = $1`, [
      done.paymentInstrumentId,
    ]);
    expect(events.map((e) => e.type)).toEqual(['payment_instrument.created']);
    expect(JSON.parse(events[0].payload).data.object).toMatchObject({
      paymentInstrumentId: done.paymentInstrumentId,
      card: { last4: '4242' },
    });
    // The page once more: saved; a second submission saves nothing.
    await page.goto(setup.setupUrl);
    expect(await page.textContent('#done')).toContain('Tarjeta guardada');
    const [{ n }] = await bed.query<{ n: number }>(`SELECT count(*)::int AS n FROM payment_instrument WHERE card_last4 = '4242'`);
    expect(n).toBe(1);
    await page.context().close();
  }, 60_000);

  it('speaks English and Portuguese, refuses a post from elsewhere, and hides one setup from another tenant', async () => {
    const setup = await start();
    for (const [locale, title] of [
      ['en-US', 'Save a card'],
      ['pt-BR', 'Salvar um cartão'],
    ] as const) {
      const page = await phone(locale);
      await page.goto(setup.setupUrl);
      expect(await page.textContent('h1')).toBe(title);
      await screenshot(page, `card-setup-${locale}`);
      await page.context().close();
    }
    const forged = await fetch(setup.setupUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'bin=450799&last4=4242&expiry=12%2F29&token=x',
    });
    expect(forged.status).toBe(403);
    expect((await merchant.get(`/payment-instrument/setup/${setup.setupId}`)).body.status).toBe('OPEN');
    const stranger = bed.client((await bed.newTenant({ name: 'Other club' })).merchants[0]);
    const hidden = await stranger.get(`/payment-instrument/setup/${setup.setupId}`);
    expect([hidden.status, hidden.body]).toEqual([404, errorShape('Payins:CARD_SETUP_NOT_FOUND')]);
    expect((await fetch(`${bed.url}/setup/${crypto.randomUUID()}`)).status).toBe(404);
  }, 60_000);

  it('links a declined charge’s mail to a page whose new card becomes the subscription’s and pays the open invoice', async () => {
    const card = (await merchant.post('/payment-instrument', { payerId: bed.payerId, paymentMethodName: 'MASTER_CARD', country: 'URY' }))
      .body.paymentInstrumentId as string;
    const clock = (await merchant.post('/test-clock', { merchantId, frozenTime: '2027-04-01T12:00:00Z' })).body.testClockId as string;
    const subscription = (
      await merchant.post('/subscription', {
        merchantId,
        payerId: bed.payerId,
        paymentInstrumentId: card,
        amount: 720,
        currency: 'UYU',
        interval: 'MONTH',
        intervalCount: 1,
        description: 'Cuota del club',
        testClockId: clock,
      })
    ).body.subscriptionId as string;
    // The card closed at its bank (the state a processor's notice leaves; no route deactivates an instrument yet).
    await bed.query(`UPDATE payment_instrument SET active = false, status = 'INACTIVE' WHERE payment_instrument_id = $1`, [card]);
    await merchant.post(`/test-clock/${clock}/advance`, { to: '2027-04-01T13:00:00Z' });
    const mails = await inbox.waitFor(1);
    const declined = mails.find((m) => /payment declined/.test(m.subject ?? ''))!;
    const link = /Para pagar con otra tarjeta, guárdela aquí y la cobraremos enseguida: (\S+)/.exec(declined.text ?? '')?.[1];
    expect(link).toMatch(new RegExp(`^${bed.url}/setup/[0-9a-f-]{36}$`));
    expect(declined.html).toContain(`<a href="${link}">`);

    const page = await phone('es-UY');
    await page.goto(link!);
    await fill(page, { bin: '552277', last4: '0017', expiry: '03/30' });
    // Dunning's page returns to itself: the confirmation.
    expect(await page.textContent('#done')).toContain('Tarjeta guardada');
    await screenshot(page, 'card-setup-dunning-done-es');
    await page.context().close();

    const updated = (await merchant.get(`/subscription/${subscription}`)).body as Row;
    expect(updated.paymentInstrumentId).not.toBe(card);
    await merchant.post(`/test-clock/${clock}/advance`, { to: '2027-04-01T13:05:00Z' });
    const invoice = ((await merchant.get(`/invoice?subscriptionId=${subscription}`)).body as { results: Row[] }[])[0].results[0];
    expect([invoice.status, invoice.attemptCount, invoice.paymentInstrumentId]).toEqual(['PAID', 2, updated.paymentInstrumentId]);
    expect((await merchant.get(`/subscription/${subscription}`)).body.status).toBe('ACTIVE');
    const saved = (await merchant.get(`/payment-instrument/${updated.paymentInstrumentId as string}`)).body as Row;
    expect(saved.card).toMatchObject({ bin: '552277', last4: '0017', expMonth: 3, expYear: 2030 });
  }, 60_000);

  it('tells the payer a month before the subscription’s card expires, once, with a page to save another', async () => {
    const setup = await start();
    const page = await phone('es-UY');
    await page.goto(setup.setupUrl);
    await fill(page, { bin: '450799', last4: '6006', expiry: '06/27' });
    await page.waitForURL(/setupId=/);
    await page.context().close();
    const card = (await merchant.get(`/payment-instrument/setup/${setup.setupId}`)).body.paymentInstrumentId as string;
    const clock = (await merchant.post('/test-clock', { merchantId, frozenTime: '2027-04-10T12:00:00Z' })).body.testClockId as string;
    const made = await merchant.post('/subscription', {
      merchantId,
      payerId: bed.payerId,
      paymentInstrumentId: card,
      amount: 350,
      currency: 'UYU',
      interval: 'MONTH',
      intervalCount: 1,
      description: 'Plan anual del club',
      testClockId: clock,
    });
    expect(made.status).toBe(200);
    const expiring = () => inbox.messages.filter((m) => /your card expires/.test(m.subject ?? ''));
    // Queued in the transaction that decides it: counted in the outbox as soon as the clock has moved.
    const queued = async () =>
      (
        await bed.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM mail_message WHERE subject LIKE '%your card expires%' AND text_body LIKE '%Plan anual del club%'`,
        )
      )[0].n;
    // Usable through June 2027: told from June 1 (30 days before July 1), not before.
    await merchant.post(`/test-clock/${clock}/advance`, { to: '2027-05-31T12:00:00Z' });
    expect(await queued()).toBe(0);
    await merchant.post(`/test-clock/${clock}/advance`, { to: '2027-06-02T12:00:00Z' });
    expect(await queued()).toBe(1);
    const [told] = await eventually(
      async () => expiring(),
      (found) => found.length === 1,
    );
    expect(told.text).toContain('La tarjeta con la que paga 350,00 UYU a Merchant 1 of Club Norte (Plan anual del club) vence en 06/2027.');
    expect(told.text).toMatch(new RegExp(`guarde otra aquí: ${bed.url}/setup/[0-9a-f-]{36}`));
    await merchant.post(`/test-clock/${clock}/advance`, { to: '2027-08-02T12:00:00Z' });
    expect(await queued()).toBe(1);
  }, 60_000);

  it('charges a saved card where it is kept, whatever the routing says later (an instrument no processor keeps follows the routing)', async () => {
    const setup = (
      await merchant.post('/payment-instrument/setup', {
        merchantId,
        payerId: bed.payerId,
        countryProcessorId: undefined,
        returnUrl: `${bed.url}/health`,
      })
    ).body as { setupId: string; setupUrl: string };
    const page = await phone('en-US');
    await page.goto(setup.setupUrl);
    await page.selectOption('#countryProcessorId', { label: 'VISA' });
    await fill(page, { bin: '411111', last4: '1881', expiry: '09/31' });
    await page.waitForURL(/setupId=/);
    await page.context().close();
    const saved = (await merchant.get(`/payment-instrument/setup/${setup.setupId}`)).body.paymentInstrumentId as string;
    // Another payer's VISA instrument, made by the API: no processor keeps a card of it (the same payer's would be the saved one).
    const other = (await merchant.post('/payer', { firstName: 'Otro', lastName: 'Socio' })).body.payerId as string;
    const plain = (await merchant.post('/payment-instrument', { payerId: other, paymentMethodName: 'VISA', country: 'URY' })).body
      .paymentInstrumentId as string;
    // Later, the merchant sends its VISA payments to dLocal, which does not charge saved instruments here.
    const account = await bed.business.put(`/merchant/${merchantId}/gateway-account/dlocal`, {
      xLogin: 'dl-login-setup-0001',
      xTransKey: 'dl-trans-key-setup-0001',
      secretKey: 'dl-secret-key-setup-0001',
      paymentMethods: ['VISA'],
    });
    expect(account.status).toBe(200);
    const body = (paymentInstrumentId: string, payerId = bed.payerId) => ({
      merchantId,
      payerId,
      paymentInstrumentId,
      amount: 275,
      currency: 'UYU',
      interval: 'MONTH',
      intervalCount: 1,
      description: 'Pinned card',
    });
    const refused = await merchant.post('/subscription', body(plain, other));
    expect([refused.status, refused.body.errorId]).toEqual([400, 'Payins:OFF_SESSION_NOT_SUPPORTED']);
    const pinned = await merchant.post('/subscription', body(saved));
    expect(pinned.status).toBe(200);
    // Charged by a pass of the scheduler (the one the API's sweep runs), at the sandbox that keeps the card.
    await bed.app.get(BillingScheduler).runDue(null, new Date());
    const [invoice] = (
      (await merchant.get(`/invoice?subscriptionId=${pinned.body.subscriptionId as string}`)).body as { results: Row[] }[]
    )[0].results;
    expect([invoice.status, invoice.attemptCount]).toEqual(['PAID', 1]);
    const payins = (await merchant.get(`/payin?paymentIntentId=${invoice.paymentIntentId as string}`)).body[0].results as Row[];
    expect(payins.map((p) => [p.transactionType, p.status])).toEqual([['PAYIN', 'APPROVED']]);
    const [{ gateway }] = await bed.query<{ gateway: string }>(`SELECT gateway FROM payin WHERE payment_intent_id = $1`, [
      invoice.paymentIntentId,
    ]);
    expect(gateway).toBe('SANDBOX');
  }, 60_000);
});
