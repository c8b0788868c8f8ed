import { asBusinessId, asMerchantId, Caller, Currency, DomainError, InvalidRequestError } from '@pcs/kernel';
import type { ProcessorHealthService } from '@pcs/gateways';
import { ProcessorHealthController, RoutingController } from './routing.controller';

const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');

const SANDBOX_HEALTH = [{ provider: 'SANDBOX', merchantId, state: 'CLOSED', successRate1h: null, successRate1d: 1, methods: [] }];

function healthWith(visible = true) {
  const health = {
    assertVisible: jest.fn(() => (visible ? Promise.resolve() : Promise.reject(new DomainError('MERCHANT_NOT_FOUND')))),
    simulate: jest.fn().mockResolvedValue({ rule: 0, processors: ['DLOCAL', 'MERCADO_PAGO'] }),
    health: jest.fn().mockResolvedValue(SANDBOX_HEALTH),
  };
  return { health, service: health as unknown as ProcessorHealthService };
}

/**
 * Where a merchant's attempts would go (contract §26) and the processors' health, against the
 * payments context's service: another tenant's merchant is a 404 before the question is read, a
 * question missing a fact names each, the amount is read in the currency's minor units.
 * test/routing.e2e-spec.ts asks them over HTTP.
 */
describe('RoutingController and ProcessorHealthController', () => {
  it('simulates with the amount in minor units and the method upper-cased, once the merchant is the caller’s', async () => {
    const { health, service } = healthWith();
    const answer = await new RoutingController(service).simulate(caller, merchantId, {
      paymentMethod: 'visa',
      country: 'URY',
      currency: Currency.UYU,
      amount: 1220.5,
    });
    expect(answer).toEqual({ rule: 0, processors: ['DLOCAL', 'MERCADO_PAGO'] });
    expect(health.simulate).toHaveBeenCalledWith(caller, merchantId, {
      paymentMethod: 'VISA',
      country: 'URY',
      currency: Currency.UYU,
      amount: 122050,
    });
  });

  it('answers another tenant’s merchant with its 404 before reading the question, and names every missing fact', async () => {
    const hidden = healthWith(false);
    await expect(new RoutingController(hidden.service).simulate(caller, merchantId, {})).rejects.toMatchObject({
      code: 'MERCHANT_NOT_FOUND',
    });
    expect(hidden.health.simulate).not.toHaveBeenCalled();
    const { health, service } = healthWith();
    const missing = await new RoutingController(service).simulate(caller, merchantId, { country: 'URY' }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(InvalidRequestError);
    expect((missing as InvalidRequestError).message).toBe('paymentMethod, currency, amount must be given');
    expect(health.simulate).not.toHaveBeenCalled();
    // An amount with more decimals than its currency's is refused, not rounded.
    await expect(
      new RoutingController(service).simulate(caller, merchantId, {
        paymentMethod: 'VISA',
        country: 'URY',
        currency: Currency.UYU,
        amount: 1.005,
      }),
    ).rejects.toBeInstanceOf(DomainError);
  });

  it('lists the caller’s processors’ health as the service answers it', async () => {
    const { health, service } = healthWith();
    expect(await new ProcessorHealthController(service).processors(caller)).toEqual({ processors: SANDBOX_HEALTH });
    expect(health.health).toHaveBeenCalledWith(caller);
  });
});
