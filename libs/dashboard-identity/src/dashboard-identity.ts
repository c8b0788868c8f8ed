/*
 * Why one file: the dashboard's people as one service over one store: sign-in, second factor, sessions, roles
 * and their audit; each rule (lockout, fresh code, recent admins) reads the same person's row in the same
 * transaction.
 */
/**
 * The context's service: the rules of signing in, second factors, passwords,
 * lockout, sessions and the team (contract §22), over PeopleRepository and
 * the audit log. Over 300 lines because the PCI DSS rules interlock (a wrong
 * code counts towards the same lockout as a wrong password, which ends the
 * sessions, which the idle rule keeps) and each step is audited as it happens;
 * read together, they can be checked against the standard.
 */
import * as crypto from 'node:crypto';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { generatePassword, hashPassword, verifyPassword } from './password';
import { ChainHead, ChainVerdict } from './audit-chain';
import { AuditEntry, AuditLog, AuditRecord } from './persistence/audit-log';
import { PASSWORD_HISTORY, PasswordProblem, passwordProblem } from './password-policy';
import { enrolmentOf, newRecoveryCodes, newTotpSecret, recoveryCodeHash, SecretSealer, totpStepOf } from './second-factor';
import { isRole, Role, ROLES } from './roles';
import {
  CodeResult,
  DashboardSession,
  DashboardUser,
  IdentityError,
  isDashboardEmail,
  LOCKOUT_FAILURES,
  LOCKOUT_MINUTES,
  RECENT_ADMIN_DAYS,
  PasswordChangeResult,
  SESSION_IDLE_MINUTES_MAX,
  SESSION_MAX_HOURS,
  SessionStage,
  SIGN_IN_FAILURES_PER_ADDRESS,
  SIGN_IN_STEP_MINUTES,
  SIGN_IN_WINDOW_SECONDS,
  SignInResult,
  TeamMember,
} from './domain/people';
import { PeopleRepository } from './people.repository';
import { Transaction } from '@pcs/kernel';

export * from './domain/people';

/** Where the dashboard's people, its audit log and its sign-in counters are kept. */
export interface IdentityStore {
  readonly people: PeopleRepository;
  readonly log: AuditLog;
  /** A counter of attempts per key within a window (`points` allowed per `duration` seconds), shared by every process. */
  limiter(options: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract;
}

// Verified against when the email is unknown: a miss takes as long as a wrong password.
let decoyHash: Promise<string> | null = null;

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

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
 * here, with the client's address. The rules live here; the rows, behind
 * PeopleRepository.
 */
export class DashboardIdentity {
  private readonly failuresByAddress: RateLimiterAbstract;
  /** One audit entry per address and minute for attempts refused without a check (throttled or locked). */
  private readonly refusalsAudited: RateLimiterAbstract;
  private readonly idleMinutes: number;
  private readonly people: PeopleRepository;
  private readonly log: AuditLog;

  /**
   * `store` is where people, the audit log and the sign-in counters are kept
   * (`dashboardIdentityOn` builds it on the database); `secrets` seals the
   * second factors' seeds.
   */
  /** The key of the hash an unknown email is counted under (contract §30): never the email itself in the database. */
  private readonly emailKey: Buffer;

  constructor(
    store: IdentityStore,
    private readonly secrets: SecretSealer | null = null,
    options: { idleMinutes?: number; emailKey?: Buffer } = {},
  ) {
    this.emailKey = options.emailKey ?? Buffer.from('pcs unknown sign-in');
    this.people = store.people;
    this.log = store.log;
    this.failuresByAddress = store.limiter({
      keyPrefix: 'address',
      points: SIGN_IN_FAILURES_PER_ADDRESS,
      duration: SIGN_IN_WINDOW_SECONDS,
    });
    this.refusalsAudited = store.limiter({ keyPrefix: 'refusal-audited', points: 1, duration: 60 });
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
    if (!isDashboardEmail(email)) throw new IdentityError('--email must be an email address');
    const password = generatePassword();
    const user: DashboardUser = {
      userId: crypto.randomUUID(),
      businessId: input.businessId,
      merchantId: input.merchantId,
      email,
      role: input.role,
    };
    if (!(await this.people.insert(user, await hashPassword(password)))) throw new IdentityError('a user with that email already exists');
    return { ...user, password };
  }

