import * as crypto from 'node:crypto';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';
import { generatePassword, hashPassword, verifyPassword } from './password';
import { ChainHead, ChainVerdict } from './audit-chain';
import { AuditEntry, AuditLog, AuditRecord } from './audit-log';
import { PASSWORD_HISTORY, PasswordProblem, passwordProblem } from './password-policy';
import { enrolmentOf, newRecoveryCodes, newTotpSecret, recoveryCodeHash, SecretSealer, totpStepOf } from './second-factor';
import { Role } from './roles';

/** A person who signs in to the dashboard, within one business (and, when scoped, one merchant of it). */
export interface DashboardUser {
  readonly userId: string;
  readonly businessId: string;
  /** Set for a merchant-scoped user: that merchant only. */
  readonly merchantId: string | null;
  readonly email: string;
  readonly role: Role;
}

/** Where a session is in the sign-in: the second factor, its enrolment, a new password, or done. */
export type SessionStage = 'code' | 'enrol' | 'change-password' | 'signed-in';

/** A person's session, as each request sees it. */
export interface DashboardSession {
  readonly user: DashboardUser;
  /** The token every form of this session carries (synchronizer token: compared with the session's, not with a cookie). */
  readonly csrfToken: string;
  readonly stage: SessionStage;
}

export type SignInResult =
  | { readonly outcome: 'next'; readonly token: string; readonly session: DashboardSession }
  | { readonly outcome: 'refused' }
  | { readonly outcome: 'throttled'; readonly retryAfterSeconds: number }
  | { readonly outcome: 'locked'; readonly retryAfterSeconds: number };

export type CodeResult =
  | { readonly outcome: 'next'; readonly session: DashboardSession }
  | { readonly outcome: 'refused'; readonly reason: 'wrong' | 'reused' }
  | { readonly outcome: 'locked'; readonly retryAfterSeconds: number };

export type PasswordChangeResult =
  | { readonly outcome: 'changed'; readonly session: DashboardSession }
  | { readonly outcome: 'refused'; readonly problem: PasswordProblem | 'wrong-current' }
  | { readonly outcome: 'locked'; readonly retryAfterSeconds: number };

/** A person of the team page: when they are locked out, and whether their second factor is enrolled. */
export interface TeamMember extends DashboardUser {
  readonly createdAt: Date;
  readonly lockedUntil: Date | null;
  readonly mfaEnrolled: boolean;
}

/** PCI DSS 8.2.8: a session ends after at most 15 idle minutes (DASHBOARD_IDLE_MINUTES may say less) … */
export const SESSION_IDLE_MINUTES_MAX = 15;
/** … and in any case this long after signing in. */
export const SESSION_MAX_HOURS = 12;
/** The step between the password and the second factor (and the password change after it) lasts at most this long. */
export const SIGN_IN_STEP_MINUTES = 5;
/** PCI DSS 8.3.4: this many consecutive failures (passwords or codes) lock the account … */
export const LOCKOUT_FAILURES = 10;
/** … for this long, whatever the address, unless an admin or the operator unlocks it. */
export const LOCKOUT_MINUTES = 30;
/** Sign-in failures allowed per client address in the window below, across accounts, before sign-in from it waits. */
export const SIGN_IN_FAILURES_PER_ADDRESS = 20;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{1,63}$/;
const USER_COLUMNS = 'u.user_id, u.business_id, u.merchant_id, u.email, u.role';

// Verified against when the email is unknown: a miss takes as long as a wrong password.
let decoyHash: Promise<string> | null = null;

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

export class IdentityError extends Error {}

/**
 * The dashboard's people, sessions and audit log (contracts §18 and §22), in
 * its own tables. Passwords: scrypt (password.ts), the policy of
 * password-policy.ts, none of the last four. A second factor for everyone:
 * TOTP (second-factor.ts) with a seed sealed under the master key, each time
 * step accepted once, and ten single-use recovery codes. Sessions: a random
 * token in an HttpOnly cookie, only its SHA-256 stored; a session climbs the
 * sign-in's stages (code or enrolment, then a new password when one is due)
 * within five minutes, then lives until its idle time or 12 hours. Ten
 * consecutive failures lock the account for 30 minutes; failures per client
 * address are throttled with rate-limiter-flexible (its PostgreSQL store:
 * shared by every dashboard process). What happens to a person is audited
 * here, with the client's address.
 */
