/**
 * A write found its record there already, under the id it writes it with: the same operation (its
 * Idempotency-Key is the id) committed it meanwhile — a retry racing its own first run. This try wrote
 * nothing; the caller answers what the first run recorded. Raised by the persistence adapters, which
 * alone know how the database says so.
 */
export class AlreadyRecordedError extends Error {
  constructor(readonly record: 'PAYMENT_INTENT' | 'PAYIN') {
    super(`the ${record === 'PAYIN' ? 'payin' : 'payment intent'} is recorded already under this id`);
    this.name = 'AlreadyRecordedError';
  }
}
