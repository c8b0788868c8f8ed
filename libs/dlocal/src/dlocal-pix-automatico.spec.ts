import type { RuntimeSettings } from '@pcs/config';
import type { GatewayAccounts } from '@pcs/gateway-accounts';
import { DLocalGateway, eventOfPayment } from './dlocal.gateway';
import type { DLocalRecords } from './persistence/dlocal-records.repository';

/**
 * Pix Automático's answers as dLocal's "Payment retries" shows them (contract §31): a retry whose attempt failed stays
 * PENDING at dLocal with "attempt failed" in its detail; for us that attempt ended unpaid (a soft decline: dLocal
 * retries), news of its own beside the PENDING that opened it. The last retry's refusal, 305, is the table's.
 */
describe('dLocal’s Pix Automático answers', () => {
  const gateway = new DLocalGateway({} as GatewayAccounts, {} as DLocalRecords, {} as RuntimeSettings);
  const payment = { id: 'D-4-1', amount: 89.9, currency: 'BRL', payment_method_id: 'XA', status: 'PENDING', status_code: '100' };

  it('reads a failed attempt of a pending retry as a rejection of that attempt, and a plain pending one as pending', () => {
    expect(eventOfPayment({ ...payment, status_detail: 'The payment is pending.' })).toMatchObject({
      outcome: 'PENDING',
      eventId: 'payment:D-4-1:PENDING',
    });
    const failed = eventOfPayment({ ...payment, status_detail: 'The payment is pending, attempt failed.' });
    expect(failed).toMatchObject({
      outcome: 'REJECTED',
      eventId: 'payment:D-4-1:ATTEMPT_FAILED',
      error: 'dLocal: The payment is pending, attempt failed. (100)',
    });
    expect(gateway.declineKindOf(failed.error!)).toBe('SOFT');
    expect(gateway.declineKindOf('dLocal: Max attempts reached. (305)')).toBe('SOFT');
    expect(gateway.declineKindOf('dLocal: Insufficient amount. (302)')).toBe('SOFT');
  });
});
