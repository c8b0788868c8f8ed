/**
 * One entry of the audit (contract §18, §27, §29): who, what, to what, how it ended; never a body or
 * a secret. The dashboard identity's audit log keeps it; the APIs' HTTP layer writes it through its
 * AuditTrail port.
 */
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
  /** The client's address (the dashboard's request), or none (an operator command). */
  readonly address?: string | null;
}
