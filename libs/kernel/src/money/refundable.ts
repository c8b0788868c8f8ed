/**
 * What a payment may still refund (contracts §11 and §21), one rule for the
 * aggregate and for every page that shows it: what was received, less the
 * refunds that hold their amount (approved, or under way at a gateway; a
 * failed one gives it back) and the disputes that hold theirs (every one but
 * a won one); never below zero. Minor units.
 */
export function refundableMinor(received: number, refunded: number, disputed: number): number {
  return Math.max(received - refunded - disputed, 0);
}

/** Refund states whose amount is no longer refundable: approved, or at their gateway. */
export const REFUND_HOLDING_STATUSES = ['APPROVED', 'PENDING', 'SCHEDULED'] as const;

export function refundHoldsAmount(status: string): boolean {
  return (REFUND_HOLDING_STATUSES as readonly string[]).includes(status);
}
