import { B2B_STATUS_CODES, b2bStatus, b2bStatusCode, b2bStatusCondition, B2bStatusSource, CHECKOUT_EXPIRED_REASON } from './b2b-status';
import { PAYMENT_INTENT_STATUSES } from './payment-intent';

const ERRORS = [null, 'the payer rejected the payment'];
const REASONS = [null, CHECKOUT_EXPIRED_REASON, 'cancelled by the merchant'];
const EVERY_SOURCE: B2bStatusSource[] = PAYMENT_INTENT_STATUSES.flatMap((status) =>
  ERRORS.flatMap((lastPaymentError) => REASONS.map((cancellationReason) => ({ status, lastPaymentError, cancellationReason }))),
);

describe('the B2B status code of a payment intent (contract §9, §13)', () => {
  it.each([
    ['REQUIRES_PAYMENT_INSTRUMENT', null, null, 'PAYMENT_METHOD_PENDING'],
    ['REQUIRES_CONFIRMATION', null, null, 'PAYMENT_METHOD_PENDING'],
    ['REQUIRES_PAYMENT_INSTRUMENT', 'the payer rejected the payment', null, 'REJECTED'],
    ['REQUIRES_ACTION', null, null, 'PAYMENT_PENDING'],
    ['PROCESSING', null, null, 'PAYMENT_PENDING'],
    ['SUCCEEDED', null, null, 'APPROVED'],
    ['PARTIALLY_REFUNDED', null, null, 'PARTIALLY_REFUNDED'],
    ['REFUNDED', null, null, 'REFUNDED'],
    ['CANCELED', null, CHECKOUT_EXPIRED_REASON, 'EXPIRED'],
    ['CANCELED', null, 'cancelled by the merchant', 'CANCELLED'],
    ['CANCELED', 'an earlier rejection', null, 'CANCELLED'],
  ] as const)('%s (error %s, reason %s) is %s', (status, lastPaymentError, cancellationReason, code) => {
    expect(b2bStatusCode({ status, lastPaymentError, cancellationReason })).toBe(code);
  });

  it('gives every state a code with an English description, and reaches every code', () => {
    const reached = new Set(EVERY_SOURCE.map(b2bStatusCode));
    expect([...reached].sort()).toEqual([...B2B_STATUS_CODES].sort());
    for (const source of EVERY_SOURCE) expect(b2bStatus(source).description).toMatch(/^[A-Z].+\.$/);
  });

  it("the list filter's condition selects exactly the intents the mapping gives that code", () => {
    for (const code of B2B_STATUS_CODES) {
      const condition = b2bStatusCondition(code);
      for (const source of EVERY_SOURCE) {
        const selected =
          condition.statuses.includes(source.status) &&
          (condition.rejected === undefined || condition.rejected === (source.lastPaymentError !== null)) &&
          (condition.expired === undefined || condition.expired === (source.cancellationReason === CHECKOUT_EXPIRED_REASON));
        expect([code, source, selected]).toEqual([code, source, b2bStatusCode(source) === code]);
      }
    }
  });
});
