import type { Role } from './roles';
import type { DashboardUser, SessionStage, TeamMember } from './domain/people';
import { Transaction } from '@pcs/kernel';

/** A person as the password step reads them. */
export interface SignInRecord {
  readonly user: DashboardUser;
  readonly passwordHash: string;
  readonly enrolled: boolean;
  /** Seconds the lockout still lasts; null or ≤ 0 when not locked. */
  readonly lockedSeconds: number | null;
}

/** A live session as a request sees it. */
export interface SessionRecord {
  readonly user: DashboardUser;
  readonly csrfToken: string;
  readonly stage: SessionStage;
}

/**
 * Where the dashboard's people, their second factors, password histories and
 * sessions are kept (port; the PostgreSQL adapter is in persistence/).
 * Sessions are known by their token's SHA-256 only. Each method is one unit
 * of work: what must change together changes in one transaction or one
 * statement.
 */
export abstract class PeopleRepository {
  /** Every second-factor seed sealed again (`reseal` takes each and its person's id), rows locked in the transaction; how many. */
  abstract resealSecondFactors(tx: Transaction, reseal: (sealed: string, userId: string) => string): Promise<number>;
  /** A new person with a password that must be changed at the first sign-in (and its history); false when the email is taken. */
  abstract insert(user: DashboardUser, passwordHash: string): Promise<boolean>;
  /** A new generated password for the person of this email, to be changed at the next sign-in; every session of theirs ends. */
  abstract resetPassword(email: string, passwordHash: string): Promise<DashboardUser | null>;
  /** The live people of a business, by email (at most 500), with their lock and second factor. */
  abstract team(businessId: string): Promise<TeamMember[]>;
  /** A person of the business (`disabledToo`: a disabled one too). */
  abstract member(businessId: string, userId: string, options?: { disabledToo?: boolean }): Promise<DashboardUser | null>;
  abstract byEmail(email: string, options?: { disabledToo?: boolean }): Promise<DashboardUser | null>;
  /**
   * Disables or enables a person, or changes their role (contract §27), under
   * the lock of the business's admins: never the last enabled admin of the
   * whole business disabled or demoted ('last-admin'). A disabled person's
   * sessions end in the same transaction; enabling clears their failures.
   */
  abstract changeStanding(userId: string, change: StandingChange): Promise<'changed' | 'last-admin' | 'unknown'>;
  /** The live person of `businessId` with that email, as the password step needs them. */
  abstract forSignIn(email: string, businessId: string): Promise<SignInRecord | null>;
  abstract unlock(userId: string): Promise<void>;
  /** Forgets the second factor and the recovery codes; every session ends. */
  abstract resetSecondFactor(userId: string): Promise<void>;
  /** The sealed TOTP seed (only while not enrolled yet, with `unenrolled`); null when none. */
  abstract sealedSeed(userId: string, options?: { unenrolled?: boolean }): Promise<string | null>;
  /** Keeps a seed for an enrolment not confirmed yet. */
  abstract keepSeed(userId: string, sealedSeed: string): Promise<void>;
  /** Takes a TOTP time step: false when this step or a later one was taken already (a code seen before). */
  abstract takeStep(userId: string, step: number): Promise<boolean>;
  /** Spends a recovery code by its hash: false when it is not one of the person's unspent codes. */
  abstract spendRecoveryCode(userId: string, codeHash: string): Promise<boolean>;
  abstract recoveryCodesLeft(userId: string): Promise<number>;
  /** The enrolment confirmed at this step, with new recovery codes (their hashes) in place of any before. */
  abstract confirmEnrolment(userId: string, step: number, codeHashes: readonly string[]): Promise<void>;
  abstract passwordHash(userId: string): Promise<string | null>;
  /** The person's last `count` passwords (hashes), newest first. */
  abstract passwordHistory(userId: string, count: number): Promise<string[]>;
  /** The person's own new password (and its history); every session but `keptTokenHash` ends. */
  abstract changePassword(userId: string, passwordHash: string, keptTokenHash: string): Promise<void>;
  /**
   * Counts an attempt before its password or code is checked (contract §27),
   * in one statement: refused (nothing counted) while the account is locked;
   * a lock that has expired starts the count again at 0; the attempt that
   * brings the count to `failures` locks the account for `minutes` at once,
   * so that a burst of parallel guesses checks at most `failures`. Answers
   * the attempt's number, or the seconds the lock has left when refused.
   */
  abstract beginAttempt(
    userId: string,
    failures: number,
    minutes: number,
  ): Promise<{ readonly refused: false; readonly attempt: number } | { readonly refused: true; readonly lockedSeconds: number }>;
  /**
   * The same count for an email no person has (contract §30: sign-in tells
   * nothing), keyed by `emailKey` (a keyed hash of the email): counted,
   * locked and answered exactly as beginAttempt, in one statement.
   */
  abstract beginUnknownAttempt(
    emailKey: string,
    failures: number,
    minutes: number,
  ): Promise<{ readonly refused: false; readonly attempt: number } | { readonly refused: true; readonly lockedSeconds: number }>;
  /**
   * Takes back an attempt that turned out right without ending the sign-in
   * (a right password, before its second factor): the count goes down by one
   * and, when this attempt was the one that locked, the lock goes.
   */
  abstract refundAttempt(userId: string, attempt: number, failures: number): Promise<void>;
  abstract endSessionsOf(userId: string): Promise<void>;
  abstract openSession(tokenHash: string, userId: string, csrfToken: string, minutes: number, stage: SessionStage): Promise<void>;
  /**
   * The live session of this token hash, of a person neither disabled nor
   * locked, kept alive: a signed-in one until `idleMinutes` from now, never
   * past `maxHours` after signing in.
   */
  abstract touchSession(tokenHash: string, maxHours: number, idleMinutes: number): Promise<SessionRecord | null>;
  /**
   * The next stage of a signing-in session, clearing the person's failures:
   * a new password when one is due (for `stepMinutes`), else signed in (for
   * `idleMinutes`); the session is found by `tokenHash` and goes on under
   * the `renewed` token and form token.
   */
  abstract advanceSession(
    tokenHash: string,
    renewed: { readonly tokenHash: string; readonly csrfToken: string },
    userId: string,
    stepMinutes: number,
    idleMinutes: number,
  ): Promise<{ csrfToken: string; stage: SessionStage }>;
  abstract endSession(tokenHash: string): Promise<void>;
  /** Removes ended sessions and sign-in counters whose window is over. */
  /** Whether the person is an admin, or stopped being one less than `days` ago (contract §30). */
  abstract isOrWasAdmin(userId: string, days: number): Promise<boolean>;
  abstract purgeExpired(): Promise<void>;
}

/** What `changeStanding` changes: whether the person is disabled, and their role. */
export interface StandingChange {
  readonly disabled?: boolean;
  readonly role?: Role;
}
