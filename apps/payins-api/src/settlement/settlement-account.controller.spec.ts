import { RuntimeSettings, signSettlementConfirmation } from '@pcs/config';
import * as crypto from 'node:crypto';
import { SIGNATURE_VERSION_REQUIRED } from '@pcs/http';
import { asBusinessId, asMerchantId, Caller, Currency, InvalidRequestError } from '@pcs/kernel';
import type { SettlementAccount, SettlementAccountsService } from '@pcs/settlement';
import { SettlementAccountController } from './settlement-account.controller';

/**
 * Settlement accounts' controller against its services: the currency of the
 * path checked before anything is asked; a confirmation taken only as the
 * dashboard makes it after an admin's fresh code (contract §30: signed with
 * a key of the master key ring, recent, of this business, merchant,
 * currency and account); both changes behind version 3 of the signature. test/settlement-account-hold.e2e-spec.ts
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

const masterKey = crypto.randomBytes(32);
const rotatedAway = crypto.randomBytes(32);

function controllerWith() {
  const confirmers: string[] = [];
  const accounts = {
    put: jest.fn().mockResolvedValue(account),
    list: jest.fn().mockResolvedValue([account]),
    confirm: jest.fn(
      async (
        _c: Caller,
        _m: string,
        _cur: string,
        verify: (m: { businessId: string; merchantId: string }, seen: SettlementAccount) => Promise<string | null> | string | null,
      ) => {
        const by = await verify({ businessId: 'b-1', merchantId }, account);
        if (!by) throw new Error('refused');
        confirmers.push(by);
        return account;
      },
    ),
  };
  const settings = { masterKeyRing: [masterKey, rotatedAway] } as unknown as RuntimeSettings;
  const controller = new SettlementAccountController(accounts as unknown as SettlementAccountsService, settings);
  return { controller, accounts, confirmers };
}

const claims = {
  businessId: 'b-1',
  merchantId: merchantId as string,
  currency: 'UYU',
  bankId: 'bank-1',
  accountNumber: '001234567',
  confirmedBy: 'ana@example.uy',
  at: Math.floor(Date.now() / 1000),
};

describe('SettlementAccountController', () => {
  it('refuses a currency the service does not have before asking anything', async () => {
    const { controller, accounts } = controllerWith();
    const body = { bankId: 'bank-1', accountNumber: '001234567', accountType: 'CHECKING' as const };
    await expect(controller.put(caller, merchantId, 'XXX', body)).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(controller.confirm(caller, merchantId, 'uyu', { confirmation: 'x.y' })).rejects.toBeInstanceOf(InvalidRequestError);
    expect(accounts.put).not.toHaveBeenCalled();
    expect(accounts.confirm).not.toHaveBeenCalled();
    expect(await controller.put(caller, merchantId, 'UYU', body)).toMatchObject({ settlementAccountId: 'sa-1', currency: 'UYU' });
    expect(accounts.put).toHaveBeenCalledWith(caller, merchantId, 'UYU', body);
  });

  it('confirms with the admin a confirmation made under the ring names, an earlier generation’s too', async () => {
    const { controller, confirmers } = controllerWith();
    for (const key of [masterKey, rotatedAway])
      await controller.confirm(caller, merchantId, 'UYU', { confirmation: signSettlementConfirmation(key, claims) });
    expect(confirmers).toEqual(['ana@example.uy', 'ana@example.uy']);
  });

  it('confirms nothing with a confirmation of another key, account, merchant, business or currency, an old one, or none', async () => {
    const { controller } = controllerWith();
    const refused = [
      signSettlementConfirmation(crypto.randomBytes(32), claims),
      signSettlementConfirmation(masterKey, { ...claims, accountNumber: '009999999' }),
      signSettlementConfirmation(masterKey, { ...claims, bankId: 'bank-2' }),
      signSettlementConfirmation(masterKey, { ...claims, merchantId: crypto.randomUUID() }),
      signSettlementConfirmation(masterKey, { ...claims, businessId: 'b-2' }),
      signSettlementConfirmation(masterKey, { ...claims, currency: 'USD' }),
      signSettlementConfirmation(masterKey, { ...claims, at: claims.at - 301 }),
      `${signSettlementConfirmation(masterKey, claims).split('.')[0]}.${'A'.repeat(43)}`,
      'ana@example.uy 123456',
      '',
    ];
    for (const confirmation of refused)
      await expect(controller.confirm(caller, merchantId, 'UYU', { confirmation })).rejects.toThrow('refused');
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
