import { eventOfPayment } from './dlocal.gateway';

/**
 * What a paid dLocal payment tells of its installments (contract §25): the count the payer chose on
 * dLocal's page, as the card object names it (`installments`, a string or a number); never the payer's
 * surcharge, so the installment and the payer's total stay unknown. One payment, or a count that is no
 * count, is no plan.
 */
describe('dLocal installments read back from the payment', () => {
  const paid = (installments?: string | number) =>
    eventOfPayment({
      id: 'D-4-1',
      amount: 1220.5,
      currency: 'UYU',
      status: 'PAID',
      card: { brand: 'VI', last4: '1111', ...(installments === undefined ? {} : { installments, installments_id: 'INS1' }) },
    });

  it('reads the count the payer chose, as a string or a number', () => {
    expect(paid('6').plan).toEqual({ installments: 6, installmentAmount: null, payerTotalAmount: null });
    expect(paid(12).plan).toEqual({ installments: 12, installmentAmount: null, payerTotalAmount: null });
    expect(paid('6')).toMatchObject({ outcome: 'APPROVED', maskedPan: '************1111', cardType: 'VI' });
  });

  it('takes one payment, none told, or a count that is no count as no plan', () => {
    for (const installments of [undefined, '1', 1, '0', 'seis', '2.5', '25', ''] as const) expect(paid(installments).plan).toBeUndefined();
  });
});
