import { disputeNotice } from './dlocal-notifications';

/** dLocal's chargeback notification as its documentation shows it. */
const documented = {
  id: 'CHAR42342',
  payment_id: 'PAY245235',
  amount: 100.0,
  currency: 'USD',
  status: 'COMPLETED',
  status_code: 200,
  status_detail: 'The chargeback was executed.',
  created_date: '2018-02-15T15:14:52-00:00',
  order_id: 'merchant_num_123456',
};

const statusOf = (status: string) => {
  const notice = disputeNotice({ ...documented, status }, 'payin-1');
  return notice.kind === 'DISPUTE' ? notice.dispute.status : notice.kind;
};

describe('dLocal chargebacks as disputes (contract §21)', () => {
  it('reads the documented notification: the case, our payin, minor units, no reason or due date given', () => {
    expect(disputeNotice(documented, 'payin-1')).toEqual({
      kind: 'DISPUTE',
      dispute: {
        reference: 'CHAR42342',
        chargeId: 'payin-1',
        amount: 10000,
        currency: 'USD',
        reason: 'GENERAL',
        status: 'NEEDS_RESPONSE',
        evidenceDueBy: null,
      },
    });
  });

  it('follows dLocal’s chargeback statuses, and opens nothing for an inquiry', () => {
    expect(statusOf('PENDING')).toBe('NEEDS_RESPONSE');
    expect(statusOf('DISPUTE_RECEIVED')).toBe('UNDER_REVIEW');
    expect(statusOf('IN_DISPUTE')).toBe('UNDER_REVIEW');
    expect(statusOf('DISPUTE_LOST')).toBe('LOST');
    expect(statusOf('REVERSAL')).toBe('WON');
    expect(statusOf('CANCELLED')).toBe('WON');
    expect(statusOf('INQUIRY')).toBe('IGNORED');
    expect(statusOf('SOMETHING_NEW')).toBe('IGNORED');
  });
});
