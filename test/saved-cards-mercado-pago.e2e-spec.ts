import { BillingScheduler } from '@pcs/billing';
import { DLocalStandIn, errorShape, fitsWidth, launchChromium, MercadoPagoStandIn, screenshot, SignedClient } from '@pcs/testing';
import { Browser } from 'playwright-core';
import { invoicesOf, phone, postsTo, setupLinkOfDeclineMail } from './saved-cards';
import { Testbed, testbed } from './testbed';

type Row = Record<string, unknown>;

const TOKEN = 'TEST-saved-cards-token-0000000001';
const SECRET = 'saved-cards-webhook-secret';
const PUBLIC_KEY = 'TEST-7f0c2a4e-5b1d-4c3a-9e8f-6a5b4c3d2e1f';

/**
 * Saved cards at Mercado Pago and a year of a monthly subscription charged there (contract §31), against the
 * stand-in built from Mercado Pago's customers-and-cards documentation: the setup page embeds its Secure Fields
 * (MercadoPago.js), the card goes from the browser to Mercado Pago and only its token to us; the account's public key
 * and `offSessionEnabled` decide what may be charged without the payer; the card stays pinned to Mercado Pago when the
 * merchant routes its brand to dLocal; soft declines are retried, a hard one waits for the payer's new card.
 */
