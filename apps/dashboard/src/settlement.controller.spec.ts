import { readSettlementConfirmation } from '@pcs/config';
import type { DashboardIdentity, DashboardUser } from '@pcs/dashboard-identity';
import * as crypto from 'node:crypto';
import { recordingResponse } from '@pcs/testing';
import { PayinsApiError } from './payins-api';
import type { PayinsApi } from './payins-api';
import { BalanceController, PayoutsController, ReconciliationController } from './settlement.controller';
import type { DashboardSettings } from './settings';
import type { DashboardRequest } from './web';

const masterKey = crypto.randomBytes(32);

/**
 * The balance page's money doors against the payins API and the audit: a
 * payout in two steps (the confirmation shows what will be paid out and where,
 * and carries the key that makes a double submit pay once: the API's
 * Idempotency-Key), only of one of the person's merchants and in a currency it
 * holds; a settlement account confirmed with the person's own code; refusals
 * shown (422) and audited with the API's errorId.
 * test/dashboard-money.e2e-spec.ts and test/settlement-account-hold.e2e-spec.ts run them in a browser.
 */
const operator: DashboardUser = { userId: 'u-1', businessId: 'b-1', merchantId: null, email: 'ana@example.uy', role: 'admin' };
const request = { dashboard: { user: operator, csrfToken: 'csrf' }, ip: '203.0.113.7', header: () => 'en' } as unknown as DashboardRequest;
const mine = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';
const operation = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
const refusal = (errorId: string, text: string) =>
  new PayinsApiError(409, { errorId, message: text, showMessage: { EN: text, ES: text }, needUpdate: false } as never);

function controllerWith() {
  const api = {
    merchants: jest.fn().mockResolvedValue([{ merchantId: mine, merchantName: 'Tienda Pocitos', status: 'ACTIVE' }]),
    balance: jest.fn().mockResolvedValue({
      merchantId: mine,
      balances: [{ currency: 'UYU', pending: 0, available: 1500.5, inTransit: 0, upcoming: [] }],
    }),
    balanceTransactions: jest.fn().mockResolvedValue({ rows: [], total: 0, pageCount: 0 }),
    localeOf: jest.fn().mockResolvedValue({ timeZone: 'America/Montevideo', countryIso3: 'URY' }),
    settlementAccounts: jest.fn().mockResolvedValue([{ currency: 'UYU', bankId: 'bank-1', bankName: 'BROU', accountNumber: '001234567' }]),
    requestPayout: jest.fn().mockResolvedValue({ payoutId: 'po-1' }),
    confirmSettlementAccount: jest.fn().mockResolvedValue(undefined),
  };
  const identity = {
    audit: jest.fn().mockResolvedValue(undefined),
    confirmAsAdmin: jest.fn(async (input: { code: string }) => (input.code === '123456' ? operator : null)),
  };
  const settings = { secretsMasterKey: masterKey } as DashboardSettings;
  return {
    controller: new BalanceController(api as unknown as PayinsApi, identity as unknown as DashboardIdentity, settings),
    api,
    identity,
  };
}

