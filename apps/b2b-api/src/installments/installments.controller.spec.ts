import { asBusinessId, Caller, Currency, Money } from '@pcs/kernel';
import type { InstallmentQuotesService } from '@pcs/payments';
import { B2bInstallmentsController } from './installments.controller';

/** GET /installments of the B2B API against its service: the method and the card asked for, each plan on the wire. */
describe('B2bInstallmentsController', () => {
  it('asks for the method’s plans for the card in minor units, and answers them as the payins API does', async () => {
    const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
    const quote = jest.fn().mockResolvedValue([
      {
        installments: 12,
        installmentAmount: Money.ofMinor(1_275_000, Currency.ARS),
        totalAmount: Money.ofMinor(15_300_000, Currency.ARS),
        interestFree: false,
        payerRateBp: 2750,
        merchantFinancingFee: null,
        planId: null,
      },
    ]);
    const controller = new B2bInstallmentsController({ quote } as unknown as InstallmentQuotesService);
    const answer = await controller.quote(caller, { paymentMethod: 'VISA', bin: '450995', amount: 120000, currency: Currency.ARS });
    expect(quote).toHaveBeenCalledWith(caller, {
      merchantId: undefined,
      paymentMethod: 'VISA',
      bin: '450995',
      amount: Money.ofMinor(12_000_000, Currency.ARS),
    });
    expect(answer).toEqual([
      { installments: 12, installmentAmount: 12750, totalAmount: 153000, interestFree: false, payerRate: 27.5, merchantFinancingFee: null },
    ]);
  });
});
