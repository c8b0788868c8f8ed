import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { DashboardIdentity, IdentityError, LOCKOUT_FAILURES, LOCKOUT_MINUTES, SIGN_IN_FAILURES_PER_ADDRESS } from './dashboard-identity';
import { auditKeyOf } from './audit-chain';
import { commonPasswordCount, passwordProblem } from './password-policy';
import { SecretSealer, TOTP_PERIOD_SECONDS, totpCodeOf } from './second-factor';
import { dashboardIdentityOn } from './persistence/dashboard-identity-on';

/** AES-256-GCM as the service's SecretBox does it, for the seeds (the identity takes any sealer). */
function testSealer(): SecretSealer {
  const key = crypto.randomBytes(32);
  return {
    seal(plaintext, associatedData) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(associatedData));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64')).join(':');
    },
    open(sealed, associatedData) {
      const [iv, tag, body] = sealed.split(':').map((part) => Buffer.from(part, 'base64'));
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(associatedData));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
  };
}

describe('the dashboard identity on PostgreSQL', () => {
  let dataSource: DataSource;
  let identity: DashboardIdentity;
  const businessId = crypto.randomUUID();
  const email = () => `person-${crypto.randomUUID().slice(0, 8)}@example.uy`;
  const address = () => `198.51.100.${crypto.randomInt(1, 255)}-${crypto.randomUUID().slice(0, 4)}`;
  const auditKeys = [auditKeyOf(Buffer.from(process.env.TEST_SECRETS_MASTER_KEY!, 'base64'))];

  beforeAll(async () => {
    dataSource = new DataSource({ type: 'postgres', url: process.env.TEST_DATABASE_URL, poolSize: 4 });
    await dataSource.initialize();
    identity = dashboardIdentityOn(dataSource, testSealer(), { auditKeys });
  });
  afterAll(() => dataSource.destroy());

  /** A person through their first sign-in: enrolled, with a password of their own; their seed and recovery codes. */
  const ready = async (role: 'viewer' | 'operator' | 'admin' = 'viewer') => {
    const created = await identity.createUser({ businessId, merchantId: null, email: email(), role });
    const first = await identity.signIn(created.email, created.password, address(), businessId);
    if (first.outcome !== 'next') throw new Error(first.outcome);
    const { secret } = (await identity.enrolment(first.token))!;
    const enrolled = await identity.confirmEnrolment(first.token, totpCodeOf(secret), address());
    if (enrolled.outcome !== 'enrolled') throw new Error(enrolled.outcome);
    const password = `Mi-clave-${crypto.randomBytes(6).toString('hex')}`;
    const changed = await identity.changePassword(enrolled.token, created.password, password, address());
    if (changed.outcome !== 'changed') throw new Error(JSON.stringify(changed));
    return { ...created, password, secret, recoveryCodes: enrolled.recoveryCodes, token: changed.token };
  };

  it('creates a person with a generated password stored only as a scrypt hash, and refuses a second with the same email', async () => {
    const created = await identity.createUser({ businessId, merchantId: null, email: email(), role: 'operator' });
    expect(created.password).toMatch(/^\w{20}$/);
    expect(passwordProblem(created.password, created.email)).toBeNull();
    const [row] = await dataSource.query('SELECT * FROM dashboard_user WHERE user_id = $1', [created.userId]);
    expect(JSON.stringify(row)).not.toContain(created.password);
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.must_change_password).toBe(true);
    await expect(identity.createUser({ businessId, merchantId: null, email: created.email.toUpperCase(), role: 'viewer' })).rejects.toThrow(
      IdentityError,
    );
    await expect(identity.createUser({ businessId, merchantId: null, email: 'not an email', role: 'viewer' })).rejects.toThrow('--email');
  });

  it('takes a first sign-in through enrolment and a new password; nothing is a signed-in session before both', async () => {
    const created = await identity.createUser({ businessId, merchantId: crypto.randomUUID(), email: email(), role: 'viewer' });
    expect(await identity.signIn(created.email, 'wrong', address(), businessId)).toEqual({ outcome: 'refused' });
    expect(await identity.signIn('nobody@example.uy', created.password, address(), businessId)).toEqual({ outcome: 'refused' });
    // Another business's dashboard knows no such person.
    expect(await identity.signIn(created.email, created.password, address(), crypto.randomUUID())).toEqual({ outcome: 'refused' });
    const first = await identity.signIn(created.email.toUpperCase(), created.password, address(), businessId);
    if (first.outcome !== 'next') throw new Error(first.outcome);
    expect(first.session.stage).toBe('enrol');
    expect((await identity.session(first.token))?.stage).toBe('enrol');
    // The same seed on every reload of the enrolment page; sealed at rest.
    const enrolment = (await identity.enrolment(first.token))!;
    expect((await identity.enrolment(first.token))!.secret).toBe(enrolment.secret);
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(enrolment.qrSvg).toMatch(/^<svg/);
    const [sealed] = await dataSource.query('SELECT mfa_secret FROM dashboard_user WHERE user_id = $1', [created.userId]);
    expect(sealed.mfa_secret).not.toContain(enrolment.secret);
    expect((await identity.confirmEnrolment(first.token, '000000', address())).outcome).toBe('refused');
    const enrolled = await identity.confirmEnrolment(first.token, totpCodeOf(enrolment.secret), address());
    if (enrolled.outcome !== 'enrolled') throw new Error(enrolled.outcome);
    expect(enrolled.recoveryCodes).toHaveLength(10);
    expect(enrolled.session.stage).toBe('change-password');
    // The step lasts five minutes, not an idle time.
    const [{ minutes }] = await dataSource.query(
      `SELECT round(EXTRACT(EPOCH FROM expires_at - now()) / 60) AS minutes FROM dashboard_session WHERE user_id = $1`,
      [created.userId],
    );
    expect(Number(minutes)).toBe(5);
    // The session goes on under a new token after the second factor (contract §27): the first one is worth nothing.
    expect(enrolled.token).not.toBe(first.token);
    expect(await identity.session(first.token)).toBeNull();
    expect(await identity.changePassword(first.token, created.password, 'Una-clave-propia-42', address())).toMatchObject({
      outcome: 'refused',
    });
    const changed = await identity.changePassword(enrolled.token, created.password, 'Una-clave-propia-42', address());
    if (changed.outcome !== 'changed') throw new Error(JSON.stringify(changed));
    expect(changed.session.stage).toBe('signed-in');
    expect(changed.session.csrfToken).not.toBe(enrolled.session.csrfToken);
    expect(await identity.session(enrolled.token)).toBeNull();
    expect(await identity.session(changed.token)).toMatchObject({ stage: 'signed-in', user: { userId: created.userId } });
    // Only the token's hash is stored.
    const sessions = JSON.stringify(await dataSource.query('SELECT * FROM dashboard_session WHERE user_id = $1', [created.userId]));
    for (const token of [first.token, enrolled.token, changed.token]) expect(sessions).not.toContain(token);
    await identity.signOut(changed.token);
    expect(await identity.session(changed.token)).toBeNull();
    expect(await identity.session('not-a-token')).toBeNull();
  });

  it('takes each time step’s code once, each recovery code once, and audits a reuse', async () => {
    const person = await ready();
    const now = Date.now();
    const codeNow = totpCodeOf(person.secret, now + TOTP_PERIOD_SECONDS * 1000);
    const again = async () => {
      const signedIn = await identity.signIn(person.email, person.password, address(), businessId);
      if (signedIn.outcome !== 'next') throw new Error(signedIn.outcome);
      expect(signedIn.session.stage).toBe('code');
      return signedIn.token;
    };
    const token = await again();
    const passed = await identity.verifyCode(token, codeNow, address());
    expect(passed).toMatchObject({ outcome: 'next', session: { stage: 'signed-in' } });
    // The token from before the code is no one's session any more; the renewed one is signed in.
    expect(await identity.session(token)).toBeNull();
    expect(await identity.session((passed as { token: string }).token)).toMatchObject({ stage: 'signed-in' });
    // The same code (or any code of a step not after it) once more: refused, and audited as a reuse.
    const second = await again();
    expect(await identity.verifyCode(second, codeNow, address())).toEqual({ outcome: 'refused', reason: 'reused' });
    expect(await identity.verifyCode(second, totpCodeOf(person.secret, now), address())).toEqual({ outcome: 'refused', reason: 'reused' });
    const log = await identity.auditLog(businessId, { limit: 50 });
    expect(log.filter((e) => e.email === person.email && e.action === 'mfa:code' && e.detail?.reason === 'reused')).toHaveLength(2);
    expect(log.find((e) => e.email === person.email && e.action === 'sign-in' && e.result === 'succeeded')?.address).toMatch(
      /^198\.51\.100\./,
    );
    // A recovery code, typed in lower case without dashes: once.
    const recovery = person.recoveryCodes[0];
    expect(await identity.verifyCode(second, recovery.toLowerCase().replace(/-/g, ''), address())).toMatchObject({ outcome: 'next' });
    const third = await again();
    expect(await identity.verifyCode(third, recovery, address())).toEqual({ outcome: 'refused', reason: 'wrong' });
  });

  it('locks an account after ten failures in a row, passwords and codes alike, even against the right password, until unlocked', async () => {
    const person = await ready();
    for (let i = 0; i < LOCKOUT_FAILURES - 1; i++)
      expect((await identity.signIn(person.email, 'wrong', address(), businessId)).outcome).toBe('refused');
    // The tenth failure is a wrong code.
    const signedIn = await identity.signIn(person.email, person.password, address(), businessId);
    if (signedIn.outcome !== 'next') throw new Error(signedIn.outcome);
    expect(await identity.verifyCode(signedIn.token, '123456', address())).toEqual({ outcome: 'locked', retryAfterSeconds: 1800 });
    expect(await identity.session(signedIn.token)).toBeNull();
    const locked = await identity.signIn(person.email, person.password, address(), businessId);
    expect(locked.outcome).toBe('locked');
    expect((locked as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(1790);
    expect((await identity.auditLog(businessId, { limit: 30 })).find((e) => e.email === person.email && e.action === 'lock')).toBeDefined();
    await identity.unlock(person.userId);
    expect((await identity.signIn(person.email, person.password, address(), businessId)).outcome).toBe('next');
    // A success of the whole sign-in clears the count: nine more failures do not lock.
    const whole = await identity.signIn(person.email, person.password, address(), businessId);
    if (whole.outcome !== 'next') throw new Error(whole.outcome);
    await identity.verifyCode(whole.token, person.recoveryCodes[1], address());
    for (let i = 0; i < LOCKOUT_FAILURES - 1; i++) await identity.signIn(person.email, 'wrong', address(), businessId);
    expect((await identity.signIn(person.email, person.password, address(), businessId)).outcome).toBe('next');
  }, 120_000);

  it('checks at most ten of 50 parallel wrong passwords, and at most ten of 50 parallel wrong codes (contract §27)', async () => {
    const person = await ready();
    // Each guess from an address of its own: the address throttle is not what stops them.
    const passwords = await Promise.all(
      Array.from({ length: 50 }, (_, i) => identity.signIn(person.email, `wrong-${i}`, address(), businessId)),
    );
    const checked = (await identity.auditLog(businessId, { limit: 200 })).filter(
      (e) => e.email === person.email && e.action === 'sign-in' && e.detail?.reason === 'wrong-password',
    );
    expect(checked.length).toBeLessThanOrEqual(LOCKOUT_FAILURES);
    expect(passwords.filter((r) => r.outcome === 'refused').length).toBeLessThanOrEqual(LOCKOUT_FAILURES);
    expect(passwords.filter((r) => r.outcome === 'locked').length).toBeGreaterThanOrEqual(50 - LOCKOUT_FAILURES);
    // Locked: the right password is refused too, without being checked.
    expect((await identity.signIn(person.email, person.password, address(), businessId)).outcome).toBe('locked');

    const other = await ready();
    const signedIn = await identity.signIn(other.email, other.password, address(), businessId);
    if (signedIn.outcome !== 'next') throw new Error(signedIn.outcome);
    // Fifty guesses of the code at once, none of them the current one.
    const current = totpCodeOf(other.secret);
    const guesses = Array.from({ length: 50 }, (_, i) => String((Number(current) + 1 + i * 7919) % 1_000_000).padStart(6, '0'));
    const codes = await Promise.all(guesses.map((guess) => identity.verifyCode(signedIn.token, guess, address())));
    const codesChecked = (await identity.auditLog(businessId, { limit: 200 })).filter(
      (e) => e.email === other.email && e.action === 'mfa:code' && (e.detail?.reason === 'wrong' || e.detail?.reason === 'reused'),
    );
    expect(codesChecked.length).toBeLessThanOrEqual(LOCKOUT_FAILURES);
    expect(codes.filter((r) => r.outcome === 'next')).toHaveLength(0);
    expect(await identity.session(signedIn.token)).toBeNull();
    const [{ failed_attempts: failures }] = await dataSource.query('SELECT failed_attempts FROM dashboard_user WHERE user_id = $1', [
      other.userId,
    ]);
    expect(failures).toBe(LOCKOUT_FAILURES);
  }, 120_000);

  /** A person locked as ten failures leave them (the failures themselves are the lockout test's; scrypt is slow by design). */
  const lock = (userId: string) =>
    dataSource.query(`UPDATE dashboard_user SET failed_attempts = $2, locked_until = now() + interval '30 minutes' WHERE user_id = $1`, [
      userId,
      LOCKOUT_FAILURES,
    ]);

  it('starts the count again at 0 when a lock expires: one more failure does not lock again', async () => {
    const person = await ready();
    await lock(person.userId);
    expect((await identity.signIn(person.email, person.password, address(), businessId)).outcome).toBe('locked');
    // The thirty minutes pass.
    await dataSource.query(`UPDATE dashboard_user SET locked_until = now() - interval '1 second' WHERE user_id = $1`, [person.userId]);
    expect((await identity.signIn(person.email, 'wrong', address(), businessId)).outcome).toBe('refused');
    const [row] = await dataSource.query('SELECT failed_attempts, locked_until FROM dashboard_user WHERE user_id = $1', [person.userId]);
    expect(row).toEqual({ failed_attempts: 1, locked_until: null });
    expect((await identity.signIn(person.email, person.password, address(), businessId)).outcome).toBe('next');
  });

  it('audits attempts refused without a check once per address and minute, not once each', async () => {
    const person = await ready();
    await lock(person.userId);
    const from = address();
    // As many as the address may fail (a locked answer counts against it, as any refusal does).
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS; i++)
      expect((await identity.signIn(person.email, person.password, from, businessId)).outcome).toBe('locked');
    const refusals = (await identity.auditLog(businessId, { limit: 300 })).filter(
      (e) => e.email === person.email && e.detail?.reason === 'locked',
    );
    expect(refusals).toHaveLength(1);
    // Another address: its own entry.
    expect((await identity.signIn(person.email, person.password, address(), businessId)).outcome).toBe('locked');
    expect(
      (await identity.auditLog(businessId, { limit: 300 })).filter((e) => e.email === person.email && e.detail?.reason === 'locked'),
    ).toHaveLength(2);
  }, 120_000);

  it('disables and enables a person and changes roles, never leaving a business without an enabled admin, even under a race (contract §27)', async () => {
    const business = crypto.randomUUID();
    const person = async (role: 'viewer' | 'operator' | 'admin') =>
      identity.createUser({ businessId: business, merchantId: null, email: email(), role });
    const [first, second, viewer] = [await person('admin'), await person('admin'), await person('viewer')];
    const signedIn = await identity.signIn(viewer.email, viewer.password, address(), business);
    if (signedIn.outcome !== 'next') throw new Error(signedIn.outcome);
    await identity.changeStanding(viewer.userId, { disabled: true });
    // Their session ends at once, and they cannot sign in.
    expect(await identity.session(signedIn.token)).toBeNull();
    expect(await identity.signIn(viewer.email, viewer.password, address(), business)).toEqual({ outcome: 'refused' });
    expect((await identity.usersOf(business)).find((p) => p.userId === viewer.userId)?.disabledAt).toEqual(expect.any(Date));
    await identity.changeStanding(viewer.userId, { disabled: false });
    expect((await identity.signIn(viewer.email, viewer.password, address(), business)).outcome).toBe('next');
    // Two admins disabling each other at once: one of them stays.
    const raced = await Promise.allSettled([
      identity.changeStanding(first.userId, { disabled: true }),
      identity.changeStanding(second.userId, { disabled: true }),
    ]);
    expect(raced.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(raced.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([
      expect.stringContaining('last enabled admin'),
    ]);
    const last = raced[0].status === 'fulfilled' ? second : first;
    // The last one can be neither disabled nor demoted; once another admin is made, they can.
    await expect(identity.changeStanding(last.userId, { disabled: true })).rejects.toThrow('last enabled admin');
    await expect(identity.changeStanding(last.userId, { role: 'operator' })).rejects.toThrow('last enabled admin');
    await identity.changeStanding(viewer.userId, { role: 'admin' });
    await identity.changeStanding(last.userId, { role: 'operator' });
    expect((await identity.usersOf(business)).filter((p) => p.role === 'admin' && !p.disabledAt).map((p) => p.userId)).toEqual([
      viewer.userId,
    ]);
  }, 120_000);

  it('holds passwords to the policy: 12+ characters, letters and digits, not common, not one of the last four; a change ends other sessions', async () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(10_000);
    expect(passwordProblem('short1', 'a@b.uy')).toBe('too-short');
    expect(passwordProblem('x'.repeat(129) + '1', 'a@b.uy')).toBe('too-long');
    expect(passwordProblem('onlyletterslong', 'a@b.uy')).toBe('needs-letter-and-digit');
    expect(passwordProblem('QWERTY123456', 'a@b.uy')).toBe('common');
    expect(passwordProblem('ana.perez2026', 'ana.perez2026@example.uy')).toBe('is-email');
    expect(passwordProblem('Ñandú-azul-2026', 'a@b.uy')).toBeNull();

    const person = await ready();
    const other = await identity.signIn(person.email, person.password, address(), businessId);
    if (other.outcome !== 'next') throw new Error(other.outcome);
    const chosen = ['Primera-clave-1', 'Segunda-clave-2', 'Tercera-clave-3'];
    let current = person.password;
    let token = person.token;
    for (const next of chosen) {
      const changed = await identity.changePassword(token, current, next, address());
      if (changed.outcome !== 'changed') throw new Error(JSON.stringify(changed));
      current = next;
      token = changed.token;
    }
    expect(await identity.session(other.token)).toBeNull();
    // The current one and the three before it are refused; the one before those is allowed again.
    for (const reused of [...chosen, person.password])
      expect(await identity.changePassword(token, current, reused, address())).toEqual({ outcome: 'refused', problem: 'reused' });
    expect(await identity.changePassword(token, 'not the current one', 'Cuarta-clave-4', address())).toEqual({
      outcome: 'refused',
      problem: 'wrong-current',
    });
    expect(await identity.changePassword(token, current, 'qwerty123456', address())).toEqual({
      outcome: 'refused',
      problem: 'common',
    });
    const fourth = await identity.changePassword(token, current, 'Cuarta-clave-4', address());
    if (fourth.outcome !== 'changed') throw new Error(JSON.stringify(fourth));
    expect(
      (await identity.changePassword(fourth.token, 'Cuarta-clave-4', person.password.replace('Mi-clave', 'Otra'), address())).outcome,
    ).toBe('changed');
  }, 120_000);

  it('resets a second factor (enrolment at the next sign-in) and a password (changed at the next sign-in), ending every session', async () => {
    const person = await ready('admin');
    await identity.resetSecondFactor(person.userId);
    expect(await identity.session(person.token)).toBeNull();
    const next = await identity.signIn(person.email, person.password, address(), businessId);
    expect(next).toMatchObject({ outcome: 'next', session: { stage: 'enrol' } });
    const [{ n }] = await dataSource.query('SELECT count(*)::int AS n FROM dashboard_recovery_code WHERE user_id = $1', [person.userId]);
    expect(n).toBe(0);
    const reset = await identity.resetPassword(person.email);
    expect(await identity.session((next as { token: string }).token)).toBeNull();
    expect((await identity.signIn(person.email, person.password, address(), businessId)).outcome).toBe('refused');
    expect((await identity.signIn(person.email, reset.password, address(), businessId)).outcome).toBe('next');
    await expect(identity.resetPassword('nobody@example.uy')).rejects.toThrow('no user has that email');
  });

  it('ends a signed-in session after its idle time, at most 15 minutes whatever is asked', async () => {
    const lax = dashboardIdentityOn(dataSource, testSealer(), { idleMinutes: 60, auditKeys });
    const created = await lax.createUser({ businessId, merchantId: null, email: email(), role: 'viewer' });
    const first = await lax.signIn(created.email, created.password, address(), businessId);
    if (first.outcome !== 'next') throw new Error(first.outcome);
    const { secret } = (await lax.enrolment(first.token))!;
    const enrolled = await lax.confirmEnrolment(first.token, totpCodeOf(secret), address());
    if (enrolled.outcome !== 'enrolled') throw new Error(enrolled.outcome);
    const changed = await lax.changePassword(enrolled.token, created.password, 'Idle-clave-2026', address());
    if (changed.outcome !== 'changed') throw new Error(changed.outcome);
    await lax.session(changed.token);
    const [{ minutes }] = await dataSource.query(
      `SELECT round(EXTRACT(EPOCH FROM expires_at - now()) / 60) AS minutes FROM dashboard_session WHERE user_id = $1`,
      [created.userId],
    );
    expect(Number(minutes)).toBe(15);
    await dataSource.query(`UPDATE dashboard_session SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [created.userId]);
    expect(await lax.session(changed.token)).toBeNull();
    await lax.purgeExpired();
    const [{ n }] = await dataSource.query('SELECT count(*)::int AS n FROM dashboard_session WHERE user_id = $1', [created.userId]);
    expect(n).toBe(0);
  });

  it('throttles sign-in per address, across accounts', async () => {
    const person = await ready();
    const from = address();
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS; i++)
      expect((await identity.signIn(email(), 'wrong', from, businessId)).outcome).toBe('refused');
    expect((await identity.signIn(person.email, person.password, from, businessId)).outcome).toBe('throttled');
    // Refused without a check, ten more times: audited once for the address and minute (contract §27).
    for (let i = 0; i < 10; i++) expect((await identity.signIn(email(), 'wrong', from, businessId)).outcome).toBe('throttled');
    const log = await identity.auditLog(businessId, { limit: 300 });
    expect(log.filter((e) => e.address === from && e.detail?.reason === 'address-throttled')).toHaveLength(1);
    expect((await identity.signIn(person.email, person.password, address(), businessId)).outcome).toBe('next');
  }, 120_000);

  it('tells nothing of which emails exist: an unknown email is counted and locked as a person is, and an address stops first (contract §30)', async () => {
    const person = await ready();
    const unknown = email();
    // The same wrong password, each attempt from an address of its own (the address throttle is the next check's).
    const outcomes = async (who: string) => {
      const seen: unknown[] = [];
      for (let i = 0; i < LOCKOUT_FAILURES + 2; i++) {
        const result = await identity.signIn(who, 'a-wrong-guess-1', address(), businessId);
        // The lock's time left, to the minute (the two runs are seconds apart).
        seen.push(result.outcome === 'locked' ? ['locked', Math.round(result.retryAfterSeconds / 60)] : [result.outcome]);
      }
      return seen;
    };
    const forUnknown = await outcomes(unknown);
    expect(forUnknown).toEqual(await outcomes(person.email));
    expect(forUnknown.slice(0, LOCKOUT_FAILURES)).toEqual(Array.from({ length: LOCKOUT_FAILURES }, () => ['refused']));
    expect(forUnknown.slice(LOCKOUT_FAILURES)).toEqual([
      ['locked', LOCKOUT_MINUTES],
      ['locked', LOCKOUT_MINUTES],
    ]);
    // Counted under a keyed hash: the email itself is not in the database.
    const rows: { email_key: string }[] = await dataSource.query('SELECT email_key FROM dashboard_unknown_sign_in');
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(unknown);
    // From one address no one can be locked: it stops below a person's lockout.
    expect(SIGN_IN_FAILURES_PER_ADDRESS).toBeLessThanOrEqual(8);
    expect(SIGN_IN_FAILURES_PER_ADDRESS).toBeLessThan(LOCKOUT_FAILURES);
  }, 120_000);

  it('keeps an audit log per business, newest first, a page at a time', async () => {
    const business = crypto.randomUUID();
    for (const [action, result] of [
      ['sign-in', 'succeeded'],
      ['refund', 'succeeded'],
      ['refund', 'refused'],
    ] as const) {
      await identity.audit({
        businessId: business,
        userId: null,
        email: 'ana@example.uy',
        action,
        target: 'pi_1',
        result,
        detail: { amount: '10.00' },
        address: '203.0.113.9',
      });
    }
    const firstPage = await identity.auditLog(business, { limit: 2 });
    expect(firstPage.map((entry) => [entry.action, entry.result])).toEqual([
      ['refund', 'refused'],
      ['refund', 'succeeded'],
    ]);
    expect(firstPage[0]).toMatchObject({ detail: { amount: '10.00' }, address: '203.0.113.9' });
    const secondPage = await identity.auditLog(business, { limit: 2, before: firstPage[1].auditId });
    expect(secondPage.map((entry) => entry.action)).toEqual(['sign-in']);
    expect(await identity.auditLog(crypto.randomUUID(), { limit: 10 })).toEqual([]);
    // Whatever a hostile request typed is recorded, without the NUL PostgreSQL cannot hold; a typed backslash stays as typed.
    await identity.audit({
      businessId: business,
      userId: null,
      email: 'x\u0000@example.uy',
      action: 'refund',
      target: 'a\u0000b',
      result: 'refused',
      detail: { typed: 'c\u0000d', literal: '\\u0000', list: ['\u0000'] },
    });
    const [hostile] = await identity.auditLog(business, { limit: 1 });
    expect(hostile).toMatchObject({ email: 'x@example.uy', target: 'ab', detail: { typed: 'cd', literal: '\\u0000', list: [''] } });
  });
});
