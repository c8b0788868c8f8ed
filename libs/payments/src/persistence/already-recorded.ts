import { isUniqueViolation } from '@pcs/database';
import { AlreadyRecordedError } from '../domain/already-recorded';

/**
 * A write whose record's primary key is taken (an intent's, a payin's) ends in the domain's
 * AlreadyRecordedError: the constraints' names stay here, where the tables are.
 */
export async function recordedOnce<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    // A B2B intent's checkout is keyed by the intent's id and written first in its statement: a retry racing its
    // first run may collide on it first.
    if (isUniqueViolation(error, 'payment_intent_pkey') || isUniqueViolation(error, 'b2b_checkout_pkey'))
      throw new AlreadyRecordedError('PAYMENT_INTENT');
    if (isUniqueViolation(error, 'payin_pkey')) throw new AlreadyRecordedError('PAYIN');
    throw error;
  }
}
