import { StreamableFile } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import type { Request } from 'express';
import { asBusinessId, asMerchantId, Caller, Currency } from '@pcs/kernel';
import type { BalancesService, BalanceTransaction } from '@pcs/settlement';
import { BalanceController } from './balance.controller';
import { ListBalanceTransactionsQuery } from './settlement.dto';

/**
 * Balances' controller against its service: balances in wire amounts per
 * currency; movements with their filters typed and dates as whole-day bounds,
 * a page in the payins envelope, or on `Accept: text/csv` every batch the
 * service streams (not one page). The service is a jest stand-in;
 * test/settlement.e2e-spec.ts runs the routes over HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');

const movement = (n: number): BalanceTransaction => ({
  balanceTransactionId: `bt-${n}`,
  businessId: caller.businessId,
  merchantId,
  currency: Currency.UYU,
  type: 'PAYIN',
  amount: 122000,
  fee: 3050,
  financingFee: 0,
  net: 118950,
  availableOn: new Date('2026-11-30T03:00:00Z'),
  sourceId: `tx-${n}`,
  payoutId: null,
  description: null,
  createdAt: new Date('2026-11-27T12:00:00Z'),
});

const accepting = (type: string) => ({ accepts: (types: string[]) => (types.includes(type) ? type : false) }) as unknown as Request;

function controllerWith() {
  const balances = {
    balance: jest.fn().mockResolvedValue({
      merchantId,
      balances: [{ currency: Currency.UYU, pending: 118950, available: -6683, inTransit: 0, upcoming: [] }],
    }),
    list: jest.fn().mockResolvedValue({ items: [movement(1)], page: 1, limit: 10, total: 1 }),
    batches: jest.fn(),
  };
  return { controller: new BalanceController(balances as unknown as BalancesService), balances };
}

describe('BalanceController', () => {
  it('answers a merchant’s balances in wire amounts', async () => {
    const { controller, balances } = controllerWith();
    expect(await controller.balance(caller, merchantId)).toEqual({
      merchantId,
      balances: [{ currency: 'UYU', pending: 1189.5, available: -66.83, inTransit: 0, upcoming: [] }],
    });
    expect(balances.balance).toHaveBeenCalledWith(caller, merchantId);
  });

  it('lists movements with the filters typed and the dates as bounds of whole days', async () => {
    const { controller, balances } = controllerWith();
    const query = plainToInstance(ListBalanceTransactionsQuery, {
      merchantId,
      type: 'PAYIN',
      dateFrom: '2026-11-01',
      dateTo: '2026-11-30',
      page: 1,
      limit: 10,
    });
    const answer = await controller.list(caller, query, accepting('application/json'));
    expect(balances.list.mock.calls[0][1]).toMatchObject({
      merchantId,
      type: 'PAYIN',
      dateFrom: new Date('2026-11-01T00:00:00.000Z'),
      dateTo: new Date('2026-11-30T23:59:59.999Z'),
    });
    expect(answer).toMatchObject([{ rowCount: 1, results: [{ balanceTransactionId: 'bt-1', amount: 1220, fee: 30.5, net: 1189.5 }] }]);
  });

  it('streams every batch as CSV on Accept: text/csv', async () => {
    const { controller, balances } = controllerWith();
    balances.batches.mockResolvedValue(
      (async function* () {
        yield [movement(1), movement(2)];
        yield [movement(3)];
      })(),
    );
    const answer = (await controller.list(
      caller,
      plainToInstance(ListBalanceTransactionsQuery, {}),
      accepting('text/csv'),
    )) as StreamableFile;
    expect(answer).toBeInstanceOf(StreamableFile);
    let csv = '';
    for await (const chunk of answer.getStream()) csv += String(chunk);
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^balanceTransactionId,merchantId,currency/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['bt-1', 'bt-2', 'bt-3']);
    expect(balances.list).not.toHaveBeenCalled();
  });
});
