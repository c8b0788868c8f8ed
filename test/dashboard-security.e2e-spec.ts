import { NestExpressApplication } from '@nestjs/platform-express';
import { DashboardIdentity, LOCKOUT_FAILURES } from '@pcs/dashboard-identity';
import { launchChromium, screenshot } from '@pcs/testing';
import { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { codeFor, listeningDashboard, Person, readyPerson, signInOverHttp } from './dashboard-people';
import { Testbed, testbed } from './testbed';

/** People and sessions to PCI DSS (contract §22), over HTTP and in a real browser: the steps, codes, lockout, https. */
describe('the dashboard: second factor, lockout, sessions, https', () => {
  let bed: Testbed;
  let dashboard: NestExpressApplication;
  let base: string;
  let browser: Browser;
  let identity: DashboardIdentity;
  let dashboardKey: string;
  let admin: Person;
  let businessId: string;

  beforeAll(async () => {
    bed = await testbed({});
    businessId = bed.tenant.business.businessId;
    // The proxy's X-Forwarded-Proto says whether the person came over https.
    ({ dashboard, base, identity, apiKey: dashboardKey } = await listeningDashboard(bed, { trustProxy: true }));
    admin = await readyPerson(identity, { businessId, role: 'admin' });
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
    await bed?.close();
  });

  const server = () => dashboard.getHttpServer();
  const audited = async (action: string, email: string) =>
    (await identity.auditLog(businessId, { limit: 200 })).filter((e) => e.action === action && e.email === email);
  const browserSignIn = async (person: Person, locale = 'es-UY'): Promise<Page> => {
    const page = await (await browser.newContext({ locale, viewport: { width: 390, height: 844 } })).newPage();
    await page.goto(`${base}/sign-in`);
    await page.fill('#email', person.email);
    await page.fill('#password', person.password);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/sign-in\/code/);
    return page;
  };

  it('over https: __Host- cookies, Secure and HttpOnly, HSTS, and a policy that runs no script', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const form = await request(server()).get('/sign-in').set(https);
    expect(form.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(form.headers['content-security-policy']).toContain("default-src 'none'");
    expect(form.headers['content-security-policy']).not.toContain('script-src');
    expect(form.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(form.headers['x-content-type-options']).toBe('nosniff');
    expect(form.headers['referrer-policy']).toBe('same-origin');
    const [preCookie] = form.headers['set-cookie'] as unknown as string[];
    expect(preCookie).toMatch(/^__Host-pcs_dashboard_sign_in=/);
    expect(preCookie).toMatch(/; Path=\/;.*HttpOnly; Secure; SameSite=Lax/);
    const token = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
    const signedIn = await request(server())
      .post('/sign-in')
      .set(https)
      .set('cookie', preCookie.split(';')[0])
      .type('form')
      .send({ _csrf: token, email: admin.email, password: admin.password });
    expect(signedIn.status).toBe(303);
    const session = (signedIn.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('__Host-pcs_dashboard='))!;
    expect(session).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    // The same token under the plain name means nothing over https.
    const value = session.split(';')[0].split('=')[1];
    expect((await request(server()).get('/sign-in/code').set(https).set('cookie', `pcs_dashboard=${value}`)).status).toBe(303);
    expect((await request(server()).get('/sign-in/code').set(https).set('cookie', session.split(';')[0])).status).toBe(200);
    // Over plain http (development) neither the prefix nor HSTS.
    const plain = await request(server()).get('/sign-in');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect((plain.headers['set-cookie'] as unknown as string[])[0]).toMatch(/^pcs_dashboard_sign_in=/);
  });

  it('opens nothing but the second factor to a password alone, for five minutes at most', async () => {
    const person = await readyPerson(identity, { businessId, role: 'operator' });
    const form = await request(server()).get('/sign-in');
    const preCookie = (form.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const token = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
    const password = await request(server())
      .post('/sign-in')
      .set('cookie', preCookie)
      .type('form')
      .send({ _csrf: token, email: person.email, password: person.password, next: '/payments' });
    expect(password.headers.location).toBe('/sign-in/code?next=%2Fpayments');
    const cookie = (password.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('pcs_dashboard='))!.split(';')[0];
    for (const path of ['/payments', '/overview', '/team', '/account/password']) {
      const answer = await request(server()).get(path).set('cookie', cookie);
      expect([path, answer.status, answer.headers.location]).toEqual([path, 303, '/sign-in/code']);
    }
    const codePage = await request(server()).get('/sign-in/code').set('cookie', cookie);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(codePage.text)![1];
    const forged = await request(server())
      .post('/balance/payout')
      .set('cookie', cookie)
      .type('form')
      .send({ _csrf: csrf, merchantId: bed.tenant.merchants[0].merchantId, currency: 'UYU' });
    expect(forged.status).toBe(403);
    // Past five minutes the step is over: back to the password.
    await bed.dataSource.query(
      `UPDATE dashboard_session SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND stage = 'code'`,
      [person.userId],
    );
    const late = await request(server())
      .post('/sign-in/code')
      .set('cookie', cookie)
      .type('form')
      .send({ _csrf: csrf, code: await codeFor(person) });
    expect(late.status).toBe(403);
    expect((await request(server()).get('/sign-in/code').set('cookie', cookie)).headers.location).toMatch(/^\/sign-in\?next=/);
  });

  it('renews the session after the second factor: the cookie from before the code signs no one in (contract §27)', async () => {
    const person = await readyPerson(identity, { businessId, role: 'operator' });
    const form = await request(server()).get('/sign-in');
    const preCookie = (form.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const token = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
    const password = await request(server())
      .post('/sign-in')
      .set('cookie', preCookie)
      .type('form')
      .send({ _csrf: token, email: person.email, password: person.password, next: '/payments' });
    const before = (password.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('pcs_dashboard='))!.split(';')[0];
    const codePage = await request(server()).get('/sign-in/code').set('cookie', before);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(codePage.text)![1];
    const code = await request(server())
      .post('/sign-in/code')
      .set('cookie', before)
      .type('form')
      .send({ _csrf: csrf, code: await codeFor(person) });
    expect(code.status).toBe(303);
    const after = (code.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('pcs_dashboard='))!;
    expect(after).toMatch(/HttpOnly/i);
    expect(after.split(';')[0]).not.toBe(before);
    const stale = await request(server()).get('/payments').set('cookie', before);
    expect([stale.status, stale.headers.location]).toEqual([303, '/sign-in?next=%2Fpayments']);
    const renewed = await request(server()).get('/payments').set('cookie', after.split(';')[0]);
    expect(renewed.status).toBe(200);
    // The form token of the code page is not the signed-in session's.
    expect(renewed.text).not.toContain(csrf);
  });

  it('disables, enables and re-roles people from the team page; a disabled person’s cookie is a redirect; no admin resets another admin (contract §27)', async () => {
    const admin = await readyPerson(identity, { businessId, role: 'admin' });
    const otherAdmin = await readyPerson(identity, { businessId, role: 'admin' });
    const operator = await readyPerson(identity, { businessId, role: 'operator' });
    const operatorSession = await signInOverHttp(server(), operator);
    expect((await request(server()).get('/payments').set('cookie', operatorSession.cookie)).status).toBe(200);
    const { cookie, csrf } = await signInOverHttp(server(), admin);
    const post = (path: string, form: Record<string, string> = {}) =>
      request(server())
        .post(path)
        .set('cookie', cookie)
        .type('form')
        .send({ _csrf: csrf, ...form });

    const disabled = await post(`/team/${operator.userId}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.text).toContain(`${operator.email} quedó deshabilitado`);
    expect(disabled.text).toMatch(new RegExp(`action="/team/${operator.userId}/enable"`));
    // Their session ended at once: their old cookie is a redirect to sign-in, never an error; and they cannot sign in.
    const stale = await request(server()).get('/payments').set('cookie', operatorSession.cookie);
    expect([stale.status, stale.headers.location]).toEqual([303, '/sign-in?next=%2Fpayments']);
    await expect(signInOverHttp(server(), operator)).rejects.toThrow('sign-in answered 401');
    expect((await post(`/team/${operator.userId}/enable`)).text).toContain(`${operator.email} puede volver a ingresar`);
    expect(
      (
        await request(server())
          .get('/payments')
          .set('cookie', (await signInOverHttp(server(), operator)).cookie)
      ).status,
    ).toBe(200);

    const demoted = await post(`/team/${operator.userId}/role`, { role: 'viewer' });
    expect(demoted.text).toContain(`${operator.email} ahora es viewer`);
    expect((await post(`/team/${operator.userId}/role`, { role: 'owner' })).status).toBe(400);

    // Another admin's password or second factor: the operator's command only; offered to no one here, refused if posted.
    const page = await request(server()).get('/team').set('cookie', cookie);
    expect(page.text).not.toContain(`action="/team/${otherAdmin.userId}/reset-password"`);
    expect(page.text).toContain(`action="/team/${operator.userId}/reset-password"`);
    for (const path of ['reset-password', 'reset-mfa']) {
      const refused = await post(`/team/${otherAdmin.userId}/${path}`);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('los reinicia el operador');
    }
    const audit = await identity.auditLog(businessId, { limit: 50 });
    expect(
      audit
        .filter((e) => e.email === admin.email && e.target === otherAdmin.email && e.result === 'refused')
        .map((e) => e.action)
        .sort(),
    ).toEqual(['user:reset-mfa', 'user:reset-password']);
    expect(audit.filter((e) => e.email === admin.email && e.target === operator.email).map((e) => e.action)).toEqual(
      expect.arrayContaining(['user:disable', 'user:enable', 'user:set-role']),
    );
    // Themselves: not from the team page (their own account page), a 404.
    expect((await post(`/team/${admin.userId}/disable`)).status).toBe(404);
  }, 120_000);

  it('refuses a code used once already and takes a recovery code once, in a browser', async () => {
    const person = await readyPerson(identity, { businessId, role: 'viewer' });
    const page = await browserSignIn(person);
    const used = await codeFor(person);
    await page.fill('#code', used);
    await page.click('#verify');
    await page.waitForURL(`${base}/overview`);
    await page.context().close();
    const again = await browserSignIn(person);
    await again.fill('#code', used);
    await again.click('#verify');
    expect(await again.textContent('#problem')).toBe('Ese código ya se usó. Espere el siguiente.');
    const recovery = person.recoveryCodes.shift()!;
    await again.fill('#code', recovery);
    await again.click('#verify');
    await again.waitForURL(`${base}/overview`);
    await again.context().close();
    const third = await browserSignIn(person);
    await third.fill('#code', recovery);
    await third.click('#verify');
    expect(await third.textContent('#problem')).toBe('El código no es correcto.');
    await third.context().close();
    expect((await audited('mfa:code', person.email)).map((e) => e.detail?.reason)).toEqual(['wrong', 'reused']);
    expect(await audited('mfa:recovery-code', person.email)).toEqual([expect.objectContaining({ detail: { left: 9 } })]);
  }, 90_000);

  it('locks a person after ten wrong codes; an admin unlocks them and resets their second factor from the team page', async () => {
    const person = await readyPerson(identity, { businessId, role: 'viewer' });
    const page = await browserSignIn(person);
    for (let i = 0; i < LOCKOUT_FAILURES - 1; i++) {
      await page.fill('#code', '000000');
      await page.click('#verify');
      expect(await page.textContent('#problem')).toBe('El código no es correcto.');
    }
    await page.fill('#code', '000000');
    await page.click('#verify');
    expect(await page.textContent('#problem')).toContain('La cuenta está bloqueada');
    // Even the right password and code: locked.
    await page.fill('#email', person.email);
    await page.fill('#password', person.password);
    await page.click('button[type=submit]');
    expect(await page.textContent('#problem')).toContain('La cuenta está bloqueada');
    await page.context().close();
    expect(await audited('lock', person.email)).toHaveLength(1);

    const adminPage = await browserSignIn(admin, 'en-US');
    await adminPage.fill('#code', await codeFor(admin));
    await adminPage.click('#verify');
    await adminPage.goto(`${base}/team`);
    const row = adminPage.locator('#team tr', { hasText: person.email });
    expect(await row.locator('[data-locked]').count()).toBe(1);
    await screenshot(adminPage, 'dashboard-team-locked');
    // The API credentials and when each was last used (the dashboard's own, restricted, signs every page), never a secret.
    const lastUsed = adminPage.locator(`[data-last-used="${dashboardKey}"]`);
    expect(await lastUsed.textContent()).toMatch(/\d{4}.*UTC/);
    expect(await adminPage.content()).not.toContain(bed.tenant.business.apiSecret);
    await row.locator('button[data-action="unlock"]').click();
    expect(await adminPage.textContent('#notice')).toBe(`${person.email} may sign in again.`);
    await adminPage.locator('#team tr', { hasText: person.email }).locator('button[data-action="reset-mfa"]').click();
    expect(await adminPage.textContent('#notice')).toContain('will turn on two-step verification');
    await adminPage.context().close();
    expect((await audited('user:unlock', admin.email)).map((e) => e.target)).toEqual([person.email]);
    expect((await audited('user:reset-mfa', admin.email)).map((e) => e.target)).toEqual([person.email]);
    // Unlocked, and enrolling again.
    const back = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await back.goto(`${base}/sign-in`);
    await back.fill('#email', person.email);
    await back.fill('#password', person.password);
    await back.click('button[type=submit]');
    await back.waitForURL(/\/sign-in\/enrol/);
    await back.context().close();
  }, 120_000);

  it('lets a signed-in person change their own password with the current one, ending their other sessions', async () => {
    const person = await readyPerson(identity, { businessId, role: 'viewer' });
    const other = await signInOverHttp(server(), person);
    const page = await browserSignIn(person, 'en-US');
    await page.fill('#code', await codeFor(person));
    await page.click('#verify');
    await page.waitForURL(`${base}/overview`);
    await page.click('header a.who');
    await page.waitForURL(`${base}/account/password`);
    const chosen = 'Otra-clave-segura-77';
    await page.fill('#current', 'not my password 1');
    await page.fill('#new', chosen);
    await page.fill('#confirm', chosen);
    await page.click('#change');
    expect(await page.textContent('#problem')).toBe('The current password is not right.');
    await page.fill('#current', person.password);
    await page.fill('#new', chosen);
    await page.fill('#confirm', `${chosen}x`);
    await page.click('#change');
    expect(await page.textContent('#problem')).toBe('The two new passwords differ.');
    await page.fill('#current', person.password);
    await page.fill('#new', chosen);
    await page.fill('#confirm', chosen);
    await page.click('#change');
    await page.waitForURL(`${base}/account/password?done=changed`);
    expect(await page.textContent('#notice')).toContain('Password changed');
    // This session goes on; the other one ended.
    expect((await page.goto(`${base}/payments`))?.url()).toBe(`${base}/payments`);
    expect((await request(server()).get('/payments').set('cookie', other.cookie)).headers.location).toMatch(/^\/sign-in/);
    await page.context().close();
    expect((await audited('password:change', person.email)).map((e) => e.result)).toEqual(['succeeded', 'refused', 'succeeded']);
  }, 90_000);
});
