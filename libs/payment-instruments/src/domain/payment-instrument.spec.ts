import { asBusinessId, asMerchantId, asPayerId, asPaymentInstrumentId, DomainError } from '@pcs/kernel';
import { NEXT_ACTION_FIRST_PAYMENT, PaymentInstrument } from './payment-instrument';

const now = new Date('2026-11-01T00:00:00Z');
const create = () =>
  PaymentInstrument.create({
    paymentInstrumentId: asPaymentInstrumentId('i'),
    businessId: asBusinessId('b'),
    merchantId: asMerchantId('m'),
    payerId: asPayerId('p'),
    paymentMethodId: 'visa',
    paymentInstrumentTypeId: null,
    countryId: 'ury',
    countries: ['URY'],
    metadata: null,
    createdAt: now,
  });

describe('PaymentInstrument', () => {
  it('starts ACTIVE, not validated, waiting for its first payment', () => {
    const instrument = create();
    expect(instrument.snapshot()).toMatchObject({ status: 'ACTIVE', active: true, validated: false });
    expect(instrument.nextAction).toBe(NEXT_ACTION_FIRST_PAYMENT);
    instrument.markValidated(now);
    expect(instrument.nextAction).toBeNull();
  });

  it('keeps masked card data only', () => {
    const instrument = create();
    instrument.recordGatewayData({ externalId: 'tok_1', cardBrand: 'VISA', cardLast4: '1111' }, now);
    expect(instrument.snapshot()).toMatchObject({ externalId: 'tok_1', cardBrand: 'VISA', cardLast4: '1111' });
    let code: string | undefined;
    try {
      instrument.recordGatewayData({ externalId: 'tok_2', cardLast4: '4111111111111111' }, now);
    } catch (e) {
      code = (e as DomainError).code;
    }
    expect(code).toBe('CARD_DATA_NOT_ACCEPTED');
    expect(instrument.snapshot().cardLast4).toBe('1111');
  });

  it('says whether an outcome changed it, so that nothing unchanged is written again', () => {
    const instrument = create();
    const later = new Date(now.getTime() + 60_000);
    expect(instrument.markValidated(now)).toBe(true);
    expect(instrument.markValidated(later)).toBe(false);
    expect(instrument.recordGatewayData({ externalId: 'tok_1', cardBrand: 'VISA', cardLast4: '1111' }, now)).toBe(true);
    // The same token again (a second charge of the card), or a part left out: unchanged.
    expect(instrument.recordGatewayData({ externalId: 'tok_1', cardBrand: 'VISA', cardLast4: '1111' }, later)).toBe(false);
    expect(instrument.recordGatewayData({ externalId: 'tok_1' }, later)).toBe(false);
    expect(instrument.snapshot().updatedAt).toEqual(now);
    // Anything new is recorded.
    expect(instrument.recordGatewayData({ externalId: 'tok_1', cardLast4: '2222' }, later)).toBe(true);
    expect(instrument.snapshot()).toMatchObject({ externalId: 'tok_1', cardBrand: 'VISA', cardLast4: '2222', updatedAt: later });
  });

  it('has no next action once deactivated', () => {
    const instrument = create();
    instrument.deactivate(now);
    expect(instrument.snapshot()).toMatchObject({ status: 'INACTIVE', active: false });
    expect(instrument.nextAction).toBeNull();
  });
});
