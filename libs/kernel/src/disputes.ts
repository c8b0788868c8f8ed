/**
 * The words of disputes (contract §21), shared by the disputes context and
 * the payment intent that shows its own: a dispute's statuses, its reasons,
 * and which statuses keep the disputed amount away from the merchant.
 */
export const DISPUTE_STATUSES = ['NEEDS_RESPONSE', 'UNDER_REVIEW', 'WON', 'LOST', 'ACCEPTED'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const DISPUTE_REASONS = [
  'FRAUDULENT',
  'PRODUCT_NOT_RECEIVED',
  'PRODUCT_UNACCEPTABLE',
  'DUPLICATE',
  'CREDIT_NOT_PROCESSED',
  'SUBSCRIPTION_CANCELED',
  'GENERAL',
] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/** Where a dispute comes from: the processor that collected the payment. */
export const DISPUTE_PROCESSORS = ['SANDBOX', 'MERCADO_PAGO', 'DLOCAL'] as const;
export type DisputeProcessor = (typeof DISPUTE_PROCESSORS)[number];

/** Closed: the processor decided (WON, LOST) or the merchant gave up (ACCEPTED). */
export function isClosedDispute(status: DisputeStatus): boolean {
  return status === 'WON' || status === 'LOST' || status === 'ACCEPTED';
}

/** Every dispute but a won one keeps its amount: debited from the balance and no longer refundable. */
export function disputeHoldsAmount(status: DisputeStatus): boolean {
  return status !== 'WON';
}
