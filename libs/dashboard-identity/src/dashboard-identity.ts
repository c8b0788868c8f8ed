import * as crypto from 'node:crypto';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';
import { generatePassword, hashPassword, verifyPassword } from './password';
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

/** A signed-in person, as each request sees them. */
export interface DashboardSession {
  readonly user: DashboardUser;
  /** The token every form of this session carries (synchronizer token: compared with the session's, not with a cookie). */
  readonly csrfToken: string;
}

export type SignInResult =
  | { readonly outcome: 'signed-in'; readonly token: string; readonly session: DashboardSession }
  | { readonly outcome: 'refused' }
  | { readonly outcome: 'throttled'; readonly retryAfterSeconds: number };

export interface AuditEntry {
  readonly businessId: string;
  readonly userId: string | null;
  readonly email: string;
  /** What was attempted: `sign-in`, `refund`, `user:create` … */
  readonly action: string;
  /** What it was done to (a payment intent's id, an email), never a secret. */
  readonly target?: string | null;
  readonly result: 'succeeded' | 'refused' | 'failed';
  readonly detail?: Record<string, unknown>;
}

export interface AuditRecord extends AuditEntry {
  readonly auditId: string;
  readonly at: Date;
}

/** A session ends after this long without a request … */
export const SESSION_IDLE_MINUTES = 30;
/** … and in any case this long after signing in. */
export const SESSION_MAX_HOURS = 12;
/** Sign-in failures allowed per account, and per client address, in the window below, before sign-in waits. */
export const SIGN_IN_FAILURES_PER_ACCOUNT = 5;
export const SIGN_IN_FAILURES_PER_ADDRESS = 20;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{1,63}$/;

// Verified against when the email is unknown: a miss takes as long as a wrong password.
let decoyHash: Promise<string> | null = null;

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

export class IdentityError extends Error {}

/**
 * The dashboard's people, sessions and audit log (contract §18), in its own
 * tables. Passwords: scrypt (see password.ts). Sessions: a random token in an
 * HttpOnly cookie, only its SHA-256 stored; they end after 30 idle minutes
 * or 12 hours, at sign-out, and when the password is reset. Sign-in failures
 * are throttled per account and per client address with rate-limiter-flexible
 * (its PostgreSQL store: shared by every dashboard process).
 */
export class DashboardIdentity {
  private readonly failuresByAccount: RateLimiterPostgres;
  private readonly failuresByAddress: RateLimiterPostgres;

  constructor(private readonly dataSource: DataSource) {
    const limiter = (keyPrefix: string, points: number) =>
      new RateLimiterPostgres({
        storeClient: dataSource,
        storeType: 'typeorm',
        tableName: 'dashboard_sign_in_limit',
        tableCreated: true,
        keyPrefix,
        points,
        duration: SIGN_IN_WINDOW_SECONDS,
        clearExpiredByTimeout: false,
      });
    this.failuresByAccount = limiter('account', SIGN_IN_FAILURES_PER_ACCOUNT);
    this.failuresByAddress = limiter('address', SIGN_IN_FAILURES_PER_ADDRESS);
  }

  /** `user:create`: a person with a generated password, shown once. */
  async createUser(input: {
    businessId: string;
    merchantId: string | null;
    email: string;
    role: Role;
  }): Promise<DashboardUser & { password: string }> {
    const email = input.email.trim();
    if (!EMAIL.test(email)) throw new IdentityError('--email must be an email address');
    const password = generatePassword();
    const userId = crypto.randomUUID();
    const inserted = await this.dataSource.query(
      `INSERT INTO dashboard_user (user_id, business_id, merchant_id, email, role, password_hash)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING user_id`,
      [userId, input.businessId, input.merchantId, email, input.role, await hashPassword(password)],
    );
    if (inserted.length === 0) throw new IdentityError('a user with that email already exists');
    return { userId, businessId: input.businessId, merchantId: input.merchantId, email, role: input.role, password };
  }

  /** `user:reset-password`: a new generated password; every session of the person ends. */
  async resetPassword(email: string): Promise<DashboardUser & { password: string }> {
    const password = generatePassword();
    const hash = await hashPassword(password);
    return this.dataSource.transaction(async (manager) => {
      const rows = await manager.query(
        `UPDATE dashboard_user SET password_hash = $2, password_changed_at = now() WHERE lower(email) = lower($1)
         RETURNING user_id, business_id, merchant_id, email, role`,
        [email.trim(), hash],
      );
      const updated = (rows as [Record<string, string>[], number])[0] ?? [];
      if (updated.length === 0) throw new IdentityError('no user has that email');
      const user = toUser(updated[0]);
      await manager.query('DELETE FROM dashboard_session WHERE user_id = $1', [user.userId]);
      await this.failuresByAccount.delete(accountKey(user.email));
      return { ...user, password };
    });
  }

  /** The people of a business, by email (the team page). */
  async usersOf(businessId: string): Promise<(DashboardUser & { createdAt: Date })[]> {
    const rows = await this.dataSource.query(
      `SELECT user_id, business_id, merchant_id, email, role, created_at FROM dashboard_user
        WHERE business_id = $1 AND disabled_at IS NULL ORDER BY lower(email) LIMIT 500`,
      [businessId],
    );
    return rows.map((row: Record<string, string> & { created_at: Date }) => ({ ...toUser(row), createdAt: row.created_at }));
  }

