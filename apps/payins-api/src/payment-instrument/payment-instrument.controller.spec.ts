import { plainToInstance } from 'class-transformer';
import { asBusinessId, Caller } from '@pcs/kernel';
import type { PaymentInstrumentService } from '@pcs/payment-instruments';
import { CreatePaymentInstrumentDto } from './dto/create-payment-instrument.dto';
import { PaymentInstrumentController } from './payment-instrument.controller';

/**
 * Payment instruments against their service: what it asks. The payer typed,
 * a payer created with the instrument read with `payerData.address` as the
 * field its errors name. test/payment-instruments.e2e-spec.ts runs the routes,
 * and their answers, over HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const payerId = '5e2d9c1b-7a4f-4c8e-b3d6-9f1a2e3b4c5d';
const merchantId = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';
const asked = new Error('asked');

function controllerWith() {
  const instruments = {
    create: jest.fn().mockRejectedValue(asked),
    get: jest.fn().mockRejectedValue(asked),
    list: jest.fn().mockResolvedValue([]),
    listOfPayer: jest.fn().mockResolvedValue([]),
  };
  return { controller: new PaymentInstrumentController(instruments as unknown as PaymentInstrumentService), instruments };
}

describe('PaymentInstrumentController', () => {
  it('creates for the payer named, or with a payer of its own whose address errors name payerData.address', async () => {
    const { controller, instruments } = controllerWith();
    await expect(
      controller.create(caller, plainToInstance(CreatePaymentInstrumentDto, { payerId, paymentMethodName: 'VISA', country: 'URY' })),
    ).rejects.toBe(asked);
    expect(instruments.create).toHaveBeenCalledWith(caller, { payerId, paymentMethodName: 'VISA', country: 'URY' });
    await expect(
      controller.create(
        caller,
        plainToInstance(CreatePaymentInstrumentDto, {
          paymentMethodName: 'VISA',
          country: 'URY',
          payerData: { firstName: 'Ana', merchantId, address: { country: 'URY', countryId: 'ARG' } },
        }),
      ),
    ).rejects.toThrow(/payerData\.address\.countryId/);
    expect(instruments.create).toHaveBeenCalledTimes(1);
  });

  it('lists a payer’s, a merchant’s, and reads one, each through the service', async () => {
    const { controller, instruments } = controllerWith();
    expect(await controller.ofPayer(caller, payerId)).toEqual([]);
    expect(await controller.list(caller, { merchantId })).toEqual([]);
    await expect(controller.get(caller, 'pi-1')).rejects.toBe(asked);
    expect([instruments.listOfPayer.mock.calls, instruments.list.mock.calls, instruments.get.mock.calls]).toEqual([
      [[caller, payerId]],
      [[caller, merchantId]],
      [[caller, 'pi-1']],
    ]);
  });
});