  /** `user:reset-password`: a new generated password, changed at the next sign-in; every session of the person ends. */
  async resetPassword(email: string): Promise<DashboardUser & { password: string }> {
    const password = generatePassword();
    const user = await this.people.resetPassword(email.trim(), await hashPassword(password));
    if (!user) throw new IdentityError('no user has that email');
    return { ...user, password };
  }

  /** The people of a business, by email (the team page), with their lock and second factor. */
  usersOf(businessId: string): Promise<TeamMember[]> {
    return this.people.team(businessId);
  }

  /** One of a business's people (the team page's actions), or null. */
  async memberOf(businessId: string, userId: string): Promise<DashboardUser | null> {
    if (!/^[0-9a-f-]{36}$/i.test(userId)) return null;
    return this.people.member(businessId, userId);
  }

  /** `resetPassword` of one of a business's people (the team page); null when the person is not of that business. */
  async resetPasswordOf(businessId: string, userId: string): Promise<(DashboardUser & { password: string }) | null> {
    const member = await this.memberOf(businessId, userId);
    return member ? this.resetPassword(member.email) : null;
  }

  async userByEmail(email: string, options: { disabledToo?: boolean } = {}): Promise<DashboardUser | null> {
    if (email.includes('\u0000')) return null;
    return this.people.byEmail(email.trim(), options);
  }

  /** A person of the business, disabled ones too (the team page's enable). */
  /**
   * Whether a person's password or second factor is the operator's alone to reset (contract §30): an admin, or one
   * within RECENT_ADMIN_DAYS of stopping being one.
   */
  isOrWasAdmin(userId: string): Promise<boolean> {
    return this.people.isOrWasAdmin(userId, RECENT_ADMIN_DAYS);
  }

  async anyMemberOf(businessId: string, userId: string): Promise<DashboardUser | null> {
    if (!/^[0-9a-f-]{36}$/i.test(userId)) return null;
    return this.people.member(businessId, userId, { disabledToo: true });
  }

  /**
   * The staff lifecycle (contract §27, PCI DSS 8.2.5/8.2.6): a person
   * disabled (their sessions end at once; they cannot sign in) or enabled
   * again, or given another role. The last enabled admin of the whole
   * business is never disabled or demoted: an IdentityError says so.
   */
  async changeStanding(userId: string, change: { disabled?: boolean; role?: Role }): Promise<void> {
    if (change.role !== undefined && !isRole(change.role)) throw new IdentityError(`the role must be one of ${ROLES.join(', ')}`);
    const outcome = await this.people.changeStanding(userId, change);
    if (outcome === 'unknown') throw new IdentityError('no user has that id');
    if (outcome === 'last-admin')
      throw new IdentityError('the last enabled admin of the business cannot be disabled or lose the admin role: make another admin first');
  }

  /** `user:unlock` and the team page: the person may sign in again at once. */
  async unlock(userId: string): Promise<void> {
    await this.people.unlock(userId);
  }

  /** `user:reset-mfa` and the team page: the person enrols a second factor again at the next sign-in; their sessions end. */
  async resetSecondFactor(userId: string): Promise<void> {
    await this.people.resetSecondFactor(userId);
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
    // The address's attempt is counted before anything is checked (contract §27): a burst passes no more than the limit.
    const addressWait = await take(this.failuresByAddress, address);
    const row = await this.people.forSignIn(email, businessId);
    const user = row?.user ?? null;
    const audit = (result: AuditEntry['result'], detail: Record<string, unknown>) =>
      this.audit({ businessId, userId: user?.userId ?? null, email, action: 'sign-in', result, detail, address });
    if (addressWait > 0) {
      await this.auditRefusal(address, () => audit('refused', { reason: 'address-throttled' }));
      return { outcome: 'throttled', retryAfterSeconds: addressWait };
    }
    // An email no one has is counted and locked exactly as a person's account (contract §30): "locked" tells nothing.
    const attempt = user
      ? await this.people.beginAttempt(user.userId, LOCKOUT_FAILURES, LOCKOUT_MINUTES)
      : await this.people.beginUnknownAttempt(this.unknownEmailKey(email, businessId), LOCKOUT_FAILURES, LOCKOUT_MINUTES);
    if (attempt.refused) {
      await this.auditRefusal(address, () => audit('refused', { reason: 'locked' }));
      return { outcome: 'locked', retryAfterSeconds: attempt.lockedSeconds };
    }
    decoyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
    const matches = await verifyPassword(row?.passwordHash ?? (await decoyHash), password.slice(0, 1024));
    if (!row || !user || !matches) {
      await audit('refused', { reason: row ? 'wrong-password' : 'unknown-email' });
      if (user) await this.failed(user, attempt.attempt, address);
      else if (attempt.attempt === LOCKOUT_FAILURES)
        await this.audit({
          businessId,
          userId: null,
          email,
          action: 'lock',
          result: 'succeeded',
          detail: { failures: LOCKOUT_FAILURES, minutes: LOCKOUT_MINUTES, unknownEmail: true },
          address,
        });
      return { outcome: 'refused' };
    }
    // The right password: its attempt is taken back (the address's too); the second factor is still to come.
    await this.people.refundAttempt(user.userId, attempt.attempt, LOCKOUT_FAILURES);
    await this.failuresByAddress.reward(address, 1).catch(() => undefined);
    const stage: SessionStage = row.enrolled ? 'code' : 'enrol';
    const token = crypto.randomBytes(32).toString('base64url');
    const csrfToken = crypto.randomBytes(32).toString('base64url');
    await this.people.openSession(sha256(token), user.userId, csrfToken, SIGN_IN_STEP_MINUTES, stage);
    await this.audit({ ...actor(user), action: 'sign-in:password', result: 'succeeded', detail: { next: stage }, address });
    return { outcome: 'next', token, session: { user, csrfToken, stage } };
  }

