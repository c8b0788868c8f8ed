/**
 * What a payment may still refund (contracts §11, §21 and §28), the aggregate's
 * rule, which the API shows as `refundableAmount`: what was received, less the
 * refunds that hold their amount (approved, or under way at a gateway; a
 * failed one gives it back) and the disputes that hold theirs (every one but
 * a won one); never below zero. Minor units.
 */
export function refundableMinor(received: number, refunded: number, disputed: number): number {
  return Math.max(received - refunded - disputed, 0);
}
