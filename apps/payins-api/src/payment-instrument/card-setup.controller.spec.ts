import type { RuntimeSettings } from '@pcs/config';
import { asBusinessId, asMerchantId, asPayerId, Caller } from '@pcs/kernel';
import { CardSetup } from '@pcs/payments';
import type { CardSetupService } from '@pcs/payments';
import { CardSetupController } from './card-setup.controller';

/**
 * The card setup routes against their service: the ids typed, the Idempotency-Key's operation id handed over, the
 * answer's page address on the public base URL and its state at the moment asked. test/card-setup.e2e-spec.ts runs them.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');
const payerId = asPayerId('1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d');

describe('CardSetupController', () => {
  it('starts a setup and answers its page, and reads an expired one as EXPIRED', async () => {
    const setup = CardSetup.open({
      setupId: 's-1',
      businessId: caller.businessId,
      merchantId,
      payerId,
      countryProcessorId: null,
      returnUrl: 'https://shop.example/cards',
      subscriptionId: null,
      pixMandate: null,
      createdAt: new Date(),
    });
    const old = CardSetup.open({ ...setup.snapshot(), setupId: 's-2', createdAt: new Date('2026-01-01T00:00:00Z') });
    const service = { start: jest.fn().mockResolvedValue(setup), get: jest.fn().mockResolvedValue(old) };
    const controller = new CardSetupController(
      service as unknown as CardSetupService,
      {
        publicBaseUrl: 'https://pay.example',
      } as unknown as RuntimeSettings,
    );
    const started = await controller.start(caller, { merchantId, payerId, returnUrl: 'https://shop.example/cards' }, 'op-1');
    expect(service.start).toHaveBeenCalledWith(
      caller,
      { merchantId, payerId, countryProcessorId: undefined, returnUrl: 'https://shop.example/cards' },
      'op-1',
    );
    expect(started).toMatchObject({ setupId: 's-1', setupUrl: 'https://pay.example/setup/s-1', status: 'OPEN', paymentInstrumentId: null });
    expect((await controller.get(caller, 's-2')).status).toBe('EXPIRED');
  });
});
