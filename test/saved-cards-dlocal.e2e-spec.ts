import { BillingScheduler } from '@pcs/billing';
import { DLocalStandIn, fitsWidth, launchChromium, MercadoPagoStandIn, screenshot, SignedClient } from '@pcs/testing';
import { Browser } from 'playwright-core';
import { invoicesOf, phone, postsTo, setupLinkOfDeclineMail } from './saved-cards';
import { Testbed, testbed } from './testbed';

type Row = Record<string, unknown>;

const LOGIN = 'dl-login-saved-cards-01';
const TRANS_KEY = 'dl-trans-saved-cards';
const SECRET_KEY = 'dl-secret-saved-cards-0001';
const SMART_FIELDS_KEY = 'sf-key-5b1d4c3a-9e8f-6a5b';
const MP_TOKEN = 'TEST-dlocal-saved-cards-mp-0001';

/**
 * Saved cards at dLocal and a year of a monthly subscription charged there (contract §31), against the stand-in
 * built from dLocal's "Saving cards" guide and Smart Fields reference: the setup page embeds its all-in-one card
 * field, the card goes from the browser to dLocal and only its token to us, `POST /secure_cards` keeps it for the
 * payer (named by name and document), and each period is a DIRECT payment with its `card_id`. The card stays at
 * dLocal when the merchant routes its brand to Mercado Pago; a soft decline is retried, a hard one waits for the
 * payer's new card.
 */
