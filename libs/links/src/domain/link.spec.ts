import { asBusinessId, asMerchantId, asPaymentIntentId, Currency, DomainError, Money } from '@pcs/kernel';
import { asLinkId, Link, LinkTerms } from './link';

const now = new Date('2026-11-23T12:00:00Z');
const DAY = 24 * 3600 * 1000;
const terms: LinkTerms = {
  amount: Money.ofMinor(122000, Currency.UYU),
  vatRateBp: 2200,
  countryId: 'ury',
  countryProcessorIds: ['cp1', 'cp1', 'cp2'],
};
const ids = { linkId: asLinkId('l1'), businessId: asBusinessId('b1'), merchantId: asMerchantId('m1') };
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof DomainError ? error.code : 'other';
  }
  return null;
};

describe('Link', () => {
  it('expires seven days after creation unless told otherwise, within a year and never in the past', () => {
    expect(Link.create(ids, terms, {}, now).snapshot().expirationDate).toEqual(new Date(now.getTime() + 7 * DAY));
    expect(code(() => Link.create(ids, terms, { expirationDate: now }, now))).toBe('INVALID_REQUEST');
    expect(code(() => Link.create(ids, terms, { expirationDate: new Date(now.getTime() + 366 * DAY) }, now))).toBe('INVALID_REQUEST');
    expect(code(() => Link.create(ids, { ...terms, countryProcessorIds: [] }, {}, now))).toBe('INVALID_REQUEST');
    expect(Link.create(ids, terms, {}, now).snapshot().countryProcessorIds).toEqual(['cp1', 'cp2']);
  });

  it('derives its status: ACTIVE, EXPIRED once the date passes, USED once paid (USED wins)', () => {
    const link = Link.create(ids, terms, { expirationDate: new Date(now.getTime() + 1000) }, now);
    expect(link.statusAt(now)).toBe('ACTIVE');
    expect(link.statusAt(new Date(now.getTime() + 1000))).toBe('EXPIRED');
    link.use(asPaymentIntentId('pi1'), now);
    expect(link.statusAt(new Date(now.getTime() + 5000))).toBe('USED');
  });

  it('is used once: a second use, an update or a delete of a used link are refused and change nothing', () => {
    const link = Link.create(ids, terms, {}, now);
    link.use(asPaymentIntentId('pi1'), now);
    const before = link.snapshot();
    expect(code(() => link.use(asPaymentIntentId('pi2'), now))).toBe('LINK_ALREADY_USED');
    expect(code(() => link.update({ description: 'x' }, now))).toBe('LINK_ALREADY_USED');
    expect(code(() => link.delete(now))).toBe('ERROR_DELETING_LINK');
    expect(link.snapshot()).toEqual(before);
  });

  it('refuses to change or be paid once expired, but can still be deleted', () => {
    const link = Link.create(ids, terms, { expirationDate: new Date(now.getTime() + 1000) }, now);
    const later = new Date(now.getTime() + 2000);
    expect(code(() => link.update({ description: 'x' }, later))).toBe('LINK_EXPIRED');
    expect(code(() => link.use(asPaymentIntentId('pi1'), later))).toBe('LINK_EXPIRED');
    link.delete(later);
    expect(link.isDeleted).toBe(true);
  });
});
