import type { DashboardUser } from '@pcs/dashboard-identity';
import type { Payin, PaymentIntent } from '../payins-api';
import { paymentPage } from './payment';

/**
 * The payment page shows the plan an installment payment was paid in (contract §25): how many, each
 * installment, what the payer paid in all, and the merchant's financing fee; a single payment shows none.
 */
const user: DashboardUser = { userId: 'u-1', businessId: 'b-1', merchantId: null, email: 'ana@example.com.ar', role: 'viewer' };
const intent = {
  paymentIntentId: '3f1e2d4c-5b6a-4978-8695-a4b3c2d1e0f9',
  paymentIntentStatus: 'SUCCEEDED',
  currency: 'ARS',
  totalAmount: 120000,
  receivedAmount: 120000,
  refundedAmount: 0,
  refundableAmount: 120000,
  description: 'Heladera',
  externalReference: 'pedido-7',
  createdAt: '2026-11-27T12:00:00.000Z',
  disputes: [],
} as unknown as PaymentIntent;
const charge = (plan: Partial<Payin>) =>
  ({
    transactionId: 'c-1',
    paymentIntentId: intent.paymentIntentId,
    transactionType: 'PAYIN',
    conceptCode: 'PAYIN',
    status: 'APPROVED',
    currency: 'ARS',
    amount: 120000,
    feeAmount: 3688,
    feeTaxAmount: 774.48,
    netAmount: 100537.52,
    fundsFlow: 'PLATFORM',
    origin: null,
    liquidationDate: '2026-11-28T12:00:00.000Z',
    liquidationSource: 'CALENDAR',
    payoutRequestId: null,
    externalId: '1300000001',
    createdAt: '2026-11-27T12:00:00.000Z',
    installments: 1,
    installmentAmount: null,
    payerTotalAmount: null,
    financingFeeAmount: 0,
    ...plan,
  }) as unknown as Payin;
const render = (row: Payin, language: 'es' | 'en' = 'es') =>
  paymentPage(language, { user, csrfToken: 'csrf', intent, rows: [row], timeline: [], timeZone: 'America/Argentina/Buenos_Aires' });

describe('the payment page’s installments (contract §25)', () => {
  it('shows 6 interest-free installments with what the payer paid and the merchant’s financing fee, in Spanish and English', () => {
    const row = charge({ installments: 6, installmentAmount: 20000, payerTotalAmount: 120000, financingFeeAmount: 15000 });
    const es = render(row);
    expect(es).toContain('data-installments="6"');
    expect(es).toMatch(
      /6 cuotas de 20\.000,00 ARS \(el pagador pagó 120\.000,00 ARS\) · costo de financiación del comercio 15\.000,00 ARS/,
    );
    expect(render(row, 'en')).toMatch(/6 installments of 20,000\.00 ARS \(the payer paid 120,000\.00 ARS\)/);
  });

  it('shows a plan with the payer’s interest without a financing fee, and nothing for a single payment', () => {
    const twelve = render(charge({ installments: 12, installmentAmount: 16986, payerTotalAmount: 203832, financingFeeAmount: 0 }));
    expect(twelve).toMatch(/12 cuotas de 16\.986,00 ARS \(el pagador pagó 203\.832,00 ARS\)<\/dd>/);
    expect(render(charge({}))).not.toContain('data-installments');
  });

  it('shows the count alone where the processor does not tell the payer’s surcharge (dLocal)', () => {
    const counted = charge({ installments: 3, installmentAmount: null, payerTotalAmount: null, financingFeeAmount: 0 });
    expect(render(counted)).toMatch(/data-installments="3">3 cuotas \(el procesador no informa el recargo del pagador\)<\/dd>/);
    expect(render(counted, 'en')).toContain('3 installments (the processor does not report the payer’s surcharge)');
  });
});
