/*
 * Why one file: every statement of the people's store port, side by side with the lock each takes.
 */
import { DataSource } from 'typeorm';
import type { Role } from '../roles';
import type { DashboardUser, SessionStage, TeamMember } from '../domain/people';
import { PeopleRepository, SessionRecord, SignInRecord, StandingChange } from '../people.repository';
import { Transaction } from '@pcs/kernel';
import { managerOf } from '@pcs/database';

const USER_COLUMNS = 'u.user_id, u.business_id, u.merchant_id, u.email, u.role';

/** An UPDATE's or DELETE's rows through TypeORM's `query` (which answers them as [rows, count]). */
const changed = <T>(result: unknown): T[] => (result as [T[], number])[0] ?? [];

function toUser(row: Record<string, string>): DashboardUser {
  return {
    userId: row.user_id,
    businessId: row.business_id,
    merchantId: row.merchant_id ?? null,
    email: row.email,
    role: row.role as Role,
  };
}

/** The dashboard's people in their own PostgreSQL tables (dashboard_user, dashboard_session, and the rest). */
export class PostgresPeopleRepository extends PeopleRepository {
  async resealSecondFactors(tx: Transaction, reseal: (sealed: string, userId: string) => string): Promise<number> {
    const manager = managerOf(tx);
    const rows = await manager.query<{ user_id: string; mfa_secret: string }[]>(
      'SELECT user_id, mfa_secret FROM dashboard_user WHERE mfa_secret IS NOT NULL ORDER BY user_id FOR UPDATE',
    );
    for (const row of rows)
      await manager.query('UPDATE dashboard_user SET mfa_secret = $2 WHERE user_id = $1', [
        row.user_id,
        reseal(row.mfa_secret, row.user_id),
      ]);
    return rows.length;
  }

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async insert(user: DashboardUser, passwordHash: string): Promise<boolean> {
    const inserted = await this.dataSource.query(
      `WITH created AS (
         INSERT INTO dashboard_user (user_id, business_id, merchant_id, email, role, password_hash, must_change_password)
         VALUES ($1, $2, $3, $4, $5, $6, true) ON CONFLICT DO NOTHING RETURNING user_id, password_hash)
       INSERT INTO dashboard_password_history (user_id, password_hash) SELECT user_id, password_hash FROM created RETURNING user_id`,
      [user.userId, user.businessId, user.merchantId, user.email, user.role, passwordHash],
    );
    return inserted.length > 0;
  }

  resetPassword(email: string, passwordHash: string): Promise<DashboardUser | null> {
    return this.dataSource.transaction(async (manager) => {
      const updated = changed<Record<string, string>>(
        await manager.query(
          `UPDATE dashboard_user SET password_hash = $2, password_changed_at = now(), must_change_password = true
            WHERE lower(email) = lower($1) RETURNING user_id, business_id, merchant_id, email, role`,
          [email, passwordHash],
        ),
      );
      if (updated.length === 0) return null;
      const user = toUser(updated[0]);
      await manager.query('INSERT INTO dashboard_password_history (user_id, password_hash) VALUES ($1, $2)', [user.userId, passwordHash]);
      await manager.query('DELETE FROM dashboard_session WHERE user_id = $1', [user.userId]);
      return user;
    });
  }

  async team(businessId: string): Promise<TeamMember[]> {
    const rows = await this.dataSource.query(
      `SELECT ${USER_COLUMNS}, u.created_at, CASE WHEN u.locked_until > now() THEN u.locked_until END AS locked_until,
              u.mfa_enrolled_at IS NOT NULL AS mfa_enrolled, u.disabled_at
         FROM dashboard_user u WHERE u.business_id = $1 ORDER BY u.disabled_at IS NOT NULL, lower(u.email) LIMIT 500`,
      [businessId],
    );
    return rows.map(
      (row: Record<string, string> & { created_at: Date; locked_until: Date | null; mfa_enrolled: boolean; disabled_at: Date | null }) => ({
        ...toUser(row),
        createdAt: row.created_at,
        lockedUntil: row.locked_until,
        mfaEnrolled: row.mfa_enrolled,
        disabledAt: row.disabled_at,
      }),
    );
  }

