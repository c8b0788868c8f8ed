import { errorShape, fitsWidth, launchChromium, screenshot } from '@pcs/testing';
import request from 'supertest';
import { Testbed, testbed } from './testbed';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Relationship = { merchantCountryProcessorId: string; countryProcessor: { paymentMethod: { paymentMethodName: string } } };

/** The first method a pay page offers (its country processor). */
const method = (html: string) => /name="countryProcessorId" value="([^"]+)"/.exec(html)![1];

/** The nth test card of an attacker's list: its first six digits, last four and expiry (never a whole number). */
const cardOf = (n: number) => ({
  cardBin: String(450000 + n),
  cardLast4: String(1000 + n).slice(-4),
  cardExpiry: `${String((n % 12) + 1).padStart(2, '0')}/3${n % 10}`,
});

/**
 * The card-testing guard of the public pages (contract §30), played as an
 * attacker would: a link's pay page, the sandbox's page with a card each time,
 * declined; from one address, from ten, one card on several links; the
 * blocks as the merchant's API and /metrics show them, card_testing.suspected
 * once per block, the 429 page in es, en and pt and the JSON error; the
 * merchant's own signed API never refused; the configuration's ranges.
 */
describe('the card-testing guard of the public pages (contract §30)', () => {
  let bed: Testbed;
  let merchantId: string;
  let processors: string[];

  beforeAll(async () => {
    // Behind a proxy on loopback: each attacker's request speaks for an address through X-Forwarded-For.
    bed = await testbed({ reachable: true, rateLimits: { trustProxy: 'loopback' }, payer: { firstName: 'Paula', lastName: 'Pérez' } });
    merchantId = bed.tenant.merchants[0].merchantId;
    const relationships = (await bed.business.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Relationship[];
    processors = relationships
      .filter((r) => r.countryProcessor.paymentMethod.paymentMethodName === 'VISA')
      .map((r) => r.merchantCountryProcessorId);
  }, 60_000);
  afterAll(() => bed.close());

  const server = () => bed.app.getHttpServer();
  const newLink = async () =>
    (
      await bed.merchant.post('/link', {
        amount: 990,
        vatPercentage: 22,
        currency: 'UYU',
        merchantCountryProcessors: processors,
        country: 'URY',
        description: 'Gift card',
      })
    ).body as { linkId: string };
  const configure = (guard: Json) => bed.business.put(`/merchant/${merchantId}/configuration`, { cardTestingGuard: guard });

  /**
   * One try as a browser makes it: the link's page, the method, then the sandbox's page with a card, declined.
   * `refusedAt`: where a 429 answered (the link's page or the sandbox's), or null when the try reached its decline.
   */
  async function tryCard(
    linkId: string,
    address: string,
    card: Json,
    language = 'es',
  ): Promise<{ refusedAt: 'link' | 'sandbox' | null; answer: request.Response }> {
    const agent = request.agent(server());
    const page = await agent.get(`/pay/${linkId}`).set('x-forwarded-for', address).set('accept-language', language);
    expect(page.status).toBe(200);
    const token = /name="token" value="([^"]+)"/.exec(page.text)![1];
    const chosen = await agent
      .post(`/pay/${linkId}`)
      .set('x-forwarded-for', address)
      .set('accept-language', language)
      .type('form')
      .send({ token, countryProcessorId: method(page.text) });
    if (chosen.status === 429) return { refusedAt: 'link', answer: chosen };
    expect(chosen.status).toBe(303);
    const sandbox = new URL(chosen.headers.location).pathname;
    const decided = await agent
      .post(sandbox)
      .set('x-forwarded-for', address)
      .set('accept-language', language)
      .type('form')
      .send({ outcome: 'reject', ...card });
    if (decided.status === 429) return { refusedAt: 'sandbox', answer: decided };
    expect([decided.status, decided.headers.location]).toEqual([303, expect.stringContaining(`/pay/${linkId}`)]);
    return { refusedAt: null, answer: decided };
  }

  const blocks = async () =>
    (await bed.merchant.get(`/merchant/${merchantId}/card-testing/blocks`)).body as { settings: Json; blocks: Json[] };
  const suspected = async () => ((await bed.business.get('/event?type=card_testing.suspected&limit=100')).body[0]?.results ?? []) as Json[];

  it('an attacker trying 50 cards from one address: 10 declines, then the address and the link are refused (429, es/en/pt, JSON), once each; the merchant’s API goes on', async () => {
    const link = await newLink();
    const address = '203.0.113.10';
    const outcomes: (string | null)[] = [];
    for (let n = 0; n < 50; n++) outcomes.push((await tryCard(link.linkId, address, cardOf(n))).refusedAt);
    expect(outcomes.filter((o) => o === null)).toHaveLength(10);
    expect(outcomes.slice(10)).toEqual(Array(40).fill('link'));

    const listed = await blocks();
    expect(listed.settings).toEqual({
      enabled: true,
      maxDeclinesPerCard: 3,
      maxDeclinesPerAddress: 10,
      maxAttemptsPerAddress: 30,
      windowMinutes: 60,
      blockMinutes: 60,
    });
    const mine = listed.blocks.filter((b) => b.hint === '203.0.113.x' || b.saleId === link.linkId);
    expect(mine.map((b) => [b.scope, b.reason, b.count, b.page, b.active]).sort()).toEqual([
      ['ADDRESS', 'DECLINES_PER_ADDRESS', 10, 'LINK', true],
      ['LINK', 'DECLINES_PER_LINK', 10, 'LINK', true],
    ]);
    const until = new Date(mine[0].until).getTime() - new Date(mine[0].startedAt).getTime();
    expect(until).toBe(60 * 60_000);
    // Nothing of an address in clear: its hint is masked, the link's is the link; the database keeps keyed hashes only.
    expect(mine.map((b) => b.hint).sort()).toEqual(['203.0.113.x', `link ${link.linkId}`]);
    const stored = await bed.dataSource.query<Json[]>(
      `SELECT address_key, card_key, sale_key FROM card_testing_mark WHERE merchant_id = $1 UNION ALL SELECT address_key, card_key, sale_key FROM card_testing_origin WHERE merchant_id = $1`,
      [merchantId],
    );
    expect(stored.length).toBeGreaterThanOrEqual(20);
    for (const row of stored)
      for (const value of Object.values(row)) expect(value === null || /^[0-9a-f]{64}$/.test(value as string)).toBe(true);
    expect(JSON.stringify(stored)).not.toContain('203.0.113.10');

    // card_testing.suspected once per block (40 more refusals open nothing).
    const events = (await suspected()).filter((e) => mine.some((b) => b.blockId === e.data.object.blockId));
    expect(events.map((e) => e.data.object.scope).sort()).toEqual(['ADDRESS', 'LINK']);
    // /metrics counts the blocks and the refusals, without tenants.
    const metrics = (await request(server()).get('/metrics')).text;
    expect(metrics).toMatch(/pcs_card_testing_blocks_total\{scope="ADDRESS",reason="DECLINES_PER_ADDRESS"\} [1-9]/);
    expect(metrics).toMatch(/pcs_card_testing_refusals_total\{page="LINK"\} ([4-9]\d|\d{3,})/);
    expect(metrics).not.toContain(merchantId);

    // The 429 page in the payer's language, with Retry-After; a JSON caller gets the error body.
    const other = await newLink();
    for (const [language, text] of [
      ['es', 'Demasiados intentos de pago'],
      ['en', 'Too many payment attempts'],
      ['pt', 'Tentativas de pagamento demais'],
    ]) {
      const refused = await tryCard(other.linkId, address, cardOf(99), language);
      expect([refused.refusedAt, refused.answer.headers['content-type'], refused.answer.text]).toEqual([
        'link',
        expect.stringContaining('text/html'),
        expect.stringContaining(text),
      ]);
      expect(Number(refused.answer.headers['retry-after'])).toBeGreaterThan(3500);
    }
    const agent = request.agent(server());
    const page = await agent.get(`/pay/${other.linkId}`).set('x-forwarded-for', address);
    const json = await agent
      .post(`/pay/${other.linkId}`)
      .set('x-forwarded-for', address)
      .set('accept', 'application/json')
      .type('form')
      .send({ token: /name="token" value="([^"]+)"/.exec(page.text)![1], countryProcessorId: method(page.text) });
    expect([json.status, json.body]).toEqual([429, errorShape('Payins:TOO_MANY_ATTEMPTS')]);

    // Another address pays the other link; the merchant's own signed API, from the blocked address, is never refused.
    expect((await tryCard(other.linkId, '192.0.2.44', cardOf(200))).refusedAt).toBeNull();
    const intent = await bed.merchant
      .post('/payment-intent', {
        currency: 'UYU',
        amount: 990,
        payinType: 'DEFAULT',
        externalReference: 'phone-1',
        invoiceNumber: 1,
        payerId: bed.payerId,
        offSession: false,
        country: 'URY',
        description: 'By phone',
      })
      .set('x-forwarded-for', address);
    expect(intent.status).toBe(200);
    const initialized = await bed.merchant
      .post(`/payment-intent/${intent.body.paymentIntent.paymentIntentId}/initialize`, { countryProcessorId: method(page.text) })
      .set('x-forwarded-for', address);
    expect(initialized.status).toBe(200);
  }, 240_000);

  it('an attacker trying 50 cards from 10 addresses: no address reaches its limit, the link is refused after 10 declines from all of them', async () => {
    const link = await newLink();
    const addresses = Array.from({ length: 10 }, (_, i) => `198.51.100.${i + 1}`);
    const outcomes: (string | null)[] = [];
    for (let n = 0; n < 50; n++) outcomes.push((await tryCard(link.linkId, addresses[n % 10], cardOf(300 + n))).refusedAt);
    expect(outcomes.slice(0, 10)).toEqual(Array(10).fill(null));
    expect(outcomes.slice(10)).toEqual(Array(40).fill('link'));
    const mine = (await blocks()).blocks.filter((b) => b.saleId === link.linkId || b.hint.startsWith('198.51.100.'));
    expect(mine.map((b) => [b.scope, b.reason, b.count])).toEqual([['LINK', 'DECLINES_PER_LINK', 10]]);
    // None of the ten addresses is refused on another link.
    const fresh = await newLink();
    expect((await tryCard(fresh.linkId, addresses[3], cardOf(400))).refusedAt).toBeNull();
  }, 240_000);

  it('refuses at the sandbox’s page a card declined 3 times, from any address and on any link', async () => {
    const card = cardOf(500);
    for (let n = 0; n < 3; n++) expect((await tryCard((await newLink()).linkId, `192.0.2.${100 + n}`, card)).refusedAt).toBeNull();
    const refused = await tryCard((await newLink()).linkId, '192.0.2.150', card, 'en');
    expect([refused.refusedAt, refused.answer.status, refused.answer.text]).toEqual([
      'sandbox',
      429,
      expect.stringContaining('Too many payment attempts'),
    ]);
    const cardBlocks = (await blocks()).blocks.filter((b) => b.scope === 'CARD');
    expect(cardBlocks.map((b) => [b.reason, b.count, b.hint.startsWith('card ')])).toEqual([['DECLINES_PER_CARD', 3, true]]);
    // Another card passes the same sandbox page.
    expect((await tryCard((await newLink()).linkId, '192.0.2.151', cardOf(501))).refusedAt).toBeNull();
  }, 120_000);

  it('counts attempts per address; a guard turned off counts nothing; a value out of range is the configuration’s 400 and changes nothing', async () => {
    for (const wrong of [
      { maxDeclinesPerCard: 0 },
      { windowMinutes: 1441 },
      { blockMinutes: 1.5 },
      { enabled: 'yes' },
      { maxAttemptsPerAddress: null },
      { maxDeclinesPerAddress: [3] },
    ]) {
      const answer = await configure(wrong);
      expect([wrong, answer.status, answer.body.errorId]).toEqual([wrong, 400, 'Payins:ERROR_IN_UPDATE_MERCHANT_CONFIGURATION']);
    }
    expect((await blocks()).settings.maxDeclinesPerCard).toBe(3);
    // Three attempts per address: the fourth start is refused, before any decline.
    expect((await configure({ maxAttemptsPerAddress: 3 })).body.cardTestingGuard).toMatchObject({
      maxAttemptsPerAddress: 3,
      maxDeclinesPerCard: 3,
    });
    const address = '192.0.2.200';
    const tries = [];
    for (let n = 0; n < 4; n++) tries.push((await tryCard((await newLink()).linkId, address, cardOf(600 + n))).refusedAt);
    expect(tries).toEqual([null, null, null, 'link']);
    expect((await blocks()).blocks.filter((b) => b.reason === 'ATTEMPTS_PER_ADDRESS').map((b) => [b.scope, b.count, b.hint])).toEqual([
      ['ADDRESS', 3, '192.0.2.x'],
    ]);
    // Off: nothing counted, nothing refused.
    expect((await configure({ enabled: false, maxAttemptsPerAddress: 30 })).status).toBe(200);
    const before = (await blocks()).blocks.length;
    const link = await newLink();
    for (let n = 0; n < 12; n++) expect((await tryCard(link.linkId, '192.0.2.201', cardOf(700))).refusedAt).toBeNull();
    expect((await blocks()).blocks).toHaveLength(before);
    expect((await configure({ enabled: true })).body.cardTestingGuard).toEqual({
      enabled: true,
      maxDeclinesPerCard: 3,
      maxDeclinesPerAddress: 10,
      maxAttemptsPerAddress: 30,
      windowMinutes: 60,
      blockMinutes: 60,
    });
  }, 180_000);

  it('shows a payer on a phone the sandbox page with its test-card fields, and the 429 page in their language once blocked', async () => {
    const browser = await launchChromium();
    try {
      const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 };
      // An address of its own: not blocked yet. The sandbox page's card fields fit the phone.
      const free = await browser.newContext({ ...phone, locale: 'es-UY', extraHTTPHeaders: { 'x-forwarded-for': '192.0.2.230' } });
      const page = await free.newPage();
      await page.goto(`${bed.url}/pay/${(await newLink()).linkId}`);
      await page.click('button[data-method="VISA"]');
      await page.waitForSelector('#cardBin');
      expect(await fitsWidth(page, '#card')).toEqual({ pageFits: true, elementFits: true });
      await screenshot(page, 'sandbox-test-card-phone-es');
      await free.close();
      // The address the first test blocked: the choice of a method answers the 429 page, in English here.
      const blocked = await browser.newContext({ ...phone, locale: 'en-US', extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.10' } });
      const refused = await blocked.newPage();
      await refused.goto(`${bed.url}/pay/${(await newLink()).linkId}`);
      await refused.click('button[data-method="VISA"]');
      await refused.waitForSelector('#state[data-state="TOO_MANY_ATTEMPTS"]');
      expect(await refused.textContent('#state')).toBe('Too many payment attempts');
      expect(await fitsWidth(refused, '.status')).toEqual({ pageFits: true, elementFits: true });
      await screenshot(refused, 'card-testing-refused-phone-en');
      await blocked.close();
    } finally {
      await browser.close();
    }
  }, 120_000);
});
