import { asBusinessId, Caller, Currency, InvalidRequestError, Money } from '@pcs/kernel';
import type { InstallmentQuotesService } from '@pcs/payments';
import { InstallmentsController } from './installments.controller';

/**
 * GET /installments against its service: the quote asked for the processor and the card in minor
 * units of the currency, a plan answered in the wire shape, and what is refused before the service is
 * asked (a BIN and a saved card together, neither, a BIN without its processor).
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const plan = {
  installments: 6,
  installmentAmount: Money.ofMinor(2_000_000, Currency.ARS),
  totalAmount: Money.ofMinor(12_000_000, Currency.ARS),
  interestFree: true,
  payerRateBp: 0,
  merchantFinancingFee: Money.ofMinor(900_000, Currency.ARS),
  planId: null,
};

function controllerWith() {
  const quote = jest.fn().mockResolvedValue([plan]);
  return { controller: new InstallmentsController({ quote } as unknown as InstallmentQuotesService), quote };
}

describe('InstallmentsController', () => {
  it('asks for the processor and the card in minor units, and answers each plan on the wire', async () => {
    const { controller, quote } = controllerWith();
    const answer = await controller.quote(caller, {
      countryProcessorId: 'cp-1',
      bin: '45099500',
      amount: 120000,
      currency: Currency.ARS,
    });
    expect(quote).toHaveBeenCalledWith(caller, {
      merchantId: undefined,
      countryProcessorId: 'cp-1',
      paymentInstrumentId: undefined,
      bin: '45099500',
      amount: Money.ofMinor(12_000_000, Currency.ARS),
    });
    expect(answer).toEqual([
      { installments: 6, installmentAmount: 20000, totalAmount: 120000, interestFree: true, payerRate: 0, merchantFinancingFee: 9000 },
    ]);
  });

  it('refuses a BIN with a saved card, neither, and a BIN without its processor, before asking anything', async () => {
    const { controller, quote } = controllerWith();
    for (const query of [
      { countryProcessorId: 'cp-1', bin: '450995', paymentInstrumentId: 'pi-1', amount: 10, currency: Currency.ARS },
      { countryProcessorId: 'cp-1', amount: 10, currency: Currency.ARS },
      { bin: '450995', amount: 10, currency: Currency.ARS },
    ]) {
      await expect(controller.quote(caller, query)).rejects.toBeInstanceOf(InvalidRequestError);
    }
    expect(quote).not.toHaveBeenCalled();
  });
});
