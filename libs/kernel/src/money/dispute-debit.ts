import { disputeHoldsAmount, DisputeStatus } from '../disputes';

/** A refund the processor made on a payment (approved, money moved there), as a dispute's cap counts it. */
export interface ProcessorMadeRefund {
  /** Minor units. */
  readonly amount: number;
  /** The lost claim this refund ended (its money left with that claim's debit), or null. */
  readonly settlesDisputeId: string | null;
}

/** A dispute of a payment as its cap reads it. */
export interface DisputeHold {
  readonly disputeId: string;
  readonly status: DisputeStatus;
  /** The disputed amount, minor units. */
  readonly amount: number;
  /** A lost claim that a refund of the processor ended: that refund holds its money, not the claim. */
  readonly settledByRefund?: boolean;
}

/**
 * A dispute's debit (contract §28): what the processor takes. Nothing once the dispute is won;
 * otherwise the disputed amount, capped at the payment's `received` amount less the refunds the
 * processor actually made (a refund that ended this very claim is the claim's money, not a
 * refund before it) and less what the payment's other disputes hold. Never below zero.
 * Example: a chargeback of 100.00 on a payment of 100.00 refunded 30.00 at the processor debits 70.00.
 */
export function disputeDebit(
  dispute: DisputeHold,
  received: number,
  refundedAtProcessor: readonly ProcessorMadeRefund[],
  others: readonly DisputeHold[],
): number {
  if (!disputeHoldsAmount(dispute.status)) return 0;
  const refunded = refundedAtProcessor
    .filter((refund) => refund.settlesDisputeId !== dispute.disputeId)
    .reduce((sum, refund) => sum + refund.amount, 0);
  const held = others
    .filter((other) => other.disputeId !== dispute.disputeId && disputeHoldsAmount(other.status) && !other.settledByRefund)
    .reduce((sum, other) => sum + other.amount, 0);
  return Math.min(dispute.amount, Math.max(0, received - refunded - held));
}