  async member(businessId: string, userId: string, options: { disabledToo?: boolean } = {}): Promise<DashboardUser | null> {
    const rows = await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM dashboard_user u WHERE u.user_id = $1 AND u.business_id = $2 AND ($3 OR u.disabled_at IS NULL)`,
      [userId, businessId, options.disabledToo === true],
    );
    return rows.length ? toUser(rows[0]) : null;
  }

  async changeStanding(userId: string, change: StandingChange): Promise<'changed' | 'last-admin' | 'unknown'> {
    return this.dataSource.transaction(async (manager) => {
      // Locks in one order for every change of standing: the business's enabled admins of the whole business (by id), then the
      // person. Two admins disabling each other at once then queue on the same first row and leave one (locking each one's own
      // row first deadlocked them). A person's business never changes, so it is read before any lock.
      const [owner] = await manager.query<{ business_id: string }[]>(`SELECT business_id FROM dashboard_user WHERE user_id = $1`, [userId]);
      if (!owner) return 'unknown';
      const admins: { user_id: string }[] = await manager.query(
        `SELECT user_id FROM dashboard_user WHERE business_id = $1 AND role = 'admin' AND merchant_id IS NULL AND disabled_at IS NULL
          ORDER BY user_id FOR UPDATE`,
        [owner.business_id],
      );
      const [person] = await manager.query(
        `SELECT business_id, merchant_id, role, disabled_at IS NOT NULL AS disabled FROM dashboard_user WHERE user_id = $1 FOR UPDATE`,
        [userId],
      );
      if (!person) return 'unknown';
      const isAdminNow = admins.some((a) => a.user_id === userId);
      const staysAdmin = !(change.disabled === true) && (change.role ?? person.role) === 'admin' && !person.disabled;
      if (isAdminNow && !staysAdmin && admins.length === 1) return 'last-admin';
      await manager.query(
        `UPDATE dashboard_user
            SET disabled_at = CASE WHEN $2::boolean IS NULL THEN disabled_at WHEN $2 THEN coalesce(disabled_at, now()) ELSE NULL END,
                role = coalesce($3, role),
                -- When an admin stops being one (contract §30): their resets stay the operator's for 30 days more.
                admin_until = CASE WHEN role = 'admin' AND coalesce($3, role) <> 'admin' THEN now() ELSE admin_until END,
                failed_attempts = CASE WHEN $2 = false THEN 0 ELSE failed_attempts END,
                locked_until = CASE WHEN $2 = false THEN NULL ELSE locked_until END
          WHERE user_id = $1`,
        [userId, change.disabled ?? null, change.role ?? null],
      );
      // A disabled person's sessions end at once (contract §27); a new role applies to the next request (sessions read it).
      if (change.disabled === true) await manager.query('DELETE FROM dashboard_session WHERE user_id = $1', [userId]);
      return 'changed';
    });
  }

  async byEmail(email: string, options: { disabledToo?: boolean } = {}): Promise<DashboardUser | null> {
    const rows = await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM dashboard_user u WHERE lower(u.email) = lower($1) AND ($2 OR u.disabled_at IS NULL)`,
      [email, options.disabledToo === true],
    );
    return rows.length ? toUser(rows[0]) : null;
  }

  async forSignIn(email: string, businessId: string): Promise<SignInRecord | null> {
    const [row] = await this.dataSource.query<(Record<string, string> & { enrolled: boolean; locked_seconds: number | null })[]>(
      `SELECT ${USER_COLUMNS}, u.password_hash, u.mfa_enrolled_at IS NOT NULL AS enrolled,
              CEIL(EXTRACT(EPOCH FROM u.locked_until - now()))::int AS locked_seconds
         FROM dashboard_user u WHERE lower(u.email) = lower($1) AND u.business_id = $2 AND u.disabled_at IS NULL`,
      [email, businessId],
    );
    return row ? { user: toUser(row), passwordHash: row.password_hash, enrolled: row.enrolled, lockedSeconds: row.locked_seconds } : null;
  }

  async isOrWasAdmin(userId: string, days: number): Promise<boolean> {
    const [row] = await this.dataSource.query<{ admin: boolean }[]>(
      `SELECT role = 'admin' OR admin_until > now() - make_interval(days => $2) AS admin FROM dashboard_user WHERE user_id = $1`,
      [userId, days],
    );
    return row?.admin === true;
  }

  async unlock(userId: string): Promise<void> {
    await this.dataSource.query('UPDATE dashboard_user SET failed_attempts = 0, locked_until = NULL WHERE user_id = $1', [userId]);
  }

  async resetSecondFactor(userId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('UPDATE dashboard_user SET mfa_secret = NULL, mfa_enrolled_at = NULL, mfa_last_step = NULL WHERE user_id = $1', [
        userId,
      ]);
      await manager.query('DELETE FROM dashboard_recovery_code WHERE user_id = $1', [userId]);
      await manager.query('DELETE FROM dashboard_session WHERE user_id = $1', [userId]);
    });
  }

  async sealedSeed(userId: string, options: { unenrolled?: boolean } = {}): Promise<string | null> {
    const [row] = await this.dataSource.query(
      `SELECT mfa_secret FROM dashboard_user WHERE user_id = $1 ${options.unenrolled ? 'AND mfa_enrolled_at IS NULL' : ''}`,
      [userId],
    );
    return (row?.mfa_secret as string | null | undefined) ?? null;
  }

  async keepSeed(userId: string, sealedSeed: string): Promise<void> {
    await this.dataSource.query('UPDATE dashboard_user SET mfa_secret = $2 WHERE user_id = $1 AND mfa_enrolled_at IS NULL', [
      userId,
      sealedSeed,
    ]);
  }

  async takeStep(userId: string, step: number): Promise<boolean> {
    const taken = await this.dataSource.query(
      `UPDATE dashboard_user SET mfa_last_step = $2 WHERE user_id = $1 AND (mfa_last_step IS NULL OR mfa_last_step < $2) RETURNING user_id`,
      [userId, step],
    );
    return changed(taken).length > 0;
  }

  async spendRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
    const spent = await this.dataSource.query(
      'UPDATE dashboard_recovery_code SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id',
      [userId, codeHash],
    );
    return changed(spent).length === 1;
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    const [{ left }] = await this.dataSource.query(
      'SELECT count(*)::int AS left FROM dashboard_recovery_code WHERE user_id = $1 AND used_at IS NULL',
      [userId],
    );
    return left as number;
  }

  async confirmEnrolment(userId: string, step: number, codeHashes: readonly string[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('UPDATE dashboard_user SET mfa_enrolled_at = now(), mfa_last_step = $2 WHERE user_id = $1', [userId, step]);
      await manager.query('DELETE FROM dashboard_recovery_code WHERE user_id = $1', [userId]);
      await manager.query('INSERT INTO dashboard_recovery_code (user_id, code_hash) SELECT $1, unnest($2::char(64)[])', [
        userId,
        codeHashes,
      ]);
    });
  }

  async passwordHash(userId: string): Promise<string | null> {
    const [row] = await this.dataSource.query('SELECT password_hash FROM dashboard_user WHERE user_id = $1', [userId]);
    return (row?.password_hash as string | undefined) ?? null;
  }

  async passwordHistory(userId: string, count: number): Promise<string[]> {
    const rows: { password_hash: string }[] = await this.dataSource.query(
      'SELECT password_hash FROM dashboard_password_history WHERE user_id = $1 ORDER BY set_at DESC LIMIT $2',
      [userId, count],
    );
    return rows.map((row) => row.password_hash);
  }

  async changePassword(userId: string, passwordHash: string, keptTokenHash: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        'UPDATE dashboard_user SET password_hash = $2, password_changed_at = now(), must_change_password = false WHERE user_id = $1',
        [userId, passwordHash],
      );
      await manager.query('INSERT INTO dashboard_password_history (user_id, password_hash) VALUES ($1, $2)', [userId, passwordHash]);
      await manager.query('DELETE FROM dashboard_session WHERE user_id = $1 AND token_hash <> $2', [userId, keptTokenHash]);
    });
  }

  async beginAttempt(
    userId: string,
    failures: number,
    minutes: number,
  ): Promise<{ readonly refused: false; readonly attempt: number } | { readonly refused: true; readonly lockedSeconds: number }> {
    // The row is locked first (FOR UPDATE), so that parallel attempts are counted one after another and each
    // sees what the one before it left: whether the account was locked when it came, and the count then.
    const [row] = changed<{ was_locked: boolean; failed_attempts: number; locked_seconds: number | null }>(
      await this.dataSource.query(
        `WITH before AS (
           SELECT user_id, locked_until > now() AS locked, locked_until IS NOT NULL AS had_lock, failed_attempts
             FROM dashboard_user WHERE user_id = $1 FOR UPDATE)
         UPDATE dashboard_user u
            SET failed_attempts = CASE WHEN b.locked THEN u.failed_attempts WHEN b.had_lock THEN 1 ELSE u.failed_attempts + 1 END,
                locked_until = CASE WHEN b.locked THEN u.locked_until
                                    WHEN (CASE WHEN b.had_lock THEN 1 ELSE u.failed_attempts + 1 END) >= $2
                                    THEN now() + make_interval(mins => $3)
                                    ELSE NULL END
           FROM before b
          WHERE u.user_id = b.user_id
         RETURNING b.locked AS was_locked, u.failed_attempts,
                   CEIL(EXTRACT(EPOCH FROM u.locked_until - now()))::int AS locked_seconds`,
        [userId, failures, minutes],
      ),
    );
    if (!row) return { refused: true, lockedSeconds: minutes * 60 };
    if (row.was_locked) return { refused: true, lockedSeconds: Math.max(1, row.locked_seconds ?? 1) };
    return { refused: false, attempt: row.failed_attempts };
  }

  async beginUnknownAttempt(
    emailKey: string,
    failures: number,
    minutes: number,
  ): Promise<{ readonly refused: false; readonly attempt: number } | { readonly refused: true; readonly lockedSeconds: number }> {
    // beginAttempt's arithmetic on a row of its own. The upsert takes the row's lock and works on its latest version, as
    // FOR UPDATE does there; whether the lock held when the attempt came is kept in the row (SET sees the row as it was).
    const [row] = await this.dataSource.query<{ was_locked: boolean; failed_attempts: number; locked_seconds: number | null }[]>(
      `INSERT INTO dashboard_unknown_sign_in AS u (email_key, failed_attempts, locked_until)
       VALUES ($1, 1, CASE WHEN 1 >= $2 THEN now() + make_interval(mins => $3) END)
       ON CONFLICT (email_key) DO UPDATE
          SET refused = coalesce(u.locked_until > now(), false),
              failed_attempts = CASE WHEN u.locked_until > now() THEN u.failed_attempts
                                     WHEN u.locked_until IS NOT NULL THEN 1 ELSE u.failed_attempts + 1 END,
              locked_until = CASE WHEN u.locked_until > now() THEN u.locked_until
                                  WHEN (CASE WHEN u.locked_until IS NOT NULL THEN 1 ELSE u.failed_attempts + 1 END) >= $2
                                  THEN now() + make_interval(mins => $3)
                                  ELSE NULL END,
              last_attempt_at = now()
       RETURNING u.refused AS was_locked, u.failed_attempts,
                 CEIL(EXTRACT(EPOCH FROM u.locked_until - now()))::int AS locked_seconds`,
      [emailKey, failures, minutes],
    );
    if (row.was_locked) return { refused: true, lockedSeconds: Math.max(1, row.locked_seconds ?? 1) };
    return { refused: false, attempt: row.failed_attempts };
  }

  async refundAttempt(userId: string, attempt: number, failures: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE dashboard_user
          SET failed_attempts = greatest(failed_attempts - 1, 0),
              locked_until = CASE WHEN $2::int >= $3::int THEN NULL ELSE locked_until END
        WHERE user_id = $1`,
      [userId, attempt, failures],
    );
  }

  async endSessionsOf(userId: string): Promise<void> {
    await this.dataSource.query('DELETE FROM dashboard_session WHERE user_id = $1', [userId]);
  }

  async openSession(tokenHash: string, userId: string, csrfToken: string, minutes: number, stage: SessionStage): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO dashboard_session (token_hash, user_id, csrf_token, expires_at, stage)
       VALUES ($1, $2, $3, now() + make_interval(mins => $4), $5)`,
      [tokenHash, userId, csrfToken, minutes, stage],
    );
  }

  async touchSession(tokenHash: string, maxHours: number, idleMinutes: number): Promise<SessionRecord | null> {
    const [row] = changed<Record<string, string> & { stage: SessionStage }>(
      await this.dataSource.query(
        `UPDATE dashboard_session s
            SET last_seen_at = now(),
                expires_at = CASE WHEN s.stage = 'signed-in'
                                  THEN least(s.created_at + make_interval(hours => $2), now() + make_interval(mins => $3))
                                  ELSE s.expires_at END
           FROM dashboard_user u
          WHERE s.token_hash = $1 AND s.expires_at > now() AND u.user_id = s.user_id AND u.disabled_at IS NULL
            AND (u.locked_until IS NULL OR u.locked_until <= now())
         RETURNING ${USER_COLUMNS}, s.csrf_token, s.stage`,
        [tokenHash, maxHours, idleMinutes],
      ),
    );
    return row ? { user: toUser(row), csrfToken: row.csrf_token, stage: row.stage } : null;
  }

  async advanceSession(
    tokenHash: string,
    renewed: { readonly tokenHash: string; readonly csrfToken: string },
    userId: string,
    stepMinutes: number,
    idleMinutes: number,
  ): Promise<{ csrfToken: string; stage: SessionStage }> {
    const [row] = changed<{ csrf_token: string; stage: SessionStage }>(
      await this.dataSource.query(
        `WITH person AS (
           UPDATE dashboard_user SET failed_attempts = 0, locked_until = NULL WHERE user_id = $2 RETURNING must_change_password)
         UPDATE dashboard_session s
            SET stage = CASE WHEN (SELECT must_change_password FROM person) THEN 'change-password' ELSE 'signed-in' END,
                created_at = now(),
                expires_at = CASE WHEN (SELECT must_change_password FROM person)
                                  THEN now() + make_interval(mins => $3) ELSE now() + make_interval(mins => $4) END,
                token_hash = $5,
                csrf_token = $6
          WHERE s.token_hash = $1
         RETURNING s.csrf_token, s.stage`,
        [tokenHash, userId, stepMinutes, idleMinutes, renewed.tokenHash, renewed.csrfToken],
      ),
    );
    return { csrfToken: row.csrf_token, stage: row.stage };
  }

  async endSession(tokenHash: string): Promise<void> {
    await this.dataSource.query('DELETE FROM dashboard_session WHERE token_hash = $1', [tokenHash]);
  }

  async purgeExpired(): Promise<void> {
    await this.dataSource.query('DELETE FROM dashboard_session WHERE expires_at < now()');
    await this.dataSource.query('DELETE FROM dashboard_sign_in_limit WHERE expire < $1', [Date.now()]);
    // An unknown email's count ends as a person's would: a day after its last attempt, its lock long over.
    await this.dataSource.query(
      `DELETE FROM dashboard_unknown_sign_in WHERE last_attempt_at < now() - interval '1 day' AND (locked_until IS NULL OR locked_until < now())`,
    );
  }
}