describe('saved cards at dLocal, and a year of a subscription charged there', () => {
  let bed: Testbed;
  let merchant: SignedClient;
  let merchantId: string;
  let account: string;
  let browser: Browser;
  const dl = new DLocalStandIn().merchant(LOGIN, TRANS_KEY, SECRET_KEY, { smartFieldsKey: SMART_FIELDS_KEY });
  const mp = new MercadoPagoStandIn().account(MP_TOKEN, 'mp-secret', { currency: 'UYU' });

  beforeAll(async () => {
    await dl.start();
    await mp.start();
    bed = await testbed({
      reachable: true,
      name: 'Colegio Este',
      payer: { firstName: 'Inés', lastName: 'Madre', email: 'ines@example.uy', documentType: 'IDENTITY_DOCUMENT', document: '1.234.567-2' },
      gateway: {
        processorApis: {
          DLOCAL: { url: dl.url, timeoutMs: 4000, browserScript: `${dl.url}/js/` },
          MERCADO_PAGO: { url: mp.url, timeoutMs: 4000 },
        },
        reconcileAfterSeconds: 600,
      },
    });
    merchant = bed.merchant;
    merchantId = bed.tenant.merchants[0].merchantId;
    account = `/merchant/${merchantId}/gateway-account/dlocal`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    dl.notifications = { mode: 'drop', delayMs: 0, repeat: 1 };
    await browser?.close();
    await bed?.close();
    await dl.stop();
    await mp.stop();
  });

  const connect = (settings: Row) =>
    bed.business.put(account, {
      xLogin: LOGIN,
      xTransKey: TRANS_KEY,
      secretKey: SECRET_KEY,
      paymentMethods: ['VISA', 'MASTER_CARD'],
      ...settings,
    });
  /** The payer at the setup page: dLocal's card field takes the card; what our server receives is kept. */
  const saveCard = async (url: string, holder: string, card: string) => {
    const page = await phone(browser, 'es-UY');
    const posted = postsTo(page, bed.url);
    const response = await page.goto(url);
    await page.fill('#holder', holder);
    await page.fill('#cardNumber input', card);
    await page.click('#save');
    return { page, posted, headers: response!.headers() };
  };
  const invoices = (subscriptionId: string) => invoicesOf(bed, subscriptionId);

  let savedCard: string;

  it('saves a card through dLocal’s Smart Fields: the card goes to dLocal, its token to us, the card_id is kept', async () => {
    for (const wrong of ['short', 'with a space 12345', 42]) {
      const refused = await connect({ smartFieldsKey: wrong });
      expect([refused.status, refused.body.errorId]).toEqual([400, 'Validation:INVALID_REQUEST']);
    }
    const connected = await connect({ smartFieldsKey: SMART_FIELDS_KEY });
    expect([connected.status, connected.body.smartFieldsKey]).toEqual([200, SMART_FIELDS_KEY]);
    const setup = (
      await merchant.post('/payment-instrument/setup', { merchantId, payerId: bed.payerId, returnUrl: `${bed.url}/health?from=dlocal` })
    ).body as { setupId: string; setupUrl: string };
    // A number dLocal refuses: the page says so and nothing is posted to us.
    const first = await saveCard(setup.setupUrl, 'Inés Madre', '4111111111111112 12/30 123');
    await first.page.locator('#fields-error').waitFor({ state: 'visible' });
    expect(first.posted).toEqual([]);
    expect(first.headers['content-security-policy']).toContain(dl.url);
    expect(await first.page.isHidden('#expirationDate')).toBe(true);
    expect(await fitsWidth(first.page, '#save')).toEqual({ pageFits: true, elementFits: true });
    await screenshot(first.page, 'card-setup-dlocal-es');
    await first.page.fill('#cardNumber input', '4111111111111111 12/30 123');
    await first.page.click('#save');
    await first.page.waitForURL(/\/health\?from=dlocal&setupId=/);
    expect(first.posted).toHaveLength(1);
    expect(first.posted[0]).toMatch(/cardToken=CT-[0-9a-f-]{36}/);
    expect(first.posted[0]).not.toMatch(/4111111111111111|12%2F30/);
    await first.page.context().close();

    savedCard = ((await merchant.get(`/payment-instrument/setup/${setup.setupId}`)).body as Row).paymentInstrumentId as string;
    const instrument = (await merchant.get(`/payment-instrument/${savedCard}`)).body as Row;
    // dLocal's saved card tells its last four and expiry, not its BIN.
    expect(instrument.card).toEqual({ brand: 'VISA', bin: null, last4: '1111', expMonth: 12, expYear: 2030 });
    const [row] = await bed.query<{ processor: string; external_id: string }>(
      `SELECT processor, external_id FROM payment_instrument WHERE payment_instrument_id = $1`,
      [savedCard],
    );
    expect([row.processor, dl.cards.cards.has(row.external_id)]).toEqual(['DLOCAL', true]);
    const secured = dl.requests.filter((r) => r.path === '/secure_cards').map((r) => JSON.parse(r.body) as Row);
    expect(secured.at(-1)).toMatchObject({ country: 'UY', payer: { name: 'Inés Madre', document: '12345672', email: 'ines@example.uy' } });
  }, 90_000);

  it('charges a year of months at dLocal with the card_id, each once: a soft decline retried, a hard one paid by the new card', async () => {
    const made = await merchant.post('/subscription', {
      merchantId,
      payerId: bed.payerId,
      paymentInstrumentId: savedCard,
      amount: 2400,
      currency: 'UYU',
      interval: 'MONTH',
      intervalCount: 1,
      description: 'Cuota del colegio',
    });
    expect(made.status).toBe(200);
    const subscriptionId = made.body.subscriptionId as string;
    const scheduler = bed.app.get(BillingScheduler);
    const start = Date.now();
    const card = () => [...dl.cards.cards.values()].find((c) => c.number.endsWith('1111'))!;
    let replaced: string | null = null;
    // Later the merchant sends its VISA payments to Mercado Pago: the saved card stays at dLocal (contract §31).
    expect((await connect({ paymentMethods: ['MASTER_CARD'] })).status).toBe(200);
    expect(
      (
        await bed.business.put(`/merchant/${merchantId}/gateway-account/mercado-pago`, {
          accessToken: MP_TOKEN,
          webhookSecret: 'mp-secret',
          paymentMethods: ['VISA'],
        })
      ).status,
    ).toBe(200);
    for (let day = 0; day <= 368; day++) {
      const now = new Date(start + day * 86_400_000 + 3_600_000);
      const before = await invoices(subscriptionId);
      const open = before.find((i) => i.status === 'OPEN');
      // The card's bank: short of funds for the 3rd month's first try (302, soft), the card expired for the 6th's (309, hard).
      if (!open) card().answer = before.length === 2 ? '302' : before.length === 5 ? '309' : '200';
      else if (open.decline_kind === 'SOFT') card().answer = '200';
      await scheduler.runDue(null, now, merchantId);
      const hardOpen = (await invoices(subscriptionId)).find((i) => i.status === 'OPEN' && i.decline_kind === 'HARD');
      if (hardOpen && !replaced) {
        const link = await setupLinkOfDeclineMail(bed, 'Cuota del colegio');
        // Its VISA methods are at Mercado Pago now: the payer's new card is a MASTER_CARD at dLocal.
        const { page } = await saveCard(link, 'Inés Madre', '5555555555554444 03/31 321');
        await page.locator('#done').waitFor();
        await page.context().close();
        replaced = ((await merchant.get(`/subscription/${subscriptionId}`)).body as Row).paymentInstrumentId as string;
        expect(replaced).not.toBe(savedCard);
      }
    }
    const year = await invoices(subscriptionId);
    expect(year.map((i) => i.status)).toEqual(Array(13).fill('PAID'));
    expect(year.map((i) => i.attempt_count)).toEqual([1, 1, 2, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1]);
    expect(year.slice(6).every((i) => i.payment_instrument_id === replaced)).toBe(true);
    // dLocal's side: one PAID payment per invoice, our attempt's id its order id; the refusals 302 and 309; nothing at Mercado Pago.
    const ours = await bed.query<{ transaction_id: string; external_id: string; amount: string }>(
      `SELECT p.transaction_id, p.external_id, p.amount FROM payin p JOIN invoice i ON i.payment_intent_id = p.payment_intent_id
        WHERE i.subscription_id = $1 AND p.transaction_type = 'PAYIN' AND p.status = 'APPROVED'`,
      [subscriptionId],
    );
    const paid = [...dl.payments.values()].filter((p) => p.status === 'PAID' && p.amount === 2400);
    expect(paid.map((p) => [p.order_id, p.id, 240_000]).sort()).toEqual(
      ours.map((p) => [p.transaction_id, p.external_id, Number(p.amount)]).sort(),
    );
    expect(paid.every((p) => p.payment_method_flow === 'DIRECT' && p.card?.card_id)).toBe(true);
    expect(
      [...dl.payments.values()]
        .filter((p) => p.status === 'REJECTED')
        .map((p) => p.status_code)
        .sort(),
    ).toEqual(['302', '309']);
    expect(mp.payments.size).toBe(0);
  }, 240_000);
});
