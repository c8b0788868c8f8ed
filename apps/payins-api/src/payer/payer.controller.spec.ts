import { plainToInstance } from 'class-transformer';
import { asBusinessId, asPayerId, Caller, InvalidRequestError } from '@pcs/kernel';
import type { PaymentInstrumentService } from '@pcs/payment-instruments';
import type { PayerService } from '@pcs/payers';
import { ListPayersQuery, UpdatePayerDto } from './dto/payer-queries.dto';
import { PayerRequestDto } from './dto/payer-request.dto';
import { PayerController } from './payer.controller';

/**
 * The payers' controller against its services: what it asks. The merchant's
 * external id is the payer's `externalId`; an address's `countryId` is its
 * `country` (the two naming different countries is a 400 before anything is
 * asked); what an update left out is not sent. The services are jest
 * stand-ins that stop once asked; test/payers.e2e-spec.ts runs the routes,
 * and their answers, over HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const payerId = '5e2d9c1b-7a4f-4c8e-b3d6-9f1a2e3b4c5d';
const merchantId = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';
const asked = new Error('asked');

function controllerWith() {
  const payers = {
    list: jest.fn().mockResolvedValue({ items: [], page: 1, limit: 10, total: 0 }),
    create: jest.fn().mockRejectedValue(asked),
    get: jest.fn().mockRejectedValue(asked),
    update: jest.fn().mockRejectedValue(asked),
    delete: jest.fn().mockResolvedValue(undefined),
  };
  const instruments = { listOfPayer: jest.fn().mockResolvedValue([]) };
  const controller = new PayerController(payers as unknown as PayerService, instruments as unknown as PaymentInstrumentService);
  return { controller, payers, instruments };
}

describe('PayerController', () => {
  it('creates with the merchant typed and the address’s countryId read as its country', async () => {
    const { controller, payers } = controllerWith();
    const body = plainToInstance(PayerRequestDto, {
      firstName: 'Ana',
      lastName: 'Pérez',
      documentType: 'IDENTITY_DOCUMENT',
      document: '12345672',
      email: 'ana.perez@example.uy',
      country: 'URY',
      merchantId,
      address: { countryId: 'URY', city: 'Montevideo' },
    });
    await expect(controller.create(caller, body)).rejects.toBe(asked);
    expect(payers.create).toHaveBeenCalledWith(
      caller,
      expect.objectContaining({ firstName: 'Ana', merchantId, address: { city: 'Montevideo', country: 'URY' } }),
    );
  });

  it('refuses an address whose country and countryId differ, asking nothing', async () => {
    const { controller, payers } = controllerWith();
    const body = plainToInstance(UpdatePayerDto, { address: { country: 'URY', countryId: 'ARG' } });
    await expect(controller.update(caller, payerId, body)).rejects.toBeInstanceOf(InvalidRequestError);
    expect(payers.update).not.toHaveBeenCalled();
  });

  it('updates with the merchant’s external id as externalId and nothing sent for what the body left out', async () => {
    const { controller, payers } = controllerWith();
    await expect(
      controller.update(caller, payerId, plainToInstance(UpdatePayerDto, { merchantExternalId: 'cust-9', phone: '+59899123457' })),
    ).rejects.toBe(asked);
    await expect(controller.update(caller, payerId, plainToInstance(UpdatePayerDto, { email: 'ana@example.uy' }))).rejects.toBe(asked);
    expect(payers.update.mock.calls).toEqual([
      [caller, asPayerId(payerId), { externalId: 'cust-9', phone: '+59899123457' }],
      [caller, asPayerId(payerId), { email: 'ana@example.uy' }],
    ]);
  });

  it('lists with the search and the merchant, deletes, and lists a payer’s instruments through their services', async () => {
    const { controller, payers, instruments } = controllerWith();
    const answer = await controller.list(caller, plainToInstance(ListPayersQuery, { searchTerm: 'ana', merchantId, page: 1, limit: 10 }));
    expect(payers.list).toHaveBeenCalledWith(caller, { searchTerm: 'ana', merchantId }, { page: 1, limit: 10 });
    expect(answer).toMatchObject([{ rowCount: 0, results: [] }]);
    expect(await controller.delete(caller, payerId)).toEqual({ success: true, id: payerId });
    expect(payers.delete).toHaveBeenCalledWith(caller, payerId);
    expect(await controller.paymentInstruments(caller, payerId)).toEqual([]);
    expect(instruments.listOfPayer).toHaveBeenCalledWith(caller, payerId);
  });
});
