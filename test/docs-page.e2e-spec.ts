import { launchChromium, screenshot } from '@pcs/testing';
import { Browser, Page } from 'playwright-core';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

/**
 * /docs signs in the browser (issue 13): a developer authorizes with the
 * api-key and the secret, and "Try it out" works for a GET and a POST alike,
 * the page computing each request's signature with Web Crypto. A real
 * Chromium against the real API.
 */
describe('the /docs page signs its requests in a real browser', () => {
  let bed: HttpTestbed;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    bed = await sharedTestbed();
    base = bed.url;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await bed.close();
  });

  const authorize = async (page: Page, apiKey: string, secret: string) => {
    await page.locator('button.authorize').first().click();
    const dialog = page.locator('.dialog-ux');
    for (const [scheme, value] of [
      ['api-key', apiKey],
      ['signature', secret],
    ]) {
      const container = dialog.locator('.auth-container').filter({ has: page.locator('h4 code', { hasText: new RegExp(`^${scheme}$`) }) });
      await container.locator('input').fill(value);
      await container.locator('button.authorize').click();
    }
    await dialog.locator('button.btn-done').first().click();
  };

  /** Opens an operation, presses "Try it out", optionally sets the body, executes, and answers the status the page shows. */
  const tryItOut = async (page: Page, tagAndOperation: string, body?: unknown) => {
    const operation = page.locator(`#operations-${tagAndOperation}`);
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('button.try-out__btn').click();
    if (body !== undefined) await operation.locator('textarea.body-param__text').fill(JSON.stringify(body, null, 2));
    const answered = page.waitForResponse((response) => response.url().startsWith(base) && response.request().method() !== 'OPTIONS');
    await operation.locator('button.execute').click();
    const response = await answered;
    await operation.locator('.live-responses-table .response-col_status').first().waitFor();
    const curl = await operation.locator('.curl-command').first().innerText();
    return {
      status: response.status(),
      signature: response.request().headers()['signature'],
      signatureInput: response.request().headers()['signature-input'],
      contentDigest: response.request().headers()['content-digest'],
      apiKeyHeader: response.request().headers()['api-key'],
      body: (await response.json()) as unknown,
      curl,
    };
  };

  it('authorizes with the api-key and the secret, then a GET and a POST answer 200 with the page-made signature', async () => {
    const merchant = bed.tenant.merchants[0];
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${base}/docs`);
    await authorize(page, merchant.apiKey, merchant.apiSecret);

    const listed = await tryItOut(page, 'payers-listPayers');
    expect(listed.status).toBe(200);
    // Version 3 (contract §29): RFC 9421 over the method, the path and the query, keyed by the api-key named in keyid.
    expect(listed.signature).toMatch(/^pcs=:[A-Za-z0-9+/]{43}=:$/);
    expect(listed.signatureInput).toMatch(
      new RegExp(
        `^pcs=\\("@method" "@path"( "@query")?\\);created=\\d+;nonce="[A-Za-z0-9_-]{16,64}";keyid="${merchant.apiKey}";alg="hmac-sha256"$`,
      ),
    );
    expect(listed.contentDigest).toBeUndefined();
    expect(listed.apiKeyHeader).toBeUndefined();
    expect(listed.signature).not.toContain(merchant.apiSecret);
    // The curl the page shows carries the signature it sent, never the secret typed in the dialog.
    expect(listed.curl).toContain(listed.signature);
    expect(listed.curl).not.toContain(merchant.apiSecret);

    const created = await tryItOut(page, 'payers-createPayer', { firstName: 'Ana', lastName: 'Docs', email: 'ana@example.uy' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ firstName: 'Ana', lastName: 'Docs' });
    expect(created.signatureInput).toContain('"content-digest"');
    expect(created.contentDigest).toMatch(/^sha-256=:[A-Za-z0-9+/]{43}=:$/);
    await screenshot(page, 'docs-signed-post');

    // The payer exists: the page's POST really went through, signed with this merchant's secret.
    const payers = await bed.merchant.get('/payer');
    expect(payers.body[0].results.map((payer: { lastName: string }) => payer.lastName)).toContain('Docs');
    await page.close();
    // A real Chromium on a shared 2-core machine beside the rest of the suite: a clean-clone run took past 60 s here.
  }, 180_000);

  it('answers 401 in the page when the secret is wrong (the signature is checked, not just present)', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${base}/docs`);
    await authorize(page, bed.tenant.merchants[0].apiKey, 'not-the-secret');
    const refused = await tryItOut(page, 'payers-listPayers');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ errorId: 'Auth:UNAUTHORIZED' });
    await page.close();
  }, 120_000);
});
