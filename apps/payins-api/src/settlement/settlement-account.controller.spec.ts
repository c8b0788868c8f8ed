import type { Request } from 'express';
import type { DashboardIdentity } from '@pcs/dashboard-identity';
import { SIGNATURE_VERSION_REQUIRED } from '@pcs/http';
import { asBusinessId, asMerchantId, Caller, Currency, InvalidRequestError } from '@pcs/kernel';
import type { SettlementAccount, SettlementAccountsService } from '@pcs/settlement';
import { SettlementAccountController } from './settlement-account.controller';

/**
 * Settlement accounts' controller against its services: the currency of the
 * path checked before anything is asked; a confirmation verified by the
 * dashboard's identity (an enabled admin of the merchant's business and a
 * fresh second-factor code, from the caller's address, audited as
 * `settlement-account:confirm` of the merchant and currency); both changes
 * behind version 3 of the signature. test/settlement-account-hold.e2e-spec.ts
 * runs the routes over HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');

const account = {
  settlementAccountId: 'sa-1',
  merchantId,
  businessId: 'b-1',
  currency: Currency.UYU,
  bank: { bankId: 'bank-1', country: 'URY', code: '1001', name: 'BROU', ispb: null },
  accountNumber: '001234567',
  accountType: 'CHECKING',
  holderDocument: null,
  holdUntil: null,
  confirmedBy: 'ana@example.uy',
  confirmedAt: new Date('2026-11-27T12:00:00Z'),
  payoutWaitingSince: null,
  returnedPayoutId: null,
  createdAt: new Date('2026-11-26T12:00:00Z'),
  updatedAt: new Date('2026-11-27T12:00:00Z'),
} as unknown as SettlementAccount;

function controllerWith(admin: { email: string } | null) {
  const accounts = {
    put: jest.fn().mockResolvedValue(account),
    list: jest.fn().mockResolvedValue([account]),
    confirm: jest.fn(
      async (_c: Caller, _m: string, _cur: string, verify: (m: { businessId: string; merchantId: string }) => Promise<string | null>) => {
        const by = await verify({ businessId: 'b-1', merchantId });
        if (!by) throw new Error('refused');
        return account;
      },
    ),
  };
  const identity = { confirmAsAdmin: jest.fn().mockResolvedValue(admin) };
  const controller = new SettlementAccountController(
    accounts as unknown as SettlementAccountsService,
    identity as unknown as DashboardIdentity,
  );
  return { controller, accounts, identity };
}

const request = { ip: '203.0.113.7' } as Request;

describe('SettlementAccountController', () => {
  it('refuses a currency the service does not have before asking anything', async () => {
    const { controller, accounts } = controllerWith({ email: 'ana@example.uy' });
    const body = { bankId: 'bank-1', accountNumber: '001234567', accountType: 'CHECKING' as const };
    await expect(controller.put(caller, merchantId, 'XXX', body)).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(controller.confirm(caller, merchantId, 'uyu', { email: 'a@b.c', code: '123456' }, request)).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    expect(accounts.put).not.toHaveBeenCalled();
    expect(accounts.confirm).not.toHaveBeenCalled();
    expect(await controller.put(caller, merchantId, 'UYU', body)).toMatchObject({ settlementAccountId: 'sa-1', currency: 'UYU' });
    expect(accounts.put).toHaveBeenCalledWith(caller, merchantId, 'UYU', body);
  });

  it('confirms with the admin the identity verifies, from the caller’s address, audited for this merchant and currency', async () => {
    const { controller, identity } = controllerWith({ email: 'ana@example.uy' });
    await controller.confirm(caller, merchantId, 'UYU', { email: 'ana@example.uy', code: '123456' }, request);
    expect(identity.confirmAsAdmin).toHaveBeenCalledWith({
      businessId: 'b-1',
      merchantId,
      email: 'ana@example.uy',
      code: '123456',
      address: '203.0.113.7',
      action: 'settlement-account:confirm',
      target: `${merchantId}:UYU`,
    });
  });

  it('hands the service no confirmer when the identity refuses the person or the code', async () => {
    const { controller } = controllerWith(null);
    await expect(controller.confirm(caller, merchantId, 'UYU', { email: 'ana@example.uy', code: '000000' }, request)).rejects.toThrow(
      'refused',
    );
  });

  it('puts both changes behind version 3 of the signature, not the list', () => {
    const required = (route: 'put' | 'confirm' | 'list') => versionOf(SettlementAccountController.prototype[route]);
    expect([required('put'), required('confirm'), required('list')]).toEqual([3, 3, undefined]);
  });
});

/** The signing version a route's metadata requires (contract §29), or undefined. */
function versionOf(handler: unknown): number | undefined {
  return (Reflect.getMetadata(SIGNATURE_VERSION_REQUIRED, handler as object) as { version: number } | undefined)?.version;
}
