import type { PaymentIntentStatus } from './payment-intent';

/** The B2B API's status codes (contract §9, §13). */
export const B2B_STATUS_CODES = [
  'PAYMENT_METHOD_PENDING',
  'PAYMENT_PENDING',
  'APPROVED',
  'REJECTED',
  'CANCELLED',
  'EXPIRED',
  'REFUNDED',
  'PARTIALLY_REFUNDED',
] as const;
export type B2bStatusCode = (typeof B2B_STATUS_CODES)[number];

/** Why a checkout left unpaid was cancelled (contract §13): its B2B code is EXPIRED, not CANCELLED. */
export const CHECKOUT_EXPIRED_REASON = 'EXPIRED';

const DESCRIPTIONS: Record<B2bStatusCode, string> = {
  PAYMENT_METHOD_PENDING: 'The payer has not chosen a payment method yet.',
  PAYMENT_PENDING: 'The payment is at the gateway or being processed.',
  APPROVED: 'The payment was approved.',
  REJECTED: 'The last attempt was rejected; the payer may try again while the checkout is open.',
  CANCELLED: 'The payment intent was cancelled.',
  EXPIRED: 'The checkout expired unpaid.',
  REFUNDED: 'The payment was refunded in full.',
  PARTIALLY_REFUNDED: 'Part of the payment was refunded.',
};

/** What the B2B code is read from: the intent's state, its last error, and why it was cancelled. */
export interface B2bStatusSource {
  readonly status: PaymentIntentStatus;
  readonly lastPaymentError: string | null;
  readonly cancellationReason: string | null;
}

/** The one mapping from a payment intent to its B2B status code. */
export function b2bStatusCode({ status, lastPaymentError, cancellationReason }: B2bStatusSource): B2bStatusCode {
  switch (status) {
    case 'REQUIRES_PAYMENT_INSTRUMENT':
    case 'REQUIRES_CONFIRMATION':
      return lastPaymentError ? 'REJECTED' : 'PAYMENT_METHOD_PENDING';
    case 'REQUIRES_ACTION':
    case 'PROCESSING':
      return 'PAYMENT_PENDING';
    case 'SUCCEEDED':
      return 'APPROVED';
    case 'PARTIALLY_REFUNDED':
      return 'PARTIALLY_REFUNDED';
    case 'REFUNDED':
      return 'REFUNDED';
    case 'CANCELED':
      return cancellationReason === CHECKOUT_EXPIRED_REASON ? 'EXPIRED' : 'CANCELLED';
  }
}

export function b2bStatus(source: B2bStatusSource): { code: B2bStatusCode; description: string } {
  const code = b2bStatusCode(source);
  return { code, description: DESCRIPTIONS[code] };
}

/**
 * The same mapping read backwards, for the list's `status` filter (B5): the
 * intent states, and whether the last error or the expiry reason must be
 * there, that give the code. Unit-tested against b2bStatusCode over every state.
 */
export interface B2bStatusCondition {
  readonly statuses: readonly PaymentIntentStatus[];
  /** true: a last payment error; false: none; undefined: either. */
  readonly rejected?: boolean;
  /** true: cancelled because the checkout expired; false: cancelled otherwise; undefined: either. */
  readonly expired?: boolean;
}

export function b2bStatusCondition(code: B2bStatusCode): B2bStatusCondition {
  switch (code) {
    case 'PAYMENT_METHOD_PENDING':
      return { statuses: ['REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_CONFIRMATION'], rejected: false };
    case 'REJECTED':
      return { statuses: ['REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_CONFIRMATION'], rejected: true };
    case 'PAYMENT_PENDING':
      return { statuses: ['REQUIRES_ACTION', 'PROCESSING'] };
    case 'APPROVED':
      return { statuses: ['SUCCEEDED'] };
    case 'PARTIALLY_REFUNDED':
      return { statuses: ['PARTIALLY_REFUNDED'] };
    case 'REFUNDED':
      return { statuses: ['REFUNDED'] };
    case 'CANCELLED':
      return { statuses: ['CANCELED'], expired: false };
    case 'EXPIRED':
      return { statuses: ['CANCELED'], expired: true };
  }
}
