import { QueryFailedError } from 'typeorm';
import { AlreadyRecordedError } from '../domain/already-recorded';
import { recordedOnce } from './already-recorded';

/**
 * Where the database's word on a taken id becomes the domain's: a unique violation of an intent's,
 * a B2B checkout's or a payin's primary key is AlreadyRecordedError; anything else (another
 * constraint, another failure) passes through. refunds.service.int-spec.ts and
 * test/idempotency.e2e-spec.ts race real writes on PostgreSQL.
 */
const violation = (constraint: string, code = '23505') =>
  new QueryFailedError('INSERT …', [], Object.assign(new Error('duplicate key value'), { code, constraint }));

describe('recordedOnce', () => {
  it('says which record was there already, by the key the database names', async () => {
    const refused = (error: Error) => recordedOnce(() => Promise.reject(error)).catch((e: unknown) => e);
    expect(await refused(violation('payment_intent_pkey'))).toEqual(new AlreadyRecordedError('PAYMENT_INTENT'));
    expect(await refused(violation('b2b_checkout_pkey'))).toEqual(new AlreadyRecordedError('PAYMENT_INTENT'));
    expect(await refused(violation('payin_pkey'))).toMatchObject({ record: 'PAYIN' });
    // Another unique key (a payer's document), or a failure that is no unique violation: unchanged.
    const other = violation('payer_document_key');
    expect(await refused(other)).toBe(other);
    const notUnique = violation('payin_pkey', '23503');
    expect(await refused(notUnique)).toBe(notUnique);
    expect(await recordedOnce(() => Promise.resolve('written'))).toBe('written');
  });
});
