import { BillingScheduler } from '@pcs/billing';
import { brasiliaDate, DLocalStandIn, fitsWidth, launchChromium, screenshot, SignedClient } from '@pcs/testing';
import { Browser } from 'playwright-core';
import { invoicesOf, phone } from './saved-cards';
import { Testbed, testbed } from './testbed';

type Row = Record<string, unknown>;

const LOGIN = 'dl-login-pix-automatico-01';
const TRANS_KEY = 'dl-trans-pix-automatico';
const SECRET_KEY = 'dl-secret-pix-automatico-0001';
const DAY = 86_400_000;

/** `date` (YYYY-MM-DD) plus `days`. */
const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/**
 * Pix Automático through dLocal (contract §31), against the stand-in built from dLocal's Pix Automático pages: the
 * payer authorises fixed terms once, from our setup page through dLocal's journey (the bank's app), and a monthly
 * subscription is then charged by recurring payments requested 3 days before each billing date with its
 * `scheduled_date` (Banco Central: 2 to 10 days ahead), a failed one retried by dLocal's retry service (3 retries within
 * 7 days, one a day), every invoice paid once or ending as §31 says, our books equal to dLocal's payments.
 */
describe('Pix Automático through dLocal: the authorisation from our page, a year of monthly charges', () => {
  let bed: Testbed;
  let merchant: SignedClient;
  let merchantId: string;
  let browser: Browser;
  const dl = new DLocalStandIn().merchant(LOGIN, TRANS_KEY, SECRET_KEY);
  // The first billing date: 5 days ahead in Brasília.
  const firstDate = plusDays(brasiliaDate(new Date()), 5);

  beforeAll(async () => {
    await dl.start();
    bed = await testbed({
      reachable: true,
      name: 'Academia Sol',
      country: 'BRA',
      payer: {
        firstName: 'Thiago',
        lastName: 'Gabriel',
        email: 'thiago@example.com.br',
        documentType: 'IDENTITY_DOCUMENT',
        document: '530.333.155-50',
      },
      gateway: { processorApis: { DLOCAL: { url: dl.url, timeoutMs: 4000 } }, reconcileAfterSeconds: 600 },
    });
    merchant = bed.merchant;
    merchantId = bed.tenant.merchants[0].merchantId;
    const connected = await bed.business.put(`/merchant/${merchantId}/gateway-account/dlocal`, {
      xLogin: LOGIN,
      xTransKey: TRANS_KEY,
      secretKey: SECRET_KEY,
      paymentMethods: ['PIX'],
    });
    expect(connected.status).toBe(200);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    dl.notifications = { mode: 'drop', delayMs: 0, repeat: 1 };
    await browser?.close();
    await bed?.close();
    await dl.stop();
  });

  const terms = { amount: 89.9, frequency: 'MONTHLY', startDate: firstDate };
  /** A monthly subscription paid by the authorisation, of its terms. */
  const monthlyPix = (startDate = firstDate) => ({
    merchantId,
    payerId: bed.payerId,
    paymentInstrumentId: instrumentId,
    amount: 89.9,
    currency: 'BRL',
    interval: 'MONTH',
    intervalCount: 1,
    startDate,
    description: 'Plano mensal',
  });
  let instrumentId: string;

  it('asks the payer on a phone to authorise fixed terms, through dLocal’s journey to the bank’s app, and keeps the authorisation', async () => {
    // Terms the scheme would not take: refused with the field named, nothing opened.
    for (const [wrong, field] of [
      [{ ...terms, startDate: brasiliaDate(new Date()) }, 'pixAutomatico.startDate'],
      [{ ...terms, frequency: 'DAILY' }, 'frequency'],
      [{ ...terms, amount: 0 }, 'pixAutomatico.amount'],
    ] as const) {
      const refused = await merchant.post('/payment-instrument/setup', {
        merchantId,
        payerId: bed.payerId,
        returnUrl: `${bed.url}/health?from=pix`,
        pixAutomatico: wrong,
      });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(field);
    }
    const started = await merchant.post('/payment-instrument/setup', {
      merchantId,
      payerId: bed.payerId,
      returnUrl: `${bed.url}/health?from=pix`,
      pixAutomatico: { ...terms, description: 'Academia Sol: plano mensal' },
    });
    expect(started.status).toBe(200);
    const setup = started.body as { setupId: string; setupUrl: string };

    const page = await phone(browser, 'pt-BR');
    await page.goto(setup.setupUrl);
    const [year, month, day] = firstDate.split('-');
    expect(await page.textContent('#terms')).toBe(
      `Merchant 1 of Academia Sol cobrará R$ 89,90 todo mês por Pix Automático, a partir de ${day}/${month}/${year}.`,
    );
    expect(await fitsWidth(page, '#authorise')).toEqual({ pageFits: true, elementFits: true });
    await screenshot(page, 'pix-automatico-setup-pt');
    // The payer refuses in the bank's app: back on our page, told so, and may ask again.
    await page.click('#authorise');
    await page.waitForURL(/\/pix-automatico\/authorize\/E-4-/);
    expect(await page.textContent('#terms')).toBe(`BRL 89.90 · MONTHLY · ${firstDate}`);
    await page.click('.refuse');
    await page.waitForURL(setup.setupUrl);
    expect(await page.textContent('#refused')).toBe('Seu banco não autorizou o Pix Automático. Você pode tentar de novo.');
    // Authorised the second time: back on our page, the authorisation read from dLocal, the setup done.
    await page.click('#authorise');
    await page.waitForURL(/\/pix-automatico\/authorize\/E-4-/);
    await page.click('.authorise');
    await page.waitForURL(setup.setupUrl);
    expect(await page.textContent('#done')).toBe('Pix Automático autorizado. Merchant 1 of Academia Sol cobrará nas datas combinadas.');
    await page.click('a.button');
    await page.waitForURL(/\/health\?from=pix&setupId=/);
    await page.context().close();

    // What dLocal was asked: a merchant subscription of fixed amount, for the payer named by name and CPF, our setup's id.
    const enrollments = dl.requests.filter((r) => r.path === '/enrollments').map((r) => JSON.parse(r.body) as Row);
    expect(enrollments).toHaveLength(2);
    expect(enrollments[1]).toEqual({
      external_id: setup.setupId,
      currency: 'BRL',
      country: 'BR',
      type: 'MERCHANT_SUBSCRIPTION',
      description: 'Academia Sol: plano mensal',
      payment_method_id: 'XA',
      payment_method_flow: 'REDIRECT',
      payer: { name: 'Thiago Gabriel', document: '53033315550', email: 'thiago@example.com.br' },
      subscription: { start_date: firstDate, frequency: 'MONTHLY', amount: { type: 'FIXED', value: 89.9 } },
      notification_url: `${bed.url}/gateways/dlocal/notifications/${merchantId}`,
      callback_url: setup.setupUrl,
    });
    instrumentId = ((await merchant.get(`/payment-instrument/setup/${setup.setupId}`)).body as Row).paymentInstrumentId as string;
    const instrument = (await merchant.get(`/payment-instrument/${instrumentId}`)).body as Row;
    expect([instrument.validated, instrument.card, instrument.pixAutomatico]).toEqual([
      true,
      null,
      { amount: 89.9, currency: 'BRL', frequency: 'MONTHLY', startDate: firstDate },
    ]);
    const active = [...dl.pix.enrollments.values()].find((e) => e.status === 'ACTIVE')!;
    expect(instrument.externalId).toBe(active.id);
    const events = await bed.query<{ type: string }>(`SELECT type FROM event WHERE subject_id = $1`, [instrumentId]);
    expect(events.map((e) => e.type)).toEqual(['payment_instrument.created']);
  }, 90_000);

  it('refuses a subscription whose charges the authorisation would not take', async () => {
    const base = monthlyPix();
    for (const [wrong, field] of [
      [{ amount: 99.9 }, 'amount'],
      [{ interval: 'WEEK' }, 'interval'],
      [{ intervalCount: 2 }, 'interval'],
      [{ startDate: plusDays(firstDate, -1) }, 'startDate'],
    ] as const) {
      const refused = await merchant.post('/subscription', { ...base, ...wrong });
      expect([refused.status, refused.body.fields ?? refused.body.message]).toEqual([400, expect.stringContaining(field)]);
    }
    expect((await bed.query(`SELECT 1 FROM subscription WHERE merchant_id = $1`, [merchantId])).length).toBe(0);
  });

  it('charges a year of months 3 days ahead with scheduled_date, a failed month retried by dLocal, each invoice paid once', async () => {
    // The merchant's own retry days are its cards'; Pix Automático's are dLocal's (1, 3 and 5 days after the date).
    const configured = await merchant.put(`/merchant/${merchantId}/configuration`, {
      dunning: { retryDays: [2, 4], finalStatus: 'UNPAID' },
    });
    expect(configured.status).toBe(200);
    const made = await merchant.post('/subscription', monthlyPix());
    expect(made.status).toBe(200);
    const subscriptionId = made.body.subscriptionId as string;
    const enrollment = [...dl.pix.enrollments.values()].find((e) => e.status === 'ACTIVE')!;
    // The payer's account, attempt after attempt: the 3rd month short on its date and paid by the first retry; the
    // 12th month short on its date and on each of dLocal's 3 retries.
    enrollment.answers.push(
      'PAID',
      'PAID',
      'INSUFFICIENT',
      'PAID',
      ...Array<'PAID'>(8).fill('PAID'),
      'INSUFFICIENT',
      'INSUFFICIENT',
      'INSUFFICIENT',
      'INSUFFICIENT',
    );
    const scheduler = bed.app.get(BillingScheduler);
    const today = brasiliaDate(new Date());
    const requested: { scheduled: string; on: string }[] = [];
    for (let day = 0; day <= 352; day++) {
      const date = plusDays(today, day);
      // Noon in Brasília: the bank's attempts of the day are made (00:00–08:00), then our scheduler runs.
      const now = new Date(Date.parse(`${date}T15:00:00Z`));
      await dl.pix.advanceTo(date);
      const before = dl.payments.size;
      await scheduler.runDue(null, now, merchantId);
      for (const payment of [...dl.payments.values()].slice(before))
        if (!('retry' in payment))
          requested.push({ scheduled: (payment as unknown as { scheduled_date: string }).scheduled_date, on: date });
    }
    const year = await invoicesOf(bed, subscriptionId);
    expect(year.map((i) => i.status)).toEqual([...Array<string>(11).fill('PAID'), 'UNCOLLECTIBLE']);
    expect(year.map((i) => i.attempt_count)).toEqual([1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 4]);
    expect(((await merchant.get(`/subscription/${subscriptionId}`)).body as Row).status).toBe('UNPAID');
    // Each month requested once, 3 days before its billing date, for that date (the 1st, at the stand-in's date: 5 days ahead).
    expect(requested.map((r) => r.scheduled)).toEqual(Array.from({ length: 12 }, (_, n) => addMonths(firstDate, n)));
    expect(requested.every((r) => r.on === plusDays(r.scheduled, -3))).toBe(true);
    // dLocal's retries: the 3rd month's one, and the 12th month's three, through its retry service.
    expect(dl.requests.filter((r) => /^\/payments\/[^/]+\/retries$/.test(r.path))).toHaveLength(4);
    // Our books equal dLocal's payments, payment by payment: each PAID one an APPROVED payin of ours, and nothing else.
    const ours = await bed.query<{ external_id: string; amount: string; period_number: number }>(
      `SELECT p.external_id, p.amount, i.period_number FROM payin p
         JOIN payment_intent pi ON pi.payment_intent_id = p.payment_intent_id
         JOIN invoice i ON i.invoice_id::text = pi.external_reference
        WHERE i.subscription_id = $1 AND p.transaction_type = 'PAYIN' AND p.status = 'APPROVED'`,
      [subscriptionId],
    );
    const paid = [...dl.payments.values()].filter((p) => p.status === 'PAID');
    expect(paid.map((p) => [p.id, Math.round(p.amount * 100)]).sort()).toEqual(ours.map((p) => [p.external_id, Number(p.amount)]).sort());
    expect(ours.map((p) => p.period_number).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(paid.every((p) => p.payment_method_id === 'XA')).toBe(true);
    expect([...dl.payments.values()].filter((p) => p.status === 'REJECTED').map((p) => p.status_code)).toEqual(['302', '302', '305']);
  }, 300_000);

  it('takes the authorisation out of use when the payer cancels it in the bank’s app', async () => {
    const active = [...dl.pix.enrollments.values()].find((e) => e.status === 'ACTIVE')!;
    await dl.pix.cancelByPayer(active.id);
    const instrument = (await merchant.get(`/payment-instrument/${instrumentId}`)).body as Row;
    expect([instrument.paymentInstrumentStatus, instrument.active]).toEqual(['INACTIVE', false]);
    // Nothing charges it again: a new subscription on it is refused.
    const refused = await merchant.post('/subscription', monthlyPix(plusDays(brasiliaDate(new Date()), 5)));
    expect([refused.status, refused.body.errorId]).toEqual([404, 'Payins:PAYMENT_INSTRUMENT_NOT_FOUND']);
  });
});

/** The local date `months` months after `date` (the same day, or the month's last). */
function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number);
  const index = year * 12 + month - 1 + months;
  const last = new Date(Date.UTC(Math.floor(index / 12), (index % 12) + 1, 0)).getUTCDate();
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-${String(Math.min(day, last)).padStart(2, '0')}`;
}
