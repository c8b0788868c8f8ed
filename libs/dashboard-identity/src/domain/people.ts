import type { PasswordProblem } from '../password-policy';
import type { Role } from '../roles';

/**
 * The dashboard's people and sessions as the rest of the context sees them
 * (contracts §18 and §22), and the rules' numbers: idle time, lockout,
 * throttling.
 */

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
  /** `token`: the session's new token (renewed at every stage), for the cookie. */
  | { readonly outcome: 'next'; readonly session: DashboardSession; readonly token: string }
  | { readonly outcome: 'refused'; readonly reason: 'wrong' | 'reused' }
  | { readonly outcome: 'locked'; readonly retryAfterSeconds: number };

export type PasswordChangeResult =
  | { readonly outcome: 'changed'; readonly session: DashboardSession; readonly token: string }
  | { readonly outcome: 'refused'; readonly problem: PasswordProblem | 'wrong-current' }
  | { readonly outcome: 'locked'; readonly retryAfterSeconds: number };

/** A person of the team page: when they are locked out, and whether their second factor is enrolled. */
export interface TeamMember extends DashboardUser {
  readonly createdAt: Date;
  readonly lockedUntil: Date | null;
  readonly mfaEnrolled: boolean;
  /** When the person was disabled (contract §27), or null. */
  readonly disabledAt: Date | null;
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
export const SIGN_IN_FAILURES_PER_ADDRESS = 8;
/** A person who stopped being an admin this recently is reset by the operator's command only (contract §30). */
export const RECENT_ADMIN_DAYS = 30;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/** What an email of a person of the dashboard must look like. */
export function isDashboardEmail(email: string): boolean {
  return /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{1,63}$/.test(email);
}

export class IdentityError extends Error {}
