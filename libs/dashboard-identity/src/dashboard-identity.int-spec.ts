import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { DashboardIdentity, IdentityError, SIGN_IN_FAILURES_PER_ACCOUNT, SIGN_IN_FAILURES_PER_ADDRESS } from './dashboard-identity';

describe('the dashboard identity on PostgreSQL', () => {
  let dataSource: DataSource;
  let identity: DashboardIdentity;
  const businessId = crypto.randomUUID();
  const email = () => `person-${crypto.randomUUID().slice(0, 8)}@example.uy`;
  const address = () => `198.51.100.${crypto.randomInt(1, 255)}-${crypto.randomUUID().slice(0, 4)}`;

  beforeAll(async () => {
    dataSource = new DataSource({ type: 'postgres', url: process.env.TEST_DATABASE_URL, poolSize: 4 });
    await dataSource.initialize();
    identity = new DashboardIdentity(dataSource);
  });
  afterAll(() => dataSource.destroy());

  it('creates a person with a generated password stored only as a scrypt hash, and refuses a second with the same email', async () => {
    const created = await identity.createUser({ businessId, merchantId: null, email: email(), role: 'operator' });
    expect(created.password).toMatch(/^\w{20}$/);
    const [row] = await dataSource.query('SELECT * FROM dashboard_user WHERE user_id = $1', [created.userId]);
    expect(JSON.stringify(row)).not.toContain(created.password);
    expect(row.password_hash).toMatch(/^scrypt\$/);
    await expect(identity.createUser({ businessId, merchantId: null, email: created.email.toUpperCase(), role: 'viewer' })).rejects.toThrow(
      IdentityError,
    );
    await expect(identity.createUser({ businessId, merchantId: null, email: 'not an email', role: 'viewer' })).rejects.toThrow('--email');
  });

  it('signs in with the right password only; the session knows its person and CSRF token, and ends at sign-out', async () => {
    const created = await identity.createUser({ businessId, merchantId: crypto.randomUUID(), email: email(), role: 'viewer' });
    expect(await identity.signIn(created.email, 'wrong', address())).toEqual({ outcome: 'refused' });
    expect(await identity.signIn('nobody@example.uy', created.password, address())).toEqual({ outcome: 'refused' });
    const signedIn = await identity.signIn(created.email.toUpperCase(), created.password, address());
    if (signedIn.outcome !== 'signed-in') throw new Error(signedIn.outcome);
    const session = await identity.session(signedIn.token);
    expect(session).toEqual({
      user: expect.objectContaining({ userId: created.userId, role: 'viewer', merchantId: created.merchantId }),
      csrfToken: signedIn.session.csrfToken,
    });
    // Only the token's hash is stored.
    expect(JSON.stringify(await dataSource.query('SELECT * FROM dashboard_session WHERE user_id = $1', [created.userId]))).not.toContain(
      signedIn.token,
    );
    await identity.signOut(signedIn.token);
    expect(await identity.session(signedIn.token)).toBeNull();
    expect(await identity.session('not-a-token')).toBeNull();
  });

  it('ends a session after its idle time, and every session of a person whose password is reset', async () => {
    const created = await identity.createUser({ businessId, merchantId: null, email: email(), role: 'admin' });
    const first = await identity.signIn(created.email, created.password, address());
    const second = await identity.signIn(created.email, created.password, address());
    if (first.outcome !== 'signed-in' || second.outcome !== 'signed-in') throw new Error('not signed in');
    await dataSource.query(`UPDATE dashboard_session SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND csrf_token = $2`, [
      created.userId,
      first.session.csrfToken,
    ]);
    expect(await identity.session(first.token)).toBeNull();
    expect(await identity.session(second.token)).not.toBeNull();
    // Ended sessions are purged; live ones stay.
    await identity.purgeExpired();
    const [{ n }] = await dataSource.query('SELECT count(*)::int AS n FROM dashboard_session WHERE user_id = $1', [created.userId]);
    expect(n).toBe(1);
    const reset = await identity.resetPassword(created.email);
    expect(reset.password).not.toBe(created.password);
    expect(await identity.session(second.token)).toBeNull();
    expect((await identity.signIn(created.email, created.password, address())).outcome).toBe('refused');
    expect((await identity.signIn(created.email, reset.password, address())).outcome).toBe('signed-in');
    await expect(identity.resetPassword('nobody@example.uy')).rejects.toThrow('no user has that email');
  });

  it('throttles sign-in per account — even the right password then waits — and per address, across accounts', async () => {
    const created = await identity.createUser({ businessId, merchantId: null, email: email(), role: 'viewer' });
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT; i++)
      expect((await identity.signIn(created.email, 'wrong', address())).outcome).toBe('refused');
    const throttled = await identity.signIn(created.email, created.password, address());
    expect(throttled).toEqual({ outcome: 'throttled', retryAfterSeconds: expect.any(Number) });
    expect((throttled as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(800);

    const from = address();
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS; i++) expect((await identity.signIn(email(), 'wrong', from)).outcome).toBe('refused');
    const other = await identity.createUser({ businessId, merchantId: null, email: email(), role: 'viewer' });
    expect((await identity.signIn(other.email, other.password, from)).outcome).toBe('throttled');
    expect((await identity.signIn(other.email, other.password, address())).outcome).toBe('signed-in');
  });

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
      });
    }
    const firstPage = await identity.auditLog(business, { limit: 2 });
    expect(firstPage.map((entry) => [entry.action, entry.result])).toEqual([
      ['refund', 'refused'],
      ['refund', 'succeeded'],
    ]);
    expect(firstPage[0].detail).toEqual({ amount: '10.00' });
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