describe('BalanceController (payouts and settlement accounts)', () => {
  it('shows what will be paid out and where, with a key of its own, before paying anything', async () => {
    const { controller, api } = controllerWith();
    const { res, answer } = recordingResponse();
    await controller.payout(request, res, { merchantId: mine, currency: 'UYU', amount: '' });
    expect(answer.body).toMatch(/name="operation" value="[0-9a-f-]{36}"/);
    expect(answer.body).toContain('BROU');
    expect(api.requestPayout).not.toHaveBeenCalled();
  });

  it('pays out on the confirmation with its key as the Idempotency-Key, audited; everything available when no amount is typed', async () => {
    const { controller, api, identity } = controllerWith();
    await expect(
      controller.payout(request, recordingResponse().res, {
        merchantId: mine,
        currency: 'UYU',
        amount: '100.25',
        confirmed: 'yes',
        operation,
      }),
    ).rejects.toMatchObject({ location: '/payouts/po-1?done=requested' });
    await expect(
      controller.payout(request, recordingResponse().res, { merchantId: mine, currency: 'UYU', amount: '', confirmed: 'yes', operation }),
    ).rejects.toMatchObject({ location: '/payouts/po-1?done=requested' });
    expect(api.requestPayout.mock.calls).toEqual([
      [mine, 'UYU', 100.25, operation],
      [mine, 'UYU', undefined, operation],
    ]);
    expect(identity.audit.mock.calls.map(([e]) => (e as { detail: unknown }).detail)).toEqual([
      { currency: 'UYU', amount: '100.25', operation, payoutId: 'po-1' },
      { currency: 'UYU', amount: 'available', operation, payoutId: 'po-1' },
    ]);
  });

  it('pays out nothing for another’s merchant, a currency the balance lacks, a malformed amount or a confirmation without its key', async () => {
    const { controller, api } = controllerWith();
    await expect(
      controller.payout(request, recordingResponse().res, { merchantId: '0b7c6e2a-5d4f-4e3b-9a1c-2f8e7d6c5b4a', currency: 'UYU' }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(controller.payout(request, recordingResponse().res, { merchantId: mine, currency: 'USD' })).rejects.toMatchObject({
      status: 400,
    });
    for (const amount of ['-1', '0', '1.234', 'all']) {
      const { res, answer } = recordingResponse();
      await controller.payout(request, res, { merchantId: mine, currency: 'UYU', amount, confirmed: 'yes', operation });
      expect([amount, answer.status]).toEqual([amount, 400]);
    }
    await expect(
      controller.payout(request, recordingResponse().res, {
        merchantId: mine,
        currency: 'UYU',
        amount: '1',
        confirmed: 'yes',
        operation: 'x',
      }),
    ).rejects.toMatchObject({ status: 403 });
    expect(api.requestPayout).not.toHaveBeenCalled();
  });

  it('shows a payout the API refuses (422), audited with its errorId', async () => {
    const { controller, api, identity } = controllerWith();
    api.requestPayout.mockRejectedValue(refusal('Payins:PAYOUT_ACCOUNT_ON_HOLD', 'The account is on hold.'));
    const { res, answer } = recordingResponse();
    await controller.payout(request, res, { merchantId: mine, currency: 'UYU', amount: '10', confirmed: 'yes', operation });
    expect(answer.status).toBe(422);
    expect(answer.body).toContain('The account is on hold.');
    expect(identity.audit).toHaveBeenCalledWith(
      expect.objectContaining({
        action: 'payout',
        result: 'refused',
        detail: expect.objectContaining({ errorId: 'Payins:PAYOUT_ACCOUNT_ON_HOLD' }),
      }),
    );
  });

  it('confirms a settlement account as the person signed in: their code checked here, the API sent a signed confirmation of it', async () => {
    const { controller, api, identity } = controllerWith();
    await expect(
      controller.confirmAccount(request, recordingResponse().res, { merchantId: mine, currency: 'UYU', code: ' 123 456 ' }),
    ).rejects.toMatchObject({ location: `/balance?merchantId=${mine}&done=confirmed` });
    expect(identity.confirmAsAdmin).toHaveBeenCalledWith(
      expect.objectContaining({ businessId: 'b-1', merchantId: mine, email: 'ana@example.uy', code: '123456', address: '203.0.113.7' }),
    );
    // The API receives no code: the confirmation of what was confirmed, by whom, signed with the master key.
    const [[, , sent]] = api.confirmSettlementAccount.mock.calls as unknown as [string, string, { confirmation: string }][];
    expect(Object.keys(sent)).toEqual(['confirmation']);
    expect(readSettlementConfirmation([masterKey], sent.confirmation, Math.floor(Date.now() / 1000))).toMatchObject({
      businessId: 'b-1',
      merchantId: mine,
      currency: 'UYU',
      bankId: 'bank-1',
      accountNumber: '001234567',
      confirmedBy: 'ana@example.uy',
    });
    // A wrong code: refused here (422), the API never asked.
    api.confirmSettlementAccount.mockClear();
    const wrong = recordingResponse();
    await controller.confirmAccount(request, wrong.res, { merchantId: mine, currency: 'UYU', code: '000000' });
    expect(wrong.answer.status).toBe(422);
    expect(api.confirmSettlementAccount).not.toHaveBeenCalled();
    // The API refusing (the account changed meanwhile): shown, audited.
    api.confirmSettlementAccount.mockRejectedValue(refusal('Payins:SETTLEMENT_ACCOUNT_ON_HOLD', 'It changed.'));
    const { res, answer } = recordingResponse();
    await controller.confirmAccount(request, res, { merchantId: mine, currency: 'UYU', code: '123456' });
    expect(answer.status).toBe(422);
    expect(identity.audit).toHaveBeenCalledWith(expect.objectContaining({ action: 'settlement-account:confirm', result: 'refused' }));
    await expect(
      controller.confirmAccount(request, recordingResponse().res, { merchantId: mine, currency: 'uyu', code: '123456' }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe('PayoutsController and ReconciliationController', () => {
  const other = '0b7c6e2a-5d4f-4e3b-9a1c-2f8e7d6c5b4a';
  function apiWith() {
    return {
      merchants: jest.fn().mockResolvedValue([{ merchantId: mine, merchantName: 'Tienda Pocitos', status: 'ACTIVE' }]),
      localeOf: jest.fn().mockResolvedValue({ timeZone: 'America/Montevideo' }),
      payouts: jest.fn().mockResolvedValue({ rows: [], total: 0, pageCount: 0 }),
      payout: jest.fn().mockResolvedValue(null),
      payoutTransactionsCsv: jest.fn(),
      reconciliationRuns: jest.fn().mockResolvedValue({ rows: [], total: 0, pageCount: 0 }),
      reconciliationRun: jest.fn().mockResolvedValue(null),
    };
  }

  it('lists for one of the person’s merchants (another’s id: their first), a page at a time', async () => {
    const api = apiWith();
    const payouts = new PayoutsController(api as unknown as PayinsApi);
    const reconciliation = new ReconciliationController(api as unknown as PayinsApi);
    await payouts.list(request, recordingResponse().res, { merchantId: other, page: '2' });
    await reconciliation.list(request, recordingResponse().res, { merchantId: other });
    expect(api.payouts).toHaveBeenCalledWith(operator, { merchantId: mine, page: 2, limit: 25 });
    expect(api.reconciliationRuns).toHaveBeenCalledWith(operator, { page: 1, merchantId: mine });
  });

  it('answers a payout or a run the person cannot read with a 404, its CSV never asked for', async () => {
    const api = apiWith();
    const payouts = new PayoutsController(api as unknown as PayinsApi);
    await expect(payouts.show(request, recordingResponse().res, 'po-x', undefined)).rejects.toMatchObject({ status: 404 });
    await expect(payouts.csv(request, recordingResponse().res, 'po-x')).rejects.toMatchObject({ status: 404 });
    expect(api.payoutTransactionsCsv).not.toHaveBeenCalled();
    await expect(
      new ReconciliationController(api as unknown as PayinsApi).show(request, recordingResponse().res, 'run-x'),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});
