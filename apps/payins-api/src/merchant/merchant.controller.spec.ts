import type { ProcessorRoutes } from '@pcs/gateways';
import { plainToInstance } from 'class-transformer';
import type { RuntimeSettings } from '@pcs/config';
import { SIGNATURE_VERSION_REQUIRED } from '@pcs/http';
import { asBusinessId, asMerchantId, Caller, Currency } from '@pcs/kernel';
import { Merchant } from '@pcs/merchants';
import type { MerchantConfigurationService, MerchantService } from '@pcs/merchants';
import type { SettlementAccountsService } from '@pcs/settlement';
import { ListMerchantsQuery } from './dto/list-merchants.query';
import { UpdateMerchantDto } from './dto/update-merchant.dto';
import { MerchantController } from './merchant.controller';

/**
 * The merchants' controller against its services: an update goes through
 * settlement (the seed's settlementBank sets the account in the update's own
 * transaction) with what the body left out left out and what it sent as null
 * kept null; a list asks for every listed merchant's accounts at once;
 * version 3 of the signature is required exactly when the body carries
 * `account.settlementBank`. The services are jest stand-ins;
 * test/merchants.e2e-spec.ts runs the routes over HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');

function view() {
  const merchant = Merchant.create({
    merchantId,
    businessId: caller.businessId,
    countryId: 'ury',
    merchantName: 'Tienda Pocitos',
    currencies: [Currency.UYU],
    now: new Date('2026-11-27T12:00:00Z'),
  });
  return { merchant: merchant.snapshot(), credentials: null };
}

function controllerWith() {
  const merchants = {
    list: jest.fn().mockResolvedValue({ items: [view(), view()], page: 1, limit: 10, total: 2 }),
    get: jest.fn().mockResolvedValue(view()),
    delete: jest.fn().mockResolvedValue(undefined),
  };
  const configurations = {};
  const accounts = { updateMerchant: jest.fn().mockResolvedValue(view()), accountsOf: jest.fn().mockResolvedValue([]) };
  const controller = new MerchantController(
    merchants as unknown as MerchantService,
    configurations as unknown as MerchantConfigurationService,
    accounts as unknown as SettlementAccountsService,
    {} as RuntimeSettings,
    {} as ProcessorRoutes,
  );
  return { controller, merchants, accounts };
}

describe('MerchantController', () => {
  it('updates through settlement: the settlement bank’s missing fields as null, nothing sent for what the body left out', async () => {
    const { controller, accounts } = controllerWith();
    const body = plainToInstance(UpdateMerchantDto, {
      merchantName: 'Tienda Pocitos',
      account: { settlementBank: { bankId: 'bank-1', accountNumber: '001234567' } },
    });
    const answer = await controller.update(caller, merchantId, body);
    const [who, id, update] = accounts.updateMerchant.mock.calls[0] as [Caller, string, Record<string, unknown>];
    expect([who, id]).toEqual([caller, merchantId]);
    expect(update).toEqual({
      merchantName: 'Tienda Pocitos',
      account: {
        serviceAccount: null,
        settlementBank: { settlementBankId: null, bankId: 'bank-1', accountNumber: '001234567', currency: null },
      },
    });
    expect(update).not.toHaveProperty('address');
    expect(answer).toMatchObject({ merchantId, merchantName: 'Tienda Pocitos' });
    await controller.update(caller, merchantId, plainToInstance(UpdateMerchantDto, { email: 'ventas@tienda.example.uy' }));
    expect(accounts.updateMerchant.mock.calls[1][2]).toEqual({ email: 'ventas@tienda.example.uy' });
  });

  it('requires version 3 of the signature only for a body that carries account.settlementBank', () => {
    const rule = Reflect.getMetadata(SIGNATURE_VERSION_REQUIRED, MerchantController.prototype.update) as {
      version: number;
      when: (body: unknown) => boolean;
    };
    expect(rule.version).toBe(3);
    const test = rule.when;
    expect(test({ account: { settlementBank: null } })).toBe(true);
    expect(test({ account: { settlementBank: { bankId: 'b' } } })).toBe(true);
    for (const body of [{}, null, [], 'x', { account: null }, { account: { serviceAccount: 'x' } }, { settlementBank: {} }])
      expect(test(body)).toBe(false);
  });

  it('lists a page with every listed merchant’s settlement accounts asked at once, and deletes through the service', async () => {
    const { controller, merchants, accounts } = controllerWith();
    const answer = await controller.list(caller, plainToInstance(ListMerchantsQuery, { page: 1, limit: 10, searchTerm: 'pocitos' }));
    expect(merchants.list).toHaveBeenCalledWith(caller, { page: 1, limit: 10 }, 'pocitos');
    expect(accounts.accountsOf).toHaveBeenCalledTimes(1);
    expect(accounts.accountsOf).toHaveBeenCalledWith([merchantId, merchantId]);
    expect(answer).toMatchObject([{ rowCount: 2 }]);
    expect(await controller.delete(caller, merchantId)).toEqual({ success: true, id: merchantId });
    expect(merchants.delete).toHaveBeenCalledWith(caller, merchantId);
  });
});