  /** The session behind a cookie's token, kept alive by the request when signed in; null when unknown, ended or expired. */
  async session(token: string): Promise<DashboardSession | null> {
    if (!/^[\w-]{43}$/.test(token)) return null;
    return this.people.touchSession(sha256(token), SESSION_MAX_HOURS, this.idleMinutes);
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
    // Counted before the code is checked (contract §27): parallel guesses check at most the lockout's ten.
    const attempt = await this.people.beginAttempt(user.userId, LOCKOUT_FAILURES, LOCKOUT_MINUTES);
    if (attempt.refused) {
      await this.people.endSessionsOf(user.userId);
      await this.auditRefusal(address, () =>
        this.audit({ ...actor(user), action: 'mfa:code', result: 'refused', detail: { reason: 'locked' }, address }),
      );
      return { outcome: 'locked', retryAfterSeconds: attempt.lockedSeconds };
    }
    const sealed = await this.people.sealedSeed(user.userId);
    const typed = code.replace(/\s/g, '').slice(0, 64);
    const step = sealed ? totpStepOf(this.open(sealed, user.userId), user.email, typed) : null;
    let used: 'totp' | 'recovery' | null = null;
    if (step !== null) {
      if (!(await this.people.takeStep(user.userId, step))) {
        await this.audit({ ...actor(user), action: 'mfa:code', result: 'refused', detail: { reason: 'reused' }, address });
        const locked = await this.failed(user, attempt.attempt, address);
        return locked ? { outcome: 'locked', retryAfterSeconds: LOCKOUT_MINUTES * 60 } : { outcome: 'refused', reason: 'reused' };
      }
      used = 'totp';
    } else {
      const hash = recoveryCodeHash(typed);
      if (hash && (await this.people.spendRecoveryCode(user.userId, hash))) used = 'recovery';
    }
    if (!used) {
      await this.audit({ ...actor(user), action: 'mfa:code', result: 'refused', detail: { reason: 'wrong' }, address });
      const locked = await this.failed(user, attempt.attempt, address);
      return locked ? { outcome: 'locked', retryAfterSeconds: LOCKOUT_MINUTES * 60 } : { outcome: 'refused', reason: 'wrong' };
    }
    if (used === 'recovery') {
      const left = await this.people.recoveryCodesLeft(user.userId);
      await this.audit({ ...actor(user), action: 'mfa:recovery-code', result: 'succeeded', detail: { left }, address });
    }
    const advanced = await this.advance(token, user, address);
    return { outcome: 'next', ...advanced };
  }

