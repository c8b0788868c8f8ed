import { CardNotSavedError } from '@pcs/gateways';
import { cardReference, readCardReference, savedCardOf } from './mercado-pago-cards';
import { MercadoPagoGateway } from './mercado-pago.gateway';

describe("Mercado Pago's saved cards (contract §31)", () => {
  const card = {
    id: '9123456789',
    customer_id: '100001-4f2a9c0d1e2b3c',
    first_six_digits: '450995',
    last_four_digits: '3704',
    expiration_month: 11,
    expiration_year: 2030,
    payment_method: { id: 'visa', payment_type_id: 'credit_card' },
  };

  it('keeps a saved card as its reference, our brand, its first six, last four and expiry', () => {
    expect(savedCardOf('100001-4f2a9c0d1e2b3c', card)).toEqual({
      reference: '100001-4f2a9c0d1e2b3c:9123456789:visa',
      paymentMethod: 'VISA',
      instrumentType: 'CREDIT_CARD',
      bin: '450995',
      last4: '3704',
      expMonth: 11,
      expYear: 2030,
    });
    const debit = savedCardOf('c', { ...card, payment_method: { id: 'debmaster', payment_type_id: 'debit_card' }, expiration_year: 31 });
    expect([debit.paymentMethod, debit.instrumentType, debit.expYear]).toEqual(['MASTER_CARD', 'DEBIT_CARD', 2031]);
    // A brand we do not route is kept unnamed (the setup refuses it as not offered).
    expect(savedCardOf('c', { ...card, payment_method: { id: 'naranja', payment_type_id: 'credit_card' } }).paymentMethod).toBeNull();
  });

  it('refuses an answer without the parts it must show, or a reference it could not read back', () => {
    expect(() => savedCardOf('c', { ...card, first_six_digits: null })).toThrow(CardNotSavedError);
    expect(() => savedCardOf('c', { ...card, expiration_month: 13 })).toThrow(CardNotSavedError);
    expect(() => savedCardOf('c', { ...card, payment_method: null })).toThrow(CardNotSavedError);
    expect(() => savedCardOf('c', { ...card, id: '12:34' })).toThrow(CardNotSavedError);
  });

  it('reads back what it wrote, and nothing else', () => {
    const reference = { customerId: '100001-4f2a9c0d1e2b3c', cardId: '9123456789', paymentMethodId: 'visa' };
    expect(readCardReference(cardReference(reference))).toEqual(reference);
    for (const other of [null, '', 'sbx_card_0a1b_4242', '1:2', 'a:b:VISA', 'a b:1:visa']) expect(readCardReference(other)).toBeNull();
  });

  it("classifies its refusals by Mercado Pago's decline table, and only its own", () => {
    const gateway = Object.create(MercadoPagoGateway.prototype) as MercadoPagoGateway;
    expect(gateway.declineKindOf('Mercado Pago: cc_rejected_insufficient_amount')).toBe('SOFT');
    expect(gateway.declineKindOf('Mercado Pago: cc_rejected_bad_filled_security_code')).toBe('HARD');
    expect(gateway.declineKindOf('Mercado Pago: something new')).toBeUndefined();
    expect(gateway.declineKindOf('dLocal: Insufficient funds (302)')).toBeUndefined();
  });
});
