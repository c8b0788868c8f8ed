import { disputeNotice } from './mercado-pago-disputes';

/** Mercado Pago's chargeback as its API reference shows it (the example of its "Manage chargebacks" guide). */
const documented = {
  id: '234000062890459000',
  payments: [86439942806],
  currency: 'ARS',
  amount: 1000.5,
  reason: 'general',
  coverage_applied: null,
  coverage_elegible: true,
  documentation_required: false,
  documentation_status: 'not_supplied',
  documentation: [],
  date_documentation_deadline: null,
  date_created: null,
  date_last_updated: '2024-10-17T12:48:24.000-04:00',
  live_mode: true,
};

const reportOf = (chargeback: object) => {
  const notice = disputeNotice('234000062890459000', { ...documented, ...chargeback }, 'payin-1');
  if (notice.kind !== 'DISPUTE') throw new Error(`not a dispute: ${notice.kind}`);
  return notice.dispute;
};

describe('Mercado Pago chargebacks as disputes (contract §21)', () => {
  it('reads the documented example: the case id, our payin, minor units, no due date, still open', () => {
    expect(reportOf({})).toEqual({
      reference: '234000062890459000',
      chargeId: 'payin-1',
      amount: 100050,
      currency: 'ARS',
      reason: 'GENERAL',
      status: 'NEEDS_RESPONSE',
      evidenceDueBy: null,
    });
  });

  it('decides by coverage_applied: true WON, false LOST, null open (under review once Mercado Pago has documentation)', () => {
    expect(reportOf({ coverage_applied: true }).status).toBe('WON');
    expect(reportOf({ coverage_applied: false }).status).toBe('LOST');
    expect(reportOf({ documentation_status: 'review_pending' }).status).toBe('UNDER_REVIEW');
    expect(reportOf({ documentation_status: 'pending' }).status).toBe('NEEDS_RESPONSE');
  });

  it('takes the documentation deadline as the due date and maps the reasons it knows', () => {
    expect(reportOf({ date_documentation_deadline: '2018-12-08T09:50:37.000-04:00' }).evidenceDueBy).toEqual(
      new Date('2018-12-08T13:50:37.000Z'),
    );
    expect(reportOf({ reason: 'fraud' }).reason).toBe('FRAUDULENT');
    expect(reportOf({ reason: 'something_new' }).reason).toBe('GENERAL');
  });

  it('ignores a case without a currency it knows or a positive amount', () => {
    expect(disputeNotice('1', { ...documented, currency: 'XXX' }, 'p').kind).toBe('IGNORED');
    expect(disputeNotice('1', { ...documented, amount: 0 }, 'p').kind).toBe('IGNORED');
  });
});