  /** `resetPassword` of one of a business's people (the team page); null when the person is not of that business. */
  async resetPasswordOf(businessId: string, userId: string): Promise<(DashboardUser & { password: string }) | null> {
    const rows = await this.dataSource.query(
      'SELECT email FROM dashboard_user WHERE user_id = $1 AND business_id = $2 AND disabled_at IS NULL',
      [userId, businessId],
    );
    return rows.length ? this.resetPassword(rows[0].email) : null;
  }

  async userByEmail(email: string): Promise<DashboardUser | null> {
    if (email.includes('\u0000')) return null;
    const rows = await this.dataSource.query(
      'SELECT user_id, business_id, merchant_id, email, role FROM dashboard_user WHERE lower(email) = lower($1) AND disabled_at IS NULL',
      [email.trim()],
    );
    return rows.length ? toUser(rows[0]) : null;
  }

  /**
   * Signs a person in, or says why not: a wrong email and a wrong password are
   * the same refusal (and take as long); past the failures allowed for the
   * account or the address, nothing is checked until the window ends.
   */
  async signIn(email: string, password: string, address: string): Promise<SignInResult> {
    // PostgreSQL text holds no NUL: such an email is no one's (and must not fail the query).
    email = email.split('\u0000').join('');
    const account = accountKey(email);
    const waits = await Promise.all([
      blockedSeconds(this.failuresByAccount, account, SIGN_IN_FAILURES_PER_ACCOUNT),
      blockedSeconds(this.failuresByAddress, address, SIGN_IN_FAILURES_PER_ADDRESS),
    ]);
    if (Math.max(...waits) > 0) return { outcome: 'throttled', retryAfterSeconds: Math.max(...waits) };
    const rows = await this.dataSource.query(
      `SELECT user_id, business_id, merchant_id, email, role, password_hash FROM dashboard_user
       WHERE lower(email) = lower($1) AND disabled_at IS NULL`,
      [email.trim().slice(0, 254)],
    );
    decoyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
    const matches = await verifyPassword(rows[0]?.password_hash ?? (await decoyHash), password.slice(0, 1024));
    if (rows.length === 0 || !matches) {
      await Promise.all([consume(this.failuresByAccount, account), consume(this.failuresByAddress, address)]);
      return { outcome: 'refused' };
    }
    await this.failuresByAccount.delete(account);
    const user = toUser(rows[0]);
    const token = crypto.randomBytes(32).toString('base64url');
    const csrfToken = crypto.randomBytes(32).toString('base64url');
    await this.dataSource.query(
      `INSERT INTO dashboard_session (token_hash, user_id, csrf_token, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(mins => $4))`,
      [sha256(token), user.userId, csrfToken, SESSION_IDLE_MINUTES],
    );
    return { outcome: 'signed-in', token, session: { user, csrfToken } };
  }

  /** The session behind a cookie's token, kept alive by the request; null when unknown, ended or expired. */
  async session(token: string): Promise<DashboardSession | null> {
    if (!/^[\w-]{43}$/.test(token)) return null;
    const rows = await this.dataSource.query(
      `UPDATE dashboard_session s
          SET last_seen_at = now(),
              expires_at = least(s.created_at + make_interval(hours => $2), now() + make_interval(mins => $3))
         FROM dashboard_user u
        WHERE s.token_hash = $1 AND s.expires_at > now() AND u.user_id = s.user_id AND u.disabled_at IS NULL
       RETURNING u.user_id, u.business_id, u.merchant_id, u.email, u.role, s.csrf_token`,
      [sha256(token), SESSION_MAX_HOURS, SESSION_IDLE_MINUTES],
    );
    const updated = (rows as [Record<string, string>[], number])[0] ?? [];
    return updated.length ? { user: toUser(updated[0]), csrfToken: updated[0].csrf_token } : null;
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

  async audit(entry: AuditEntry): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO dashboard_audit (business_id, user_id, email, action, target, result, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        entry.businessId,
        entry.userId,
        withoutNul(entry.email),
        entry.action,
        entry.target === null || entry.target === undefined ? null : withoutNul(entry.target).slice(0, 200),
        entry.result,
        // jsonb holds no \u0000 either: what a hostile request typed is recorded without it.
        JSON.stringify(withoutNulDeep(entry.detail ?? {})),
      ],
    );
  }

  /** The audit log of a business, newest first, a page at a time (`before`: the last id of the previous page). */
  async auditLog(businessId: string, options: { limit: number; before?: string }): Promise<AuditRecord[]> {
    const rows = await this.dataSource.query(
      `SELECT audit_id, at, business_id, user_id, email, action, target, result, detail FROM dashboard_audit
        WHERE business_id = $1 AND ($2::bigint IS NULL OR audit_id < $2::bigint) ORDER BY audit_id DESC LIMIT $3`,
      [businessId, options.before ?? null, options.limit],
    );
    return rows.map((row: Record<string, never>) => ({
      auditId: String(row.audit_id),
      at: row.at,
      businessId: row.business_id,
      userId: row.user_id,
      email: row.email,
      action: row.action,
      target: row.target,
      result: row.result,
      detail: row.detail,
    }));
  }
}

/** PostgreSQL's text holds no NUL: what a request typed is recorded without it, never refused for it. */
function withoutNul(value: string): string {
  return value.split('\u0000').join('');
}

function withoutNulDeep(value: unknown): unknown {
  if (typeof value === 'string') return withoutNul(value);
  if (Array.isArray(value)) return value.map(withoutNulDeep);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), withoutNulDeep(v)]));
  return value;
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

function accountKey(email: string): string {
  return email.trim().toLowerCase().slice(0, 200);
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
