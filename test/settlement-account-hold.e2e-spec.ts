import { asMerchantId, Currency, MerchantId } from '@pcs/kernel';
import { BalancesService, PayoutsService, SettlementDailyService } from '@pcs/settlement';
import { createTenant, clientFor } from '@pcs/testing';
import { freePort } from './payins-app';
import { signSettlementConfirmation } from '@pcs/config';
import * as crypto from 'node:crypto';
import { authenticatorCode, Person, readyPerson, testIdentity, testMasterKey } from './dashboard-people';
import { Inbox } from './smtp-inbox';
import { Testbed, testbed } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const BROU = 'dc53087a-2434-475e-bdcb-ea34a941e862';
const SANTANDER_UY = 'f5bf0358-24c3-4b35-8921-8b83117db42a';

/**
 * A new bank account waits (contract §24): anyone holding a merchant's API key could otherwise redirect its payouts and ask for
 * one in the same minute. The first account is not held; any later one is, for SETTLEMENT_ACCOUNT_HOLD_HOURS, with an event and a
 * mail to the merchant's addresses and the business's admins, until an admin confirms it with a fresh code of their authenticator
 * on the dashboard, which sends the API its signed confirmation (contract §30: the API takes no person's code).
 */
describe('a new settlement account waits: hold, notice, and an admin’s confirmation', () => {
  let bed: Testbed;
  let inbox: Inbox;
  let merchantId: string;
  let businessId: string;
  let admin: Person;
  let operator: Person;

  beforeAll(async () => {
    inbox = new Inbox(await freePort());
    await inbox.start();
    bed = await testbed({ mail: { smtpUrl: `smtp://127.0.0.1:${inbox.port}`, directory: null } });
    merchantId = bed.tenant.merchants[0].merchantId;
    businessId = bed.tenant.business.businessId;
    const identity = testIdentity(bed.dataSource);
    admin = await readyPerson(identity, { businessId, role: 'admin' });
    operator = await readyPerson(identity, { businessId, role: 'operator' });
    // The merchant's notification addresses: one of them is also the admin's (told once).
    expect(
      (await bed.merchant.put(`/merchant/${merchantId}/configuration`, { notificationEmails: ['finanzas@example.uy', admin.email] }))
        .status,
    ).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await bed.close();
    await inbox.stop();
  });

  const money = (amount: number) =>
    bed.app.get(BalancesService).adjust(asMerchantId(merchantId), businessId, Currency.UYU, amount, 'test money');
  const events = async () =>
    ((await bed.merchant.get(`/event?merchantId=${merchantId}&type=settlement_account.updated&limit=100`)).body[0].results as Json[]).map(
      (e) => e.data.object,
    );
  const mailsTo = (count: number) => inbox.waitFor(count).then((all) => all.slice(-2));
  /**
   * As the dashboard's balance page confirms (contract §30): the admin's code checked by the dashboard's identity (counted towards
   * their lockout, audited), then its signed confirmation of the account as it is sent to the payins API, which takes no code.
   * Null when the identity refuses the person or the code (the page's 422).
   */
  const confirm = async (email: string, code: string) => {
    const confirmer = await testIdentity(bed.dataSource).confirmAsAdmin({
      businessId,
      merchantId,
      email,
      code,
      address: '198.51.100.24',
      action: 'settlement-account:confirm',
      target: `${merchantId}:UYU`,
    });
    if (!confirmer) return null;
    const [account] = (await bed.merchant.get(`/merchant/${merchantId}/settlement-account`)).body as Json[];
    const confirmation = signSettlementConfirmation(testMasterKey(), {
      businessId,
      merchantId,
      currency: 'UYU',
      bankId: account.bankId as string,
      accountNumber: account.accountNumber as string,
      confirmedBy: confirmer.email,
      at: Math.floor(Date.now() / 1000),
    });
    return bed.merchant.post(`/merchant/${merchantId}/settlement-account/UYU/confirm`, { confirmation });
  };

  it('does not hold the first account a merchant sets, and tells of it', async () => {
    const first = await bed.merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, {
      bankId: BROU,
      accountNumber: '00123456700001',
      accountType: 'SAVINGS',
    });
    expect(first.body).toMatchObject({ holdUntil: null, confirmedAt: null });
    expect(await events()).toMatchObject([{ currency: 'UYU', accountNumberEnding: '0001', holdUntil: null, previous: null }]);
    const mails = await mailsTo(2);
    expect(mails.map((m) => (m.to as { text: string }).text).sort()).toEqual([admin.email, 'finanzas@example.uy'].sort());
    expect(mails[0].text).toContain('Es la primera cuenta del comercio en esa moneda');
    // Setting the same account again changes nothing and tells no one.
    await bed.merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, {
      bankId: BROU,
      accountNumber: '00123456700001',
      accountType: 'SAVINGS',
    });
    expect(await events()).toHaveLength(1);
    await money(10_000);
    expect((await bed.merchant.post(`/merchant/${merchantId}/payout`, { currency: 'UYU' })).body).toMatchObject({ status: 'IN_TRANSIT' });
  });

  it('holds a changed account for 72 hours: a requested payout is 409 with holdUntil, nothing written; its owners are told', async () => {
    const before = Date.now();
    const changed = await bed.merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, {
      bankId: SANTANDER_UY,
      accountNumber: '5566778899',
      accountType: 'CHECKING',
    });
    const holdUntil = Date.parse(changed.body.holdUntil as string);
    expect(holdUntil - before).toBeGreaterThanOrEqual(72 * 3_600_000 - 1_000);
    expect(holdUntil - Date.now()).toBeLessThanOrEqual(72 * 3_600_000);
    const [event] = await events();
    expect(event).toMatchObject({
      bankId: SANTANDER_UY,
      accountNumberEnding: '8899',
      holdUntil: changed.body.holdUntil,
      previous: { bankId: BROU, accountNumberEnding: '0001' },
    });
    const mails = await mailsTo(4);
    expect(mails.map((m) => (m.to as { text: string }).text).sort()).toEqual([admin.email, 'finanzas@example.uy'].sort());
    expect(mails[0].subject).toContain('cuenta de liquidación cambiada');
    expect(mails[0].text).toContain('terminada en 8899');
    expect(mails[0].text).toContain('Antes era Banco de la República Oriental del Uruguay (BROU)');
    expect(mails[0].text).toContain('If nobody on your team made this change, do not confirm it');
    // Only the endings: neither number whole.
    for (const mail of mails) expect(`${mail.text}${mail.html as string}`).not.toMatch(/5566778899|00123456700001/);

    await money(5_000);
    const balance = async () =>
      (await bed.merchant.get(`/merchant/${merchantId}/balance`)).body.balances.find((b: Json) => b.currency === 'UYU');
    const held = await bed.merchant.post(`/merchant/${merchantId}/payout`, { currency: 'UYU' });
    expect(held.status).toBe(409);
    expect(held.body).toMatchObject({ errorId: 'Payins:SETTLEMENT_ACCOUNT_ON_HOLD', holdUntil: changed.body.holdUntil });
    expect(held.body.showMessage.ES).toContain('los retiros a ella esperan hasta');
    expect(await balance()).toMatchObject({ available: 50 });
  });

  it('makes a scheduled payout wait during the hold, and makes it on the first run after the confirmation', async () => {
    const daily = bed.app.get(SettlementDailyService);
    const run = (day: string) => daily.run('URY', day, { merchantIds: [merchantId as MerchantId] });
    await bed.merchant.put(`/merchant/${merchantId}/configuration`, { payoutSchedule: { interval: 'WEEKLY', weeklyAnchor: 'MONDAY' } });
    // Monday: due, but held.
    expect(await run('2026-11-30')).toMatchObject({ payouts: [], skipped: 1 });
    const [{ payout_waiting_since: waiting }] = await bed.dataSource.query(
      `SELECT to_char(payout_waiting_since, 'YYYY-MM-DD') AS payout_waiting_since FROM settlement_account WHERE merchant_id = $1`,
      [merchantId],
    );
    expect(waiting).toBe('2026-11-30');

    // Confirmations refused: an operator, a wrong code, someone unknown, another business's admin. Each is audited; none ends the hold.
    expect(await confirm(operator.email, await authenticatorCode(operator))).toBeNull();
    expect(await confirm(admin.email, '000000')).toBeNull();
    expect(await confirm('nobody@example.uy', '123456')).toBeNull();
    const other = await createTenant(bed.app);
    const stranger = await readyPerson(testIdentity(bed.dataSource), { businessId: other.business.businessId, role: 'admin' });
    expect(await confirm(stranger.email, await authenticatorCode(stranger))).toBeNull();
    // The API takes no person's code (contract §30): a credential's guesses are a 400 and count towards no one's lockout.
    const [{ failed_attempts: before }] = await bed.dataSource.query('SELECT failed_attempts FROM dashboard_user WHERE user_id = $1', [
      admin.userId,
    ]);
    for (let i = 0; i < 12; i++) {
      const guess = await bed.merchant.post(`/merchant/${merchantId}/settlement-account/UYU/confirm`, {
        email: admin.email,
        code: `00000${i % 10}`,
      });
      expect(guess.status).toBe(400);
    }
    const [{ failed_attempts: after }] = await bed.dataSource.query('SELECT failed_attempts FROM dashboard_user WHERE user_id = $1', [
      admin.userId,
    ]);
    expect(after).toBe(before);
    // A confirmation the dashboard did not make (another key), or of another account: refused.
    const claims = {
      businessId,
      merchantId,
      currency: 'UYU',
      bankId: BROU,
      accountNumber: '00123456700001',
      confirmedBy: admin.email,
      at: Math.floor(Date.now() / 1000),
    };
    for (const confirmation of [
      signSettlementConfirmation(crypto.randomBytes(32), claims),
      signSettlementConfirmation(testMasterKey(), claims),
    ]) {
      const forged = await bed.merchant.post(`/merchant/${merchantId}/settlement-account/UYU/confirm`, { confirmation });
      expect([forged.status, forged.body.errorId]).toEqual([401, 'Payins:SETTLEMENT_ACCOUNT_CONFIRMATION_REFUSED']);
    }
    // Another business cannot even see the account (404), whatever it sends.
    const outsider = clientFor(bed.app, other.merchants[0]);
    expect(
      (
        await outsider.post(`/merchant/${merchantId}/settlement-account/UYU/confirm`, {
          confirmation: signSettlementConfirmation(testMasterKey(), claims),
        })
      ).status,
    ).toBe(404);
    expect((await bed.merchant.get(`/merchant/${merchantId}/settlement-account`)).body[0].holdUntil).not.toBeNull();

    const code = await authenticatorCode(admin);
    const confirmed = (await confirm(admin.email, code))!;
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ holdUntil: null, bankId: SANTANDER_UY });
    expect(confirmed.body.confirmedAt).not.toBeNull();
    // A code is taken once.
    expect(await confirm(admin.email, code)).toBeNull();
    const audit = await bed.dataSource.query(
      `SELECT email, result, detail->>'reason' AS reason FROM dashboard_audit WHERE business_id = $1 AND action = 'settlement-account:confirm' ORDER BY audit_id`,
      [businessId],
    );
    expect(audit.map((a: Json) => [a.email, a.result, a.reason])).toEqual([
      [operator.email, 'refused', 'not-an-admin'],
      [admin.email, 'refused', 'wrong-code'],
      ['nobody@example.uy', 'refused', 'not-an-admin'],
      [stranger.email, 'refused', 'not-an-admin'],
      [admin.email, 'succeeded', null],
      [admin.email, 'refused', 'reused-code'],
    ]);

    // Tuesday is no anchor, but the payout the hold made wait is made now; then the schedule is back to Mondays.
    const tuesday = await run('2026-12-01');
    expect(tuesday.payouts).toHaveLength(1);
    expect((await bed.merchant.get(`/payout/${tuesday.payouts[0]}`)).body).toMatchObject({ amount: 50, status: 'IN_TRANSIT' });
    await money(1_000);
    expect((await run('2026-12-02')).payouts).toHaveLength(0);
    expect((await run('2026-12-07')).payouts).toHaveLength(1);
  });

  it('holds the account the specification’s merchant update changes (account.settlementBank) as well', async () => {
    const patched = await bed.merchant.patch(`/merchant/${merchantId}`, {
      account: { settlementBank: { bankId: BROU, accountNumber: '00999888700001', currency: 'UYU' } },
    });
    expect(patched.status).toBe(200);
    const [account] = (await bed.merchant.get(`/merchant/${merchantId}/settlement-account`)).body as Json[];
    expect(account).toMatchObject({ bankId: BROU, accountNumber: '00999888700001' });
    expect(Date.parse(account.holdUntil as string)).toBeGreaterThan(Date.now() + 71 * 3_600_000);
    await money(2_000);
    expect((await bed.merchant.post(`/merchant/${merchantId}/payout`, { currency: 'UYU' })).body.errorId).toBe(
      'Payins:SETTLEMENT_ACCOUNT_ON_HOLD',
    );
    expect((await events())[0]).toMatchObject({
      accountNumberEnding: '0001',
      previous: { bankId: SANTANDER_UY, accountNumberEnding: '8899' },
    });
  });

  it('stops payouts to an account a bank returned one from, until it is changed or an admin confirms it; tells its owners', async () => {
    const payouts = bed.app.get(PayoutsService);
    const accountNow = async () => ((await bed.merchant.get(`/merchant/${merchantId}/settlement-account`)).body as Json[])[0];
    // The account the previous test set, its 72 hours over: payouts go to it.
    const holdOver = () =>
      bed.dataSource.query(`UPDATE settlement_account SET hold_until = now() - interval '1 second' WHERE merchant_id = $1`, [merchantId]);
    await holdOver();
    await money(3_000);
    const paid = (await bed.merchant.post(`/merchant/${merchantId}/payout`, { currency: 'UYU' })).body as Json;
    expect(paid.status).toBe('IN_TRANSIT');
    await payouts.settle(paid.payoutId as string);
    const before = (await inbox.waitFor(0)).length;
    await payouts.markReturned(paid.payoutId as string, 'cuenta cerrada por el titular');
    expect(await accountNow()).toMatchObject({ accountNumber: '00999888700001', returnedPayoutId: paid.payoutId });

    // Its owners are told: the merchant's addresses and the business's admin, each once, the account by its ending only.
    let mails: Awaited<ReturnType<Inbox['waitFor']>> = [];
    for (let count = before + 1; mails.length < 2; count++)
      mails = (await inbox.waitFor(count)).filter((m) => m.subject?.includes('retiro devuelto'));
    expect(mails.map((m) => (m.to as { text: string }).text).sort()).toEqual([admin.email, 'finanzas@example.uy'].sort());
    expect(mails[0].subject).toContain('retiro devuelto por el banco');
    expect(mails[0].text).toContain('terminada en 0001');
    expect(mails[0].text).toContain('Motivo informado por el banco: cuenta cerrada por el titular.');
    expect(mails[0].text).toContain('no payout goes to it until you change it or an admin confirms it');
    for (const mail of mails) expect(`${mail.text}${mail.html as string}`).not.toContain('00999888700001');

    // A payout on request is refused with the payout that came back; the money stays available.
    await money(1_000);
    const refused = await bed.merchant.post(`/merchant/${merchantId}/payout`, { currency: 'UYU' });
    expect([refused.status, refused.body.errorId, refused.body.returnedPayoutId]).toEqual([
      409,
      'Payins:SETTLEMENT_ACCOUNT_RETURNED',
      paid.payoutId,
    ]);
    expect(refused.body.showMessage.ES).toContain('ningún retiro va a ella hasta que se cambie');
    expect((await bed.merchant.get(`/merchant/${merchantId}/balance`)).body.balances.find((b: Json) => b.currency === 'UYU')).toMatchObject(
      {
        available: 60,
      },
    );
    // Setting the same account again is no change: still stopped. A scheduled payout waits, noted.
    await bed.merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, {
      bankId: BROU,
      accountNumber: '00999888700001',
      accountType: 'CHECKING',
    });
    expect((await accountNow()).returnedPayoutId).toBe(paid.payoutId);
    const run = (day: string) => bed.app.get(SettlementDailyService).run('URY', day, { merchantIds: [merchantId as MerchantId] });
    expect(await run('2026-12-14')).toMatchObject({ payouts: [], skipped: 1 });

    // An admin's confirmation ends the stop; the payout that waited is made on the next run.
    const confirmed = (await confirm(admin.email, await authenticatorCode(admin)))!;
    expect(confirmed.body).toMatchObject({ returnedPayoutId: null, holdUntil: null });
    const next = await run('2026-12-15');
    expect(next.payouts).toHaveLength(1);
    expect((await bed.merchant.get(`/payout/${next.payouts[0]}`)).body).toMatchObject({ amount: 60, status: 'IN_TRANSIT' });

    // A payout returned from an account the merchant has changed since does not stop the new one.
    await payouts.settle(next.payouts[0]);
    const newer = { bankId: SANTANDER_UY, accountNumber: '5566778800', accountType: 'CHECKING' };
    await bed.merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, newer);
    await payouts.markReturned(next.payouts[0], 'cuenta inexistente');
    expect(await accountNow()).toMatchObject({ accountNumber: '5566778800', returnedPayoutId: null });

    // Changing an account a return stopped ends the stop; the new account is held, as any change is.
    await holdOver();
    const third = (await bed.merchant.post(`/merchant/${merchantId}/payout`, { currency: 'UYU' })).body as Json;
    await payouts.settle(third.payoutId as string);
    await payouts.markReturned(third.payoutId as string, 'cuenta embargada');
    expect((await accountNow()).returnedPayoutId).toBe(third.payoutId);
    await bed.merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, { ...newer, accountNumber: '5566778811' });
    const changed = await accountNow();
    expect(changed).toMatchObject({ accountNumber: '5566778811', returnedPayoutId: null });
    expect(Date.parse(changed.holdUntil as string)).toBeGreaterThan(Date.now() + 71 * 3_600_000);
    expect((await bed.merchant.post(`/merchant/${merchantId}/payout`, { currency: 'UYU' })).body.errorId).toBe(
      'Payins:SETTLEMENT_ACCOUNT_ON_HOLD',
    );
  }, 90_000);
});