describe('saved cards at Mercado Pago, and a year of a subscription charged there', () => {
  let bed: Testbed;
  let merchant: SignedClient;
  let merchantId: string;
  let account: string;
  let browser: Browser;
  const mp = new MercadoPagoStandIn().account(TOKEN, SECRET, { publicKey: PUBLIC_KEY, currency: 'UYU' });
  const dl = new DLocalStandIn().merchant('dl-login-saved-0001', 'dl-trans-key-saved-0001', 'dl-secret-key-saved-0001');

  beforeAll(async () => {
    await mp.start();
    await dl.start();
    bed = await testbed({
      reachable: true,
      name: 'Gimnasio Sur',
      payer: { firstName: 'Rosa', lastName: 'Socia', email: 'rosa@example.uy' },
      gateway: {
        processorApis: {
          MERCADO_PAGO: { url: mp.url, timeoutMs: 4000, browserScript: `${mp.url}/js/v2` },
          DLOCAL: { url: dl.url, timeoutMs: 4000 },
        },
        reconcileAfterSeconds: 600,
      },
    });
    merchant = bed.merchant;
    merchantId = bed.tenant.merchants[0].merchantId;
    account = `/merchant/${merchantId}/gateway-account/mercado-pago`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    // Nothing more is told to a server about to stop (a notification retried after it has gone keeps timers alive).
    mp.notifications = { mode: 'drop', delayMs: 0, repeat: 1 };
    await browser?.close();
    await bed?.close();
    await mp.stop();
    await dl.stop();
  });

  const connect = (settings: Row, paymentMethods = ['VISA', 'MASTER_CARD']) =>
    bed.business.put(account, { accessToken: TOKEN, webhookSecret: SECRET, paymentMethods, ...settings });
  /** The payer at the setup page: Mercado Pago's fields take the card; what our server receives is kept. */
  const saveCard = async (url: string, card: { holder: string; number: string; expiry: string; code: string }) => {
    const page = await phone(browser, 'es-UY');
    const posted = postsTo(page, bed.url);
    const response = await page.goto(url);
    await page.fill('#holder', card.holder);
    await page.fill('#cardNumber input', card.number);
    await page.fill('#expirationDate input', card.expiry);
    await page.fill('#securityCode input', card.code);
    await page.click('#save');
    return { page, posted, headers: response!.headers() };
  };
  const invoices = (subscriptionId: string) => invoicesOf(bed, subscriptionId);

  let savedCard: string;

  it('saves a card through Mercado Pago’s fields: the number and code go to Mercado Pago, the token to us', async () => {
    // Without a public key the merchant's Mercado Pago methods cannot be saved here: only those the sandbox keeps are offered.
    expect((await connect({})).status).toBe(200);
    const before = (await merchant.post('/payment-instrument/setup', { merchantId, payerId: bed.payerId, returnUrl: `${bed.url}/health` }))
      .body as { setupUrl: string };
    const sandboxPage = await (await fetch(before.setupUrl)).text();
    expect([sandboxPage.includes('id="bin"'), sandboxPage.includes('id="cardNumber"'), sandboxPage.includes('>VISA<')]).toEqual([
      true,
      false,
      false,
    ]);
    const connected = await connect({ publicKey: PUBLIC_KEY });
    expect([connected.status, connected.body.publicKey, connected.body.offSessionEnabled]).toEqual([200, PUBLIC_KEY, false]);

    const setup = (
      await merchant.post('/payment-instrument/setup', { merchantId, payerId: bed.payerId, returnUrl: `${bed.url}/health?from=mp` })
    ).body as { setupId: string; setupUrl: string };
    // A number Mercado Pago refuses (its Luhn check): the page says so and nothing is posted to us.
    const first = await saveCard(setup.setupUrl, { holder: 'APRO', number: '4509953566233705', expiry: '11/30', code: '123' });
    await first.page.locator('#fields-error').waitFor({ state: 'visible' });
    expect(first.posted).toEqual([]);
    expect(first.headers['content-security-policy']).toContain(`script-src 'nonce-`);
    expect(first.headers['content-security-policy']).toContain(mp.url);
    expect(await fitsWidth(first.page, '#save')).toEqual({ pageFits: true, elementFits: true });
    await screenshot(first.page, 'card-setup-mercado-pago-es');
    await first.page.fill('#cardNumber input', '4509953566233704');
    await first.page.click('#save');
    await first.page.waitForURL(/\/health\?from=mp&setupId=/);
    // What reached our server: the form's token and Mercado Pago's card token, never the number or the code.
    expect(first.posted).toHaveLength(1);
    expect(first.posted[0]).toMatch(/cardToken=[0-9a-f]{32}/);
    expect(first.posted[0]).not.toMatch(/4509953566233704|security|123&|=123$/);
    await first.page.context().close();

    const done = (await merchant.get(`/payment-instrument/setup/${setup.setupId}`)).body as Row;
    savedCard = done.paymentInstrumentId as string;
    const instrument = (await merchant.get(`/payment-instrument/${savedCard}`)).body as Row;
    expect([instrument.payerId, instrument.card]).toEqual([
      bed.payerId,
      { brand: 'VISA', bin: '450995', last4: '3704', expMonth: 11, expYear: 2030 },
    ]);
    // Mercado Pago keeps it for the account's customer of the payer's e-mail.
    expect([...mp.cards.cards.values()].map((c) => [c.firstSix, c.lastFour, c.paymentMethodId])).toEqual([['450995', '3704', 'visa']]);
    const [row] = await bed.query<{ processor: string; external_id: string }>(
      `SELECT processor, external_id FROM payment_instrument WHERE payment_instrument_id = $1`,
      [savedCard],
    );
    expect(row.processor).toBe('MERCADO_PAGO');
    expect(row.external_id).toMatch(/^\d+-[\w-]+:\d+:visa$/);
  }, 90_000);

  const monthly = (paymentInstrumentId: string) => ({
    merchantId,
    payerId: bed.payerId,
    paymentInstrumentId,
    amount: 1500,
    currency: 'UYU',
    interval: 'MONTH',
    intervalCount: 1,
    description: 'Cuota del gimnasio',
  });

  let extras = 0;
  /** A one-off charge of the saved card, confirmed at creation (no payer present). */
  const extra = () => ({
    currency: 'UYU',
    amount: 99,
    payinType: 'DEFAULT',
    externalReference: `extra-${++extras}`,
    invoiceNumber: extras,
    offSession: true,
    confirm: true,
    country: 'URY',
    description: 'Extra',
    payerId: bed.payerId,
    paymentInstrumentId: savedCard,
  });

  it('charges it without the payer only where the account has automatic payments (409 otherwise)', async () => {
    const refused = await merchant.post('/subscription', monthly(savedCard));
    expect([refused.status, refused.body]).toEqual([409, errorShape('Payins:OFF_SESSION_NOT_AVAILABLE')]);
    const direct = await merchant.post('/payment-intent', extra());
    expect([direct.status, direct.body.errorId]).toEqual([409, 'Payins:OFF_SESSION_NOT_AVAILABLE']);
    expect(mp.requests.filter((r) => r.path === '/v1/payments')).toEqual([]);
    // The payer present (one-click): the merchant's page makes a token of the saved card with its security code, as
    // MercadoPago.js's createCardToken({ cardId }) does with the public key; that token pays without automatic payments.
    const cardId = String((await merchant.get(`/payment-instrument/${savedCard}`)).body.externalId).split(':')[1];
    const browserToken = async (body: Row) =>
      (await fetch(`${mp.url}/v1/card_tokens?public_key=${PUBLIC_KEY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: bed.url },
        body: JSON.stringify(body),
      }).then((response) => response.json())) as Row;
    const present = { ...extra(), offSession: false, amount: 120 };
    const noCode = await browserToken({ card_id: cardId });
    expect(noCode.cause).toEqual([expect.objectContaining({ code: '224' })]);
    const token = (await browserToken({ card_id: cardId, security_code: '123' })).id as string;
    const misplaced = await merchant.post('/payment-intent', { ...present, offSession: true, cardToken: token });
    expect([misplaced.status, misplaced.body.message]).toEqual([400, expect.stringContaining('cardToken')]);
    const oneClick = await merchant.post('/payment-intent', { ...present, cardToken: token });
    expect([oneClick.status, oneClick.body.status]).toEqual([200, 'SUCCEEDED']);
    const charged = [...mp.payments.values()].filter((p) => p.transaction_amount === 120);
    expect(charged.map((p) => [p.status, p.external_reference, p.card.last_four_digits])).toEqual([
      ['approved', expect.any(String), '3704'],
    ]);
    // A token is single use: the same token again is Mercado Pago's refusal, a rejected attempt.
    const again = await merchant.post('/payment-intent', { ...present, cardToken: token });
    expect([again.status, again.body.status]).toEqual([200, 'REQUIRES_PAYMENT_INSTRUMENT']);
    // The merchant says the account has automatic payments (kept on a replacement that omits it).
    expect((await connect({ offSessionEnabled: true })).body.offSessionEnabled).toBe(true);
    expect((await bed.business.get(account)).body).toMatchObject({ publicKey: PUBLIC_KEY, offSessionEnabled: true });
    // Mercado Pago has not enabled them yet: it refuses a token without the security code; the attempt is rejected.
    const early = await merchant.post('/payment-intent', extra());
    expect([early.status, early.body.status, early.body.paymentIntent.lastPaymentError]).toEqual([
      200,
      'REQUIRES_PAYMENT_INSTRUMENT',
      expect.stringContaining("security_code_id can't be null"),
    ]);
    mp.automaticPayments(TOKEN, true);
    const paid = await merchant.post('/payment-intent', extra());
    expect([paid.status, paid.body.status]).toEqual([200, 'SUCCEEDED']);
    const payment = [...mp.payments.values()].find((p) => p.status === 'approved' && p.transaction_amount === 99)!;
    expect([payment.transaction_amount, payment.currency_id, payment.payment_method_id, payment.card.last_four_digits]).toEqual([
      99,
      'UYU',
      'visa',
      '3704',
    ]);
  }, 60_000);

  it('charges a year of months at Mercado Pago, each once: soft declines retried, a hard one paid by the payer’s new card', async () => {
    const made = await merchant.post('/subscription', monthly(savedCard));
    expect(made.status).toBe(200);
    const subscriptionId = made.body.subscriptionId as string;
    const scheduler = bed.app.get(BillingScheduler);
    const start = Date.now();
    const card = () => [...mp.cards.cards.values()].find((c) => c.lastFour === '3704')!;
    let hard = false;
    let lostOnce = false;
    let replaced: string | null = null;
    // Later the merchant sends its VISA payments to dLocal: the saved card stays at Mercado Pago (contract §31).
    expect((await connect({}, ['MASTER_CARD'])).status).toBe(200);
    const routed = await bed.business.put(`/merchant/${merchantId}/gateway-account/dlocal`, {
      xLogin: 'dl-login-saved-0001',
      xTransKey: 'dl-trans-key-saved-0001',
      secretKey: 'dl-secret-key-saved-0001',
      paymentMethods: ['VISA'],
    });
    expect(routed.status).toBe(200);
    for (let day = 0; day <= 368; day++) {
      const now = new Date(start + day * 86_400_000 + 3_600_000);
      const before = await invoices(subscriptionId);
      const next = before.length;
      // The card's bank: short of funds for the 4th month's first try (soft), a wrong code for the 8th's (hard).
      const open = before.find((i) => i.status === 'OPEN');
      if (!open) card().holderName = next === 3 ? 'FUND' : next === 7 ? 'SECU' : 'APRO';
      else if (open.decline_kind === 'SOFT') card().holderName = 'APRO';
      // The 11th month's charge: Mercado Pago does the work but its answers never arrive, nor its notification. Nothing
      // fails over to dLocal; the next day's run takes the charge up again with the same keys: one payment.
      const lost = !open && next === 10 && !lostOnce;
      if (lost) {
        mp.availability = { state: 'losing' };
        mp.notifications = { mode: 'drop', delayMs: 0, repeat: 1 };
      }
      await scheduler.runDue(null, now, merchantId);
      if (lost) {
        mp.availability = { state: 'up' };
        mp.notifications = { mode: 'send', delayMs: 0, repeat: 1 };
        // The day its period began: its charge is still running for us (no answer), the period not charged again.
        const tenth = (await invoices(subscriptionId))[10];
        if (tenth) {
          lostOnce = true;
          expect(tenth).toMatchObject({ status: 'OPEN', attempt_count: 1 });
        }
      }
      const after = await invoices(subscriptionId);
      const hardOpen = after.find((i) => i.status === 'OPEN' && i.decline_kind === 'HARD');
      if (hardOpen && !replaced) {
        hard = true;
        // The payer follows the declined mail's link and saves another card at Mercado Pago's fields.
        const link = await setupLinkOfDeclineMail(bed, 'Cuota del gimnasio');
        const { page } = await saveCard(link, { holder: 'APRO', number: '5031755734530604', expiry: '08/31', code: '321' });
        await page.locator('#done').waitFor();
        await page.context().close();
        replaced = ((await merchant.get(`/subscription/${subscriptionId}`)).body as Row).paymentInstrumentId as string;
        expect(replaced).not.toBe(savedCard);
      }
    }
    const year = await invoices(subscriptionId);
    expect(year).toHaveLength(13);
    expect(year.map((i) => i.status)).toEqual(Array(13).fill('PAID'));
    // Tries: the soft decline paid by its first retry, the hard one by the new card at once; every other month once.
    expect(year.map((i) => i.attempt_count)).toEqual([1, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1, 1, 1]);
    expect([hard, lostOnce]).toEqual([true, true]);
    expect(year.slice(8).every((i) => i.payment_instrument_id === replaced)).toBe(true);
    // Mercado Pago's side: one approved payment per invoice (and the earlier one-off), each of 1,500.00 UYU, none at dLocal.
    const ours = await bed.query<{ transaction_id: string; amount: string; processor_fee_amount: string; external_id: string }>(
      `SELECT p.transaction_id, p.amount, p.processor_fee_amount, p.external_id FROM payin p
         JOIN invoice i ON i.payment_intent_id = p.payment_intent_id
        WHERE i.subscription_id = $1 AND p.transaction_type = 'PAYIN' AND p.status = 'APPROVED'`,
      [subscriptionId],
    );
    const approved = [...mp.payments.values()].filter((p) => p.status === 'approved' && p.transaction_amount === 1500);
    expect(approved).toHaveLength(13);
    // Our books and Mercado Pago's, payment by payment: our reference, its id, the amount and its fee to the cent.
    const theirs = approved
      .map((p) => [p.external_reference, String(p.id), 150_000, Math.round(p.fee_details!.reduce((sum, f) => sum + f.amount, 0) * 100)])
      .sort();
    expect(ours.map((p) => [p.transaction_id, p.external_id, Number(p.amount), Number(p.processor_fee_amount)]).sort()).toEqual(theirs);
    expect(dl.payments.size).toBe(0);
    const declined = [...mp.payments.values()].filter((p) => p.status === 'rejected').map((p) => p.status_detail);
    expect(declined.sort()).toEqual(['cc_rejected_bad_filled_security_code', 'cc_rejected_insufficient_amount']);
  }, 240_000);
});
