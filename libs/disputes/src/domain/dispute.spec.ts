import { asBusinessId, asMerchantId, Currency, DomainError } from '@pcs/kernel';
import { Dispute, ProcessorVerdict } from './dispute';

const now = new Date('2026-11-25T12:00:00Z');
const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

function opened(verdict: Partial<ProcessorVerdict> = {}): Dispute {
  return Dispute.open(
    {
      disputeId: 'd1',
      businessId: asBusinessId('00000000-0000-4000-8000-000000000001'),
      merchantId: asMerchantId('00000000-0000-4000-8000-000000000002'),
      paymentIntentId: 'pi',
      chargeId: 'ch',
      currency: Currency.UYU,
      amount: 10_000,
      processor: 'SANDBOX',
      processorReference: 'case-1',
      fundsFlow: 'PLATFORM',
      kind: 'CHARGEBACK',
      createdAt: now,
    },
    { status: 'NEEDS_RESPONSE', evidenceDueBy: later(60), reason: 'FRAUDULENT', ...verdict },
  );
}

const codeOf = (run: () => void): string => {
  try {
    run();
  } catch (error) {
    return (error as DomainError).code;
  }
  return 'none';
};

describe('a dispute (contract §21)', () => {
  it('opens waiting on the merchant, or already as the processor tells it', () => {
    const dispute = opened();
    expect(dispute.status).toBe('NEEDS_RESPONSE');
    expect(dispute.pullChanges()).toEqual(['dispute.created']);
    const decided = opened({ status: 'WON' });
    expect(decided.status).toBe('WON');
    expect(decided.snapshot().closedAt).toEqual(now);
    expect(decided.pullChanges()).toEqual(['dispute.created', 'dispute.won']);
  });

  it('takes evidence only while it waits on the merchant and before its due date', () => {
    const dispute = opened();
    expect(codeOf(() => dispute.assertTakesEvidence(later(59)))).toBe('none');
    expect(codeOf(() => dispute.assertTakesEvidence(later(61)))).toBe('DISPUTE_EVIDENCE_OVERDUE');
    dispute.accept(later(1));
    expect(codeOf(() => dispute.assertTakesEvidence(later(2)))).toBe('DISPUTE_INVALID_STATE');
    // No due date: evidence is still taken.
    expect(codeOf(() => opened({ evidenceDueBy: null }).assertTakesEvidence(later(100_000)))).toBe('none');
  });

  it('is submitted once: it needs evidence, refuses a second submission while one runs, and frees itself when one fails', () => {
    const dispute = opened();
    expect(codeOf(() => dispute.beginSubmission(later(1), later(3), 0))).toBe('DISPUTE_NO_EVIDENCE');
    dispute.beginSubmission(later(1), later(3), 2);
    expect(codeOf(() => dispute.beginSubmission(later(2), later(4), 2))).toBe('DISPUTE_SUBMISSION_IN_PROGRESS');
    expect(codeOf(() => dispute.accept(later(2)))).toBe('DISPUTE_SUBMISSION_IN_PROGRESS');
    dispute.abandonSubmission(later(2));
    dispute.beginSubmission(later(2), later(4), 2);
    dispute.pullChanges();
    dispute.submitted(later(3));
    expect(dispute.status).toBe('UNDER_REVIEW');
    expect(dispute.pullChanges()).toEqual(['dispute.updated']);
    expect(codeOf(() => dispute.beginSubmission(later(4), later(6), 2))).toBe('DISPUTE_INVALID_STATE');
  });

  it('follows the processor: forward only, its decision over an acceptance, and a won case stays won', () => {
    const dispute = opened();
    dispute.pullChanges();
    dispute.follow({ status: 'UNDER_REVIEW', evidenceDueBy: later(60), reason: 'FRAUDULENT' }, later(1));
    expect(dispute.status).toBe('UNDER_REVIEW');
    dispute.follow({ status: 'NEEDS_RESPONSE', evidenceDueBy: later(60), reason: 'FRAUDULENT' }, later(2));
    expect(dispute.status).toBe('UNDER_REVIEW');
    dispute.accept(later(3));
    dispute.follow({ status: 'LOST', evidenceDueBy: later(60), reason: 'FRAUDULENT' }, later(4));
    expect(dispute.status).toBe('LOST');
    dispute.follow({ status: 'WON', evidenceDueBy: later(60), reason: 'FRAUDULENT' }, later(5));
    expect(dispute.status).toBe('WON');
    dispute.follow({ status: 'LOST', evidenceDueBy: later(60), reason: 'FRAUDULENT' }, later(6));
    expect(dispute.status).toBe('WON');
    expect(dispute.pullChanges()).toEqual(['dispute.updated', 'dispute.accepted', 'dispute.lost', 'dispute.won']);
  });

  it('tells nothing new when the processor repeats itself, and a changed due date when it moves it', () => {
    const dispute = opened();
    dispute.pullChanges();
    dispute.follow({ status: 'NEEDS_RESPONSE', evidenceDueBy: later(60), reason: 'FRAUDULENT' }, later(1));
    expect(dispute.changed).toBe(false);
    dispute.follow({ status: 'NEEDS_RESPONSE', evidenceDueBy: later(120), reason: 'GENERAL' }, later(1));
    expect(dispute.snapshot()).toMatchObject({ evidenceDueBy: later(120), reason: 'FRAUDULENT' });
    expect(dispute.pullChanges()).toEqual(['dispute.updated']);
  });
});