export class DashboardIdentity {
  private readonly failuresByAddress: RateLimiterPostgres;
  private readonly idleMinutes: number;

  private readonly log: AuditLog;

  /**
   * `secrets` seals the second factors' seeds; `auditKeys` (from the master
   * key, see auditKeyOf) chain the audit log, the first one writing and all
   * of them verifying (a rotated master key's entries stay verifiable).
   */
  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: SecretSealer | null = null,
    options: { idleMinutes?: number; auditKeys?: readonly Buffer[] } = {},
  ) {
    this.log = new AuditLog(dataSource, options.auditKeys ?? []);
    this.failuresByAddress = new RateLimiterPostgres({
      storeClient: dataSource,
      storeType: 'typeorm',
      tableName: 'dashboard_sign_in_limit',
      tableCreated: true,
      keyPrefix: 'address',
      points: SIGN_IN_FAILURES_PER_ADDRESS,
      duration: SIGN_IN_WINDOW_SECONDS,
      clearExpiredByTimeout: false,
    });
    this.idleMinutes = Math.min(Math.max(1, Math.floor(options.idleMinutes ?? SESSION_IDLE_MINUTES_MAX)), SESSION_IDLE_MINUTES_MAX);
  }

  /** `user:create`: a person with a generated password, shown once and changed at the first sign-in. */
  async createUser(input: {
    businessId: string;
    merchantId: string | null;
    email: string;
    role: Role;
  }): Promise<DashboardUser & { password: string }> {
    const email = input.email.trim();
    if (!EMAIL.test(email)) throw new IdentityError('--email must be an email address');
    const password = generatePassword();
    const hash = await hashPassword(password);
    const userId = crypto.randomUUID();
    const inserted = await this.dataSource.query(
      `WITH created AS (
         INSERT INTO dashboard_user (user_id, business_id, merchant_id, email, role, password_hash, must_change_password)
         VALUES ($1, $2, $3, $4, $5, $6, true) ON CONFLICT DO NOTHING RETURNING user_id, password_hash)
       INSERT INTO dashboard_password_history (user_id, password_hash) SELECT user_id, password_hash FROM created RETURNING user_id`,
      [userId, input.businessId, input.merchantId, email, input.role, hash],
    );
    if (inserted.length === 0) throw new IdentityError('a user with that email already exists');
    return { userId, businessId: input.businessId, merchantId: input.merchantId, email, role: input.role, password };
  }

  /** `user:reset-password`: a new generated password, changed at the next sign-in; every session of the person ends. */
  async resetPassword(email: string): Promise<DashboardUser & { password: string }> {
    const password = generatePassword();
    const hash = await hashPassword(password);
    return this.dataSource.transaction(async (manager) => {
      const rows = await manager.query(
        `UPDATE dashboard_user SET password_hash = $2, password_changed_at = now(), must_change_password = true
          WHERE lower(email) = lower($1) RETURNING user_id, business_id, merchant_id, email, role`,
        [email.trim(), hash],
      );
      const updated = (rows as [Record<string, string>[], number])[0] ?? [];
      if (updated.length === 0) throw new IdentityError('no user has that email');
      const user = toUser(updated[0]);
      await manager.query('INSERT INTO dashboard_password_history (user_id, password_hash) VALUES ($1, $2)', [user.userId, hash]);
      await manager.query('DELETE FROM dashboard_session WHERE user_id = $1', [user.userId]);
      return { ...user, password };
    });
  }

  /** The people of a business, by email (the team page), with their lock and second factor. */
  async usersOf(businessId: string): Promise<TeamMember[]> {
    const rows = await this.dataSource.query(
      `SELECT ${USER_COLUMNS}, u.created_at, CASE WHEN u.locked_until > now() THEN u.locked_until END AS locked_until,
              u.mfa_enrolled_at IS NOT NULL AS mfa_enrolled
         FROM dashboard_user u WHERE u.business_id = $1 AND u.disabled_at IS NULL ORDER BY lower(u.email) LIMIT 500`,
      [businessId],
    );
    return rows.map((row: Record<string, string> & { created_at: Date; locked_until: Date | null; mfa_enrolled: boolean }) => ({
      ...toUser(row),
      createdAt: row.created_at,
      lockedUntil: row.locked_until,
      mfaEnrolled: row.mfa_enrolled,
    }));
  }

  /** One of a business's people (the team page's actions), or null. */
  async memberOf(businessId: string, userId: string): Promise<DashboardUser | null> {
    if (!/^[0-9a-f-]{36}$/i.test(userId)) return null;
    const rows = await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM dashboard_user u WHERE u.user_id = $1 AND u.business_id = $2 AND u.disabled_at IS NULL`,
      [userId, businessId],
    );
    return rows.length ? toUser(rows[0]) : null;
  }

  /** `resetPassword` of one of a business's people (the team page); null when the person is not of that business. */
  async resetPasswordOf(businessId: string, userId: string): Promise<(DashboardUser & { password: string }) | null> {
    const member = await this.memberOf(businessId, userId);
    return member ? this.resetPassword(member.email) : null;
  }

  async userByEmail(email: string): Promise<DashboardUser | null> {
    if (email.includes('\u0000')) return null;
    const rows = await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM dashboard_user u WHERE lower(u.email) = lower($1) AND u.disabled_at IS NULL`,
      [email.trim()],
    );
    return rows.length ? toUser(rows[0]) : null;
  }

  /** `user:unlock` and the team page: the person may sign in again at once. */
  async unlock(userId: string): Promise<void> {
    await this.dataSource.query('UPDATE dashboard_user SET failed_attempts = 0, locked_until = NULL WHERE user_id = $1', [userId]);
  }

  /** `user:reset-mfa` and the team page: the person enrols a second factor again at the next sign-in; their sessions end. */
  async resetSecondFactor(userId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('UPDATE dashboard_user SET mfa_secret = NULL, mfa_enrolled_at = NULL, mfa_last_step = NULL WHERE user_id = $1', [
        userId,
      ]);
      await manager.query('DELETE FROM dashboard_recovery_code WHERE user_id = $1', [userId]);
      await manager.query('DELETE FROM dashboard_session WHERE user_id = $1', [userId]);
    });
  }

  /**
   * The password step of a sign-in. A wrong email and a wrong password are
   * the same refusal (and take as long); a locked account is refused
   * whatever the password; past the failures allowed from an address,
   * nothing is checked until the window ends. The right password opens a
   * five-minute session at the second factor (its enrolment when there is
   * none yet). Only the people of `businessId` (the dashboard's) sign in.
   */
  async signIn(email: string, password: string, address: string, businessId: string): Promise<SignInResult> {
    // PostgreSQL text holds no NUL: such an email is no one's (and must not fail the query).
    email = email.split('\u0000').join('').trim().slice(0, 254);
    const addressWait = await blockedSeconds(this.failuresByAddress, address, SIGN_IN_FAILURES_PER_ADDRESS);
    const rows = await this.dataSource.query(
      `SELECT ${USER_COLUMNS}, u.password_hash, u.mfa_enrolled_at IS NOT NULL AS enrolled,
              CEIL(EXTRACT(EPOCH FROM u.locked_until - now()))::int AS locked_seconds
         FROM dashboard_user u WHERE lower(u.email) = lower($1) AND u.business_id = $2 AND u.disabled_at IS NULL`,
      [email, businessId],
    );
    const row = rows[0] as (Record<string, string> & { enrolled: boolean; locked_seconds: number | null }) | undefined;
    const user = row ? toUser(row) : null;
    const audit = (result: AuditEntry['result'], detail: Record<string, unknown>) =>
      this.audit({ businessId, userId: user?.userId ?? null, email, action: 'sign-in', result, detail, address });
    if (addressWait > 0) {
      await audit('refused', { reason: 'address-throttled' });
      return { outcome: 'throttled', retryAfterSeconds: addressWait };
    }
    if (row && row.locked_seconds !== null && row.locked_seconds > 0) {
      await audit('refused', { reason: 'locked' });
      return { outcome: 'locked', retryAfterSeconds: row.locked_seconds };
    }
    decoyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
    const matches = await verifyPassword(row?.password_hash ?? (await decoyHash), password.slice(0, 1024));
    if (!row || !user || !matches) {
      await consume(this.failuresByAddress, address);
      await audit('refused', { reason: row ? 'wrong-password' : 'unknown-email' });
      if (user) await this.failed(user, address);
      return { outcome: 'refused' };
    }
    const stage: SessionStage = row.enrolled ? 'code' : 'enrol';
    const token = crypto.randomBytes(32).toString('base64url');
    const csrfToken = crypto.randomBytes(32).toString('base64url');
    await this.dataSource.query(
      `INSERT INTO dashboard_session (token_hash, user_id, csrf_token, expires_at, stage)
       VALUES ($1, $2, $3, now() + make_interval(mins => $4), $5)`,
      [sha256(token), user.userId, csrfToken, SIGN_IN_STEP_MINUTES, stage],
    );
    await this.audit({ ...actor(user), action: 'sign-in:password', result: 'succeeded', detail: { next: stage }, address });
    return { outcome: 'next', token, session: { user, csrfToken, stage } };
  }

  /** The session behind a cookie's token, kept alive by the request when signed in; null when unknown, ended or expired. */
  async session(token: string): Promise<DashboardSession | null> {
    if (!/^[\w-]{43}$/.test(token)) return null;
    const rows = await this.dataSource.query(
      `UPDATE dashboard_session s
          SET last_seen_at = now(),
              expires_at = CASE WHEN s.stage = 'signed-in'
                                THEN least(s.created_at + make_interval(hours => $2), now() + make_interval(mins => $3))
                                ELSE s.expires_at END
         FROM dashboard_user u
        WHERE s.token_hash = $1 AND s.expires_at > now() AND u.user_id = s.user_id AND u.disabled_at IS NULL
          AND (u.locked_until IS NULL OR u.locked_until <= now())
       RETURNING ${USER_COLUMNS}, s.csrf_token, s.stage`,
      [sha256(token), SESSION_MAX_HOURS, this.idleMinutes],
    );
    const updated = (rows as [(Record<string, string> & { stage: SessionStage })[], number])[0] ?? [];
    return updated.length ? { user: toUser(updated[0]), csrfToken: updated[0].csrf_token, stage: updated[0].stage } : null;
  }

  /**
   * The second factor of a sign-in: a code of the person's authenticator
   * (each time step once: a code seen before is refused and audited) or one
   * of their recovery codes (each once). A wrong one counts towards the
   * lockout; the right one clears the count and moves the session on.
   */
  async verifyCode(token: string, code: string, address: string): Promise<CodeResult> {
    const session = await this.session(token);
    if (!session || session.stage !== 'code') return { outcome: 'refused', reason: 'wrong' };
    const user = session.user;
    const [row] = await this.dataSource.query('SELECT mfa_secret FROM dashboard_user WHERE user_id = $1', [user.userId]);
    const typed = code.replace(/\s/g, '').slice(0, 64);
    const step = row?.mfa_secret ? totpStepOf(this.open(row.mfa_secret, user.userId), user.email, typed) : null;
    let used: 'totp' | 'recovery' | null = null;
    if (step !== null) {
      const taken = await this.dataSource.query(
        `UPDATE dashboard_user SET mfa_last_step = $2 WHERE user_id = $1 AND (mfa_last_step IS NULL OR mfa_last_step < $2) RETURNING user_id`,
        [user.userId, step],
      );
      if ((taken as [unknown[], number])[0].length === 0) {
        await this.audit({ ...actor(user), action: 'mfa:code', result: 'refused', detail: { reason: 'reused' }, address });
        const locked = await this.failed(user, address);
        return locked ? { outcome: 'locked', retryAfterSeconds: LOCKOUT_MINUTES * 60 } : { outcome: 'refused', reason: 'reused' };
      }
      used = 'totp';
    } else {
      const hash = recoveryCodeHash(typed);
      const spent = hash
        ? await this.dataSource.query(
            'UPDATE dashboard_recovery_code SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id',
            [user.userId, hash],
          )
        : [[], 0];
      if ((spent as [unknown[], number])[0].length === 1) used = 'recovery';
    }
    if (!used) {
      await this.audit({ ...actor(user), action: 'mfa:code', result: 'refused', detail: { reason: 'wrong' }, address });
      const locked = await this.failed(user, address);
      return locked ? { outcome: 'locked', retryAfterSeconds: LOCKOUT_MINUTES * 60 } : { outcome: 'refused', reason: 'wrong' };
    }
    if (used === 'recovery') {
      const [{ left }] = await this.dataSource.query(
        'SELECT count(*)::int AS left FROM dashboard_recovery_code WHERE user_id = $1 AND used_at IS NULL',
        [user.userId],
      );
      await this.audit({ ...actor(user), action: 'mfa:recovery-code', result: 'succeeded', detail: { left }, address });
    }
    return { outcome: 'next', session: await this.advance(token, user, address) };
  }

  /**
   * The enrolment of a second factor at the first sign-in: a seed kept
   * (sealed) until its first code confirms it; the same seed on every
   * reload of the page, so that a code scanned once keeps working.
   */
  async enrolment(token: string): Promise<{ secret: string; uri: string; qrSvg: string } | null> {
    const session = await this.session(token);
    if (!session || session.stage !== 'enrol') return null;
    const { userId, email } = session.user;
    const [row] = await this.dataSource.query('SELECT mfa_secret FROM dashboard_user WHERE user_id = $1 AND mfa_enrolled_at IS NULL', [
      userId,
    ]);
    if (!row) return null;
    let secret = row.mfa_secret ? this.open(row.mfa_secret, userId) : null;
    if (!secret) {
      secret = newTotpSecret();
      await this.dataSource.query('UPDATE dashboard_user SET mfa_secret = $2 WHERE user_id = $1 AND mfa_enrolled_at IS NULL', [
        userId,
        this.seal(secret, userId),
      ]);
    }
    return { secret, ...(await enrolmentOf(secret, email)) };
  }

  /** Confirms the enrolment with a first code; answers the ten recovery codes, shown once and stored only as hashes. */
  async confirmEnrolment(
    token: string,
    code: string,
    address: string,
  ): Promise<{ outcome: 'enrolled'; session: DashboardSession; recoveryCodes: string[] } | Exclude<CodeResult, { outcome: 'next' }>> {
    const session = await this.session(token);
    if (!session || session.stage !== 'enrol') return { outcome: 'refused', reason: 'wrong' };
    const user = session.user;
    const [row] = await this.dataSource.query('SELECT mfa_secret FROM dashboard_user WHERE user_id = $1 AND mfa_enrolled_at IS NULL', [
      user.userId,
    ]);
    const step = row?.mfa_secret
      ? totpStepOf(this.open(row.mfa_secret, user.userId), user.email, code.replace(/\s/g, '').slice(0, 16))
      : null;
    if (step === null) {
      await this.audit({ ...actor(user), action: 'mfa:enrol', result: 'refused', detail: { reason: 'wrong' }, address });
      const locked = await this.failed(user, address);
      return locked ? { outcome: 'locked', retryAfterSeconds: LOCKOUT_MINUTES * 60 } : { outcome: 'refused', reason: 'wrong' };
    }
    const recoveryCodes = newRecoveryCodes();
    await this.dataSource.transaction(async (manager) => {
      await manager.query('UPDATE dashboard_user SET mfa_enrolled_at = now(), mfa_last_step = $2 WHERE user_id = $1', [user.userId, step]);
      await manager.query('DELETE FROM dashboard_recovery_code WHERE user_id = $1', [user.userId]);
      await manager.query('INSERT INTO dashboard_recovery_code (user_id, code_hash) SELECT $1, unnest($2::char(64)[])', [
        user.userId,
        recoveryCodes.map((c) => recoveryCodeHash(c)),
      ]);
    });
    await this.audit({ ...actor(user), action: 'mfa:enrol', result: 'succeeded', address });
    return { outcome: 'enrolled', session: await this.advance(token, user, address), recoveryCodes };
  }

  /**
   * A person's own new password, with the current one: the policy, none of
   * the last four (the current one included), and every other session of the
   * person ends. A wrong current password counts towards the lockout.
   */
  async changePassword(token: string, current: string, next: string, address: string): Promise<PasswordChangeResult> {
    const session = await this.session(token);
    if (!session || (session.stage !== 'change-password' && session.stage !== 'signed-in'))
      return { outcome: 'refused', problem: 'wrong-current' };
    const user = session.user;
    const refuse = async (problem: PasswordProblem | 'wrong-current'): Promise<PasswordChangeResult> => {
      await this.audit({ ...actor(user), action: 'password:change', result: 'refused', detail: { reason: problem }, address });
      return { outcome: 'refused', problem };
    };
    const [row] = await this.dataSource.query('SELECT password_hash FROM dashboard_user WHERE user_id = $1', [user.userId]);
    if (!row || !(await verifyPassword(row.password_hash, current.slice(0, 1024)))) {
      const outcome = await refuse('wrong-current');
      if (await this.failed(user, address)) return { outcome: 'locked', retryAfterSeconds: LOCKOUT_MINUTES * 60 };
      return outcome;
    }
    const problem = passwordProblem(next, user.email);
    if (problem) return refuse(problem);
    const history: { password_hash: string }[] = await this.dataSource.query(
      'SELECT password_hash FROM dashboard_password_history WHERE user_id = $1 ORDER BY set_at DESC LIMIT $2',
      [user.userId, PASSWORD_HISTORY],
    );
    for (const { password_hash } of [{ password_hash: row.password_hash as string }, ...history])
      if (await verifyPassword(password_hash, next)) return refuse('reused');
    const hash = await hashPassword(next);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        'UPDATE dashboard_user SET password_hash = $2, password_changed_at = now(), must_change_password = false WHERE user_id = $1',
        [user.userId, hash],
      );
      await manager.query('INSERT INTO dashboard_password_history (user_id, password_hash) VALUES ($1, $2)', [user.userId, hash]);
      await manager.query('DELETE FROM dashboard_session WHERE user_id = $1 AND token_hash <> $2', [user.userId, sha256(token)]);
    });
    await this.audit({ ...actor(user), action: 'password:change', result: 'succeeded', address });
    return { outcome: 'changed', session: await this.advance(token, user, address) };
  }

  async signOut(token: string): Promise<void> {
    await this.dataSource.query('DELETE FROM dashboard_session WHERE token_hash = $1', [sha256(token)]);
  }

  /**
   * Removes what has ended: sessions (an ended one is refused either way) and
   * sign-in counters whose window is over. Run now and then by the dashboard.
   */
  async purgeExpired(): Promise<void> {
    await this.dataSource.query('DELETE FROM dashboard_session WHERE expires_at < now()');
    await this.dataSource.query('DELETE FROM dashboard_sign_in_limit WHERE expire < $1', [Date.now()]);
  }

  /** Appends an entry to the audit log (see AuditLog). */
  audit(entry: AuditEntry): Promise<void> {
    return this.log.append(entry);
  }

  /** The audit log of a business, newest first, a page at a time. */
  auditLog(businessId: string, options: { limit: number; before?: string }): Promise<AuditRecord[]> {
    return this.log.page(businessId, options);
  }

  auditHead(): Promise<ChainHead | null> {
    return this.log.head();
  }

  advanceChainHead(file: string): Promise<{ head: ChainHead | null; agrees: boolean }> {
    return this.log.advanceHead(file);
  }

  verifyAuditChain(outsideHead: ChainHead | null): Promise<ChainVerdict> {
    return this.log.verify(outsideHead);
  }

  /** The next stage of a signing-in session: a new password when one is due, else signed in (its idle time from now). */
  private async advance(token: string, user: DashboardUser, address: string): Promise<DashboardSession> {
    const rows = await this.dataSource.query(
      `WITH person AS (
         UPDATE dashboard_user SET failed_attempts = 0, locked_until = NULL WHERE user_id = $2 RETURNING must_change_password)
       UPDATE dashboard_session s
          SET stage = CASE WHEN (SELECT must_change_password FROM person) THEN 'change-password' ELSE 'signed-in' END,
              created_at = now(),
              expires_at = CASE WHEN (SELECT must_change_password FROM person)
                                THEN now() + make_interval(mins => $3) ELSE now() + make_interval(mins => $4) END
        WHERE s.token_hash = $1
       RETURNING s.csrf_token, s.stage`,
      [sha256(token), user.userId, SIGN_IN_STEP_MINUTES, this.idleMinutes],
    );
    const [updated] = (rows as [{ csrf_token: string; stage: SessionStage }[], number])[0];
    if (updated.stage === 'signed-in') await this.audit({ ...actor(user), action: 'sign-in', result: 'succeeded', address });
    return { user, csrfToken: updated.csrf_token, stage: updated.stage };
  }

  /** A failure of the person's (a password, a code): the tenth in a row locks the account; true when it did. */
  private async failed(user: DashboardUser, address: string): Promise<boolean> {
    const [row] = (
      await this.dataSource.query(
        `UPDATE dashboard_user
            SET failed_attempts = failed_attempts + 1,
                locked_until = CASE WHEN failed_attempts + 1 >= $2 THEN now() + make_interval(mins => $3) ELSE locked_until END
          WHERE user_id = $1 RETURNING failed_attempts`,
        [user.userId, LOCKOUT_FAILURES, LOCKOUT_MINUTES],
      )
    )[0] as { failed_attempts: number }[];
    if (row?.failed_attempts !== LOCKOUT_FAILURES) return false;
    await this.dataSource.query('DELETE FROM dashboard_session WHERE user_id = $1', [user.userId]);
    await this.audit({
      ...actor(user),
      action: 'lock',
      result: 'succeeded',
      detail: { failures: LOCKOUT_FAILURES, minutes: LOCKOUT_MINUTES },
      address,
    });
    return true;
  }

  private seal(secret: string, userId: string): string {
    if (!this.secrets) throw new IdentityError('the dashboard identity needs the secrets sealer for second factors');
    return this.secrets.seal(secret, mfaSealedFor(userId));
  }

  private open(sealed: string, userId: string): string {
    if (!this.secrets) throw new IdentityError('the dashboard identity needs the secrets sealer for second factors');
    return this.secrets.open(sealed, mfaSealedFor(userId));
  }
}

/** What a person's second-factor seed is bound to when sealed (its associated data). */
export function mfaSealedFor(userId: string): string {
  return `dashboard-mfa:${userId}`;
}

function actor(user: DashboardUser): Pick<AuditEntry, 'businessId' | 'userId' | 'email'> {
  return { businessId: user.businessId, userId: user.userId, email: user.email };
}

function toUser(row: Record<string, string>): DashboardUser {
  return {
    userId: row.user_id,
    businessId: row.business_id,
    merchantId: row.merchant_id ?? null,
    email: row.email,
    role: row.role as Role,
  };
}

/** Seconds until the key may try again, or 0 (the library's login-protection pattern: `get` before, `consume` on failure). */
async function blockedSeconds(limiter: RateLimiterPostgres, key: string, points: number): Promise<number> {
  const seen = await limiter.get(key);
  return seen !== null && seen.consumedPoints >= points ? Math.max(1, Math.ceil(seen.msBeforeNext / 1000)) : 0;
}

async function consume(limiter: RateLimiterPostgres, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (refusal) {
    // Over the limit: counted all the same; the next attempt waits.
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
  }
}