  /**
   * A fresh code of an admin's authenticator for an action that needs one
   * beyond a session (contract §24: ending a new settlement account's hold).
   * The person must be an enabled admin of `businessId` (of `merchantId`, or
   * of the whole business), not locked, with a second factor; the code's time
   * step must not have been used before. A wrong or reused code counts
   * towards the lockout as at sign-in. Audited either way; the admin, or null.
   */
  async confirmAsAdmin(input: {
    businessId: string;
    merchantId: string;
    email: string;
    code: string;
    address: string;
    action: string;
    target: string;
  }): Promise<DashboardUser | null> {
    const email = input.email.split('\u0000').join('').trim().slice(0, 254);
    const row = await this.people.forSignIn(email, input.businessId);
    const user = row?.user ?? null;
    const refuse = async (reason: string) => {
      await this.audit({
        businessId: input.businessId,
        userId: user?.userId ?? null,
        email,
        action: input.action,
        target: input.target,
        result: 'refused',
        detail: { reason },
        address: input.address,
      });
      return null;
    };
    if (!row || !user || user.role !== 'admin' || (user.merchantId !== null && user.merchantId !== input.merchantId))
      return refuse('not-an-admin');
    const sealed = row.enrolled ? await this.people.sealedSeed(user.userId) : null;
    if (!sealed) return refuse('no-second-factor');
    const attempt = await this.people.beginAttempt(user.userId, LOCKOUT_FAILURES, LOCKOUT_MINUTES);
    if (attempt.refused) return refuse('locked');
    const step = totpStepOf(this.open(sealed, user.userId), user.email, input.code.replace(/\s/g, '').slice(0, 64));
    const fresh = step !== null && (await this.people.takeStep(user.userId, step));
    if (!fresh) {
      await this.failed(user, attempt.attempt, input.address);
      return refuse(step === null ? 'wrong-code' : 'reused-code');
    }
    await this.people.refundAttempt(user.userId, attempt.attempt, LOCKOUT_FAILURES);
    await this.audit({ ...actor(user), action: input.action, target: input.target, result: 'succeeded', address: input.address });
    return user;
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
    const sealed = await this.people.sealedSeed(userId, { unenrolled: true });
    let secret = sealed ? this.open(sealed, userId) : null;
    if (!secret) {
      secret = newTotpSecret();
      await this.people.keepSeed(userId, this.seal(secret, userId));
    }
    return { secret, ...(await enrolmentOf(secret, email)) };
  }

  /** Confirms the enrolment with a first code; answers the ten recovery codes, shown once and stored only as hashes. */
  async confirmEnrolment(
    token: string,
    code: string,
    address: string,
  ): Promise<
    { outcome: 'enrolled'; session: DashboardSession; token: string; recoveryCodes: string[] } | Exclude<CodeResult, { outcome: 'next' }>
  > {
    const session = await this.session(token);
    if (!session || session.stage !== 'enrol') return { outcome: 'refused', reason: 'wrong' };
    const user = session.user;
    const attempt = await this.people.beginAttempt(user.userId, LOCKOUT_FAILURES, LOCKOUT_MINUTES);
    if (attempt.refused) {
      await this.people.endSessionsOf(user.userId);
      return { outcome: 'locked', retryAfterSeconds: attempt.lockedSeconds };
    }
    const sealed = await this.people.sealedSeed(user.userId, { unenrolled: true });
    const step = sealed ? totpStepOf(this.open(sealed, user.userId), user.email, code.replace(/\s/g, '').slice(0, 16)) : null;
    if (step === null) {
      await this.audit({ ...actor(user), action: 'mfa:enrol', result: 'refused', detail: { reason: 'wrong' }, address });
      const locked = await this.failed(user, attempt.attempt, address);
      return locked ? { outcome: 'locked', retryAfterSeconds: LOCKOUT_MINUTES * 60 } : { outcome: 'refused', reason: 'wrong' };
    }
    const recoveryCodes = newRecoveryCodes();
    await this.people.confirmEnrolment(
      user.userId,
      step,
      recoveryCodes.map((c) => recoveryCodeHash(c)!),
    );
    await this.audit({ ...actor(user), action: 'mfa:enrol', result: 'succeeded', address });
    return { outcome: 'enrolled', ...(await this.advance(token, user, address)), recoveryCodes };
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
    const attempt = await this.people.beginAttempt(user.userId, LOCKOUT_FAILURES, LOCKOUT_MINUTES);
    if (attempt.refused) {
      await this.people.endSessionsOf(user.userId);
      return { outcome: 'locked', retryAfterSeconds: attempt.lockedSeconds };
    }
    const currentHash = await this.people.passwordHash(user.userId);
    if (!currentHash || !(await verifyPassword(currentHash, current.slice(0, 1024)))) {
      const outcome = await refuse('wrong-current');
      if (await this.failed(user, attempt.attempt, address)) return { outcome: 'locked', retryAfterSeconds: LOCKOUT_MINUTES * 60 };
      return outcome;
    }
    await this.people.refundAttempt(user.userId, attempt.attempt, LOCKOUT_FAILURES);
    const problem = passwordProblem(next, user.email);
    if (problem) return refuse(problem);
    const history = await this.people.passwordHistory(user.userId, PASSWORD_HISTORY);
    for (const earlier of [currentHash, ...history]) if (await verifyPassword(earlier, next)) return refuse('reused');
    await this.people.changePassword(user.userId, await hashPassword(next), sha256(token));
    await this.audit({ ...actor(user), action: 'password:change', result: 'succeeded', address });
    return { outcome: 'changed', ...(await this.advance(token, user, address)) };
  }

