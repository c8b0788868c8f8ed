import { asBusinessId, asMerchantId, Currency, DomainError } from '@pcs/kernel';
import { Payout } from './payout';

const now = new Date('2026-11-25T12:00:00Z');
const made = (rail = 'SANDBOX') =>
  Payout.create({
    payoutId: 'p',
    businessId: asBusinessId('b'),
    merchantId: asMerchantId('m'),
    currency: Currency.UYU,
    amount: 10_000,
    rail,
    origin: 'REQUESTED',
    destination: { settlementAccountId: 's', bankId: 'k', accountNumber: '1234567', accountType: 'CHECKING', holderDocument: null },
    transactionCount: 3,
    scheduledFor: null,
    createdAt: now,
  });

describe('Payout (contracts §19, §24)', () => {
  it('goes PENDING → IN_TRANSIT → PAID, each step once, each with its event', () => {
    const payout = made();
    expect(payout.pullEvents()).toEqual(['payout.created']);
    expect(payout.markInTransit(now, '2026-11-26')).toBe(true);
    expect(payout.markInTransit(now, '2026-11-26')).toBe(false);
    expect(payout.markPaid(now, '2026-11-26', 'REF-1')).toBe(true);
    expect(payout.markPaid(now, '2026-11-27', 'REF-2')).toBe(false);
    expect(payout.fail(now, 'late')).toBe(false);
    expect(payout.pullEvents()).toEqual(['payout.in_transit', 'payout.paid']);
    expect(payout.snapshot()).toMatchObject({ status: 'PAID', bankReference: 'REF-1', arrivalDate: '2026-11-26', paidAt: now });
  });

  it('fails from PENDING or IN_TRANSIT, once', () => {
    const payout = made();
    payout.markInTransit(now, null);
    expect(payout.fail(now, 'account closed')).toBe(true);
    expect(payout.fail(now, 'again')).toBe(false);
    expect(payout.snapshot()).toMatchObject({ status: 'FAILED', failureReason: 'account closed' });
  });

  it('cancels only a payout that has not left: PENDING, or waiting unexported in a bank file', () => {
    const pending = made();
    pending.cancel(now);
    expect(pending.status).toBe('CANCELED');
    const sandbox = made();
    sandbox.markInTransit(now, '2026-11-26');
    expect(() => sandbox.cancel(now)).toThrow(DomainError);
    const file = made('BANK_FILE');
    file.markInTransit(now, null);
    expect(file.hasLeft).toBe(false);
    file.cancel(now);
    expect(file.status).toBe('CANCELED');
    const exported = made('BANK_FILE');
    exported.markInTransit(now, null);
    expect(exported.markExported(now, 'batch-1')).toBe(true);
    expect(exported.markExported(now, 'batch-2')).toBe(false);
    expect(exported.snapshot().batchId).toBe('batch-1');
    expect(() => exported.cancel(now)).toThrow(DomainError);
  });

  it('is returned by the bank only once PAID, once, with its event; news of it changes nothing after', () => {
    const payout = made();
    payout.markInTransit(now, '2026-11-26');
    expect(payout.markReturned(now, 'too early')).toBe(false);
    payout.markPaid(now, '2026-11-26', 'REF-1');
    payout.pullEvents();
    expect(payout.markReturned(now, 'account closed')).toBe(true);
    expect(payout.markReturned(now, 'again')).toBe(false);
    expect(payout.fail(now, 'late')).toBe(false);
    expect(payout.markPaid(now, '2026-11-27', 'REF-2')).toBe(false);
    expect(payout.pullEvents()).toEqual(['payout.returned']);
    expect(payout.snapshot()).toMatchObject({
      status: 'RETURNED',
      failureReason: 'account closed',
      returnedAt: now,
      bankReference: 'REF-1',
    });
  });

  it('moves a positive amount only', () => {
    expect(() => Payout.create({ ...made().snapshot(), amount: 0 })).toThrow();
  });
});
