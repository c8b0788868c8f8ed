import { asBusinessId, asMerchantId, Currency, DomainError, TransfersType } from '@pcs/kernel';
import { Merchant } from './merchant';
import { MerchantConfiguration } from './merchant-configuration';
import { MerchantCountryProcessor } from './merchant-country-processor';

const now = new Date('2026-11-01T10:00:00Z');
const later = new Date('2026-11-02T10:00:00Z');

function newMerchant(): Merchant {
  return Merchant.create({
    merchantId: asMerchantId('m1'),
    businessId: asBusinessId('b1'),
    countryId: 'c1',
    merchantName: '  Café  ',
    currencies: [Currency.UYU],
    now,
  });
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof DomainError ? error.code : 'other';
  }
  return undefined;
}

describe('Merchant', () => {
  it('starts ONBOARDING and cannot collect until approved', () => {
    const merchant = newMerchant();
    expect(merchant.status).toBe('ONBOARDING');
    expect(merchant.snapshot().merchantName).toBe('Café');
    expect(codeOf(() => merchant.assertCanCollect())).toBe('MERCHANT_NOT_ACTIVE');
  });

  it('approval makes it ACTIVE and records approvedAt once', () => {
    const merchant = newMerchant();
    merchant.approve(now);
    expect(merchant.status).toBe('ACTIVE');
    expect(merchant.snapshot().approvedAt).toEqual(now);
    merchant.approve(later);
    expect(merchant.snapshot().approvedAt).toEqual(now);
    expect(codeOf(() => merchant.assertCanCollect())).toBeUndefined();
  });

  it('suspends only from ACTIVE, and re-approval reactivates without a new approvedAt', () => {
    const merchant = newMerchant();
    expect(codeOf(() => merchant.suspend(now))).toBe('MERCHANT_INVALID_STATE');
    merchant.approve(now);
    merchant.suspend(later);
    expect(merchant.status).toBe('SUSPENDED');
    expect(codeOf(() => merchant.assertCanCollect())).toBe('MERCHANT_NOT_ACTIVE');
    merchant.approve(later);
    expect(merchant.status).toBe('ACTIVE');
    expect(merchant.snapshot().approvedAt).toEqual(now);
  });

  it('applies only the changes that were sent', () => {
    const merchant = newMerchant();
    merchant.update(
      { email: 'Ops@Example.COM ', transfersType: TransfersType.L2L, currencies: [Currency.UYU, Currency.USD, Currency.UYU] },
      later,
    );
    const s = merchant.snapshot();
    expect(s.email).toBe('ops@example.com');
    expect(s.transfersType).toBe('L2L');
    expect(s.currencies).toEqual(['UYU', 'USD']);
    expect(s.merchantName).toBe('Café');
    expect(s.updatedAt).toEqual(later);
  });

  it('once deleted, it is gone for every operation', () => {
    const merchant = newMerchant();
    merchant.delete(later);
    expect(merchant.isDeleted).toBe(true);
    expect(codeOf(() => merchant.update({ phone: '+59899123456' }, later))).toBe('MERCHANT_NOT_FOUND');
    expect(codeOf(() => merchant.approve(later))).toBe('MERCHANT_NOT_FOUND');
    expect(codeOf(() => merchant.assertCanCollect())).toBe('MERCHANT_NOT_ACTIVE');
  });

  it('refuses an empty or overlong name at creation', () => {
    const create = (merchantName: string) => () =>
      Merchant.create({ merchantId: asMerchantId('m'), businessId: asBusinessId('b'), countryId: 'c', merchantName, currencies: [], now });
    expect(codeOf(create('   '))).toBe('ERROR_IN_UPDATE_MERCHANT');
    expect(codeOf(create('x'.repeat(129)))).toBe('ERROR_IN_UPDATE_MERCHANT');
  });
});

describe('MerchantConfiguration', () => {
  const fresh = () => MerchantConfiguration.createDefault('cfg', asMerchantId('m1'));

  it('normalises the short name and refuses malformed ones', () => {
    const configuration = fresh();
    configuration.apply({ shortName: ' Cafe-Centro ' });
    expect(configuration.snapshot().shortName).toBe('cafe-centro');
    for (const bad of ['ab', '-cafe', 'cafe-', 'café', 'a'.repeat(33), 'cafe centro']) {
      expect(codeOf(() => fresh().apply({ shortName: bad }))).toBe('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION');
    }
  });

  it('needs a short name for fast payments and an address for notifications', () => {
    expect(codeOf(() => fresh().apply({ fastPaymentsEnabled: true }))).toBe('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION');
    expect(codeOf(() => fresh().apply({ paymentSuccessNotification: true }))).toBe('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION');
    const configuration = fresh();
    configuration.apply({
      shortName: 'cafe',
      fastPaymentsEnabled: true,
      notificationEmails: ['A@x.com', 'a@x.com'],
      paymentErrorNotification: true,
    });
    expect(configuration.snapshot()).toMatchObject({
      fastPaymentsEnabled: true,
      notificationEmails: ['a@x.com'],
      paymentErrorNotification: true,
    });
  });

  it('leaves itself unchanged when a change is refused', () => {
    const configuration = fresh();
    configuration.apply({ shortName: 'cafe' });
    expect(
      codeOf(() =>
        configuration.apply({
          shortName: 'other',
          countryVats: [
            { countryId: 'c', vatRateBp: 0 },
            { countryId: 'c', vatRateBp: 2200 },
          ],
        }),
      ),
    ).toBe('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION');
    expect(configuration.snapshot().shortName).toBe('cafe');
    expect(configuration.snapshot().countryVats).toEqual([]);
  });

  it('answers the configured VAT of a country', () => {
    const configuration = fresh();
    configuration.apply({ countryVats: [{ countryId: 'ury', vatRateBp: 1000 }] });
    expect(configuration.vatRateFor('ury')).toBe(1000);
    expect(configuration.vatRateFor('arg')).toBeNull();
  });
});

describe('MerchantCountryProcessor', () => {
  const relate = () =>
    MerchantCountryProcessor.relate({ merchantCountryProcessorId: 'r', merchantId: asMerchantId('m'), countryProcessorId: 'p1', now });

  it('is offered to payers only when onboarded and active', () => {
    const relationship = relate();
    expect(relationship.isOffered).toBe(false);
    relationship.completeOnboarding(later);
    expect(relationship.isOffered).toBe(true);
    relationship.setActive(false, later);
    expect(relationship.isOffered).toBe(false);
  });

  it('treats rejection as final', () => {
    const relationship = relate();
    relationship.rejectOnboarding(later);
    expect(codeOf(() => relationship.completeOnboarding(later))).toBe('MERCHANT_INVALID_STATE');
    expect(codeOf(() => relationship.rejectOnboarding(later))).toBe('MERCHANT_INVALID_STATE');
  });

  it('starts onboarding over when moved to another processor', () => {
    const relationship = relate();
    relationship.completeOnboarding(later);
    relationship.switchProcessor('p1', later);
    expect(relationship.snapshot().onboardingStatus).toBe('ACTIVE');
    relationship.switchProcessor('p2', later);
    expect(relationship.snapshot()).toMatchObject({ countryProcessorId: 'p2', onboardingStatus: 'ONBOARDING' });
  });
});