  async signOut(token: string): Promise<void> {
    await this.people.endSession(sha256(token));
  }

  /**
   * Removes what has ended: sessions (an ended one is refused either way) and
   * sign-in counters whose window is over. Run now and then by the dashboard.
   */
  async purgeExpired(): Promise<void> {
    await this.people.purgeExpired();
  }

  /** Appends an entry to the audit log (see AuditLog). */
  audit(entry: AuditEntry): Promise<void> {
    return this.log.append(entry);
  }

  /** The audit log of a business, newest first, a page at a time. */
  auditLog(businessId: string, options: { limit: number; before?: string }): Promise<AuditRecord[]> {
    return this.log.page(businessId, options);
  }

  /** Chains the entries that wait for their seal (see AuditLog.seal); how many. */
  sealAudit(): Promise<number> {
    return this.log.seal();
  }

  /** The audit log itself, for its sealer (AuditSealer). */
  get auditLogStore(): AuditLog {
    return this.log;
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

  /**
   * The next stage of a signing-in session: a new password when one is due,
   * else signed in (its idle time from now). The session's token and form
   * token are renewed (contract §27): a token seen before the second factor
   * (or the password change) is worth nothing after it.
   */
  private async advance(token: string, user: DashboardUser, address: string): Promise<{ session: DashboardSession; token: string }> {
    const renewed = crypto.randomBytes(32).toString('base64url');
    const csrfToken = crypto.randomBytes(32).toString('base64url');
    const updated = await this.people.advanceSession(
      sha256(token),
      { tokenHash: sha256(renewed), csrfToken },
      user.userId,
      SIGN_IN_STEP_MINUTES,
      this.idleMinutes,
    );
    if (updated.stage === 'signed-in') await this.audit({ ...actor(user), action: 'sign-in', result: 'succeeded', address });
    return { session: { user, csrfToken: updated.csrfToken, stage: updated.stage }, token: renewed };
  }

  /**
   * A failed attempt (counted when it began): the one that brought the count
   * to the limit locked the account; its sessions end and the lock is
   * audited. True when this one locked it.
   */
  private async failed(user: DashboardUser, attempt: number, address: string): Promise<boolean> {
    if (attempt !== LOCKOUT_FAILURES) return false;
    await this.people.endSessionsOf(user.userId);
    await this.audit({
      ...actor(user),
      action: 'lock',
      result: 'succeeded',
      detail: { failures: LOCKOUT_FAILURES, minutes: LOCKOUT_MINUTES },
      address,
    });
    return true;
  }

  /** The keyed hash an unknown email is counted under, per business (as people are). */
  private unknownEmailKey(email: string, businessId: string): string {
    return crypto.createHmac('sha256', this.emailKey).update(`${businessId}\n${email.toLowerCase()}`).digest('hex');
  }

  /** Audits an attempt refused without a check at most once per address and minute (contract §27): no one grows the log at will. */
  private async auditRefusal(address: string, write: () => Promise<void>): Promise<void> {
    if ((await take(this.refusalsAudited, address)) === 0) await write();
  }

  /** `secrets:rotate-master-key` (contract §22): every second-factor seed opened with either master key and sealed again under the current one, in the caller's transaction; how many. */
  resealSecondFactors(tx: Transaction): Promise<number> {
    return this.people.resealSecondFactors(tx, (sealed, userId) => this.seal(this.open(sealed, userId), userId));
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

/**
 * Takes one point of `key` before anything is checked: 0 when taken, or the
 * seconds until the key may try again (rate-limiter-flexible's consume
 * refuses past its points, atomically in its store).
 */
async function take(limiter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
  }
}
