import { StreamableFile } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import type { Request } from 'express';
import { asBusinessId, asMerchantId, Caller, Currency, MAX_PAGE_SIZE } from '@pcs/kernel';
import { Payout } from '@pcs/settlement';
import type { BalancesService, PayoutsService } from '@pcs/settlement';
import { PayoutController } from './payout.controller';
import { CreatePayoutDto, ListPayoutsQuery } from './settlement.dto';

/**
 * The payouts' controller against its services: a request passes the amount
 * as sent (the service reads it in the balance's currency) and the
 * Idempotency-Key; a list answers the payins envelope, or on `Accept:
 * text/csv` every page of the filters (not one page) as CSV; each payout is
 * shown with its bank's name. The services are jest stand-ins;
 * test/payouts.e2e-spec.ts runs the routes over HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');

function payout(n: number): Payout {
  return Payout.create({
    payoutId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    businessId: caller.businessId,
    merchantId,
    currency: Currency.UYU,
    amount: 150050 + n,
    rail: 'sandbox',
    origin: 'REQUESTED',
    destination: {
      settlementAccountId: 'sa-1',
      bankId: 'bank-1',
      accountNumber: '001234567',
      accountType: 'CHECKING',
      holderDocument: null,
    },
    transactionCount: 0,
    scheduledFor: null,
    createdAt: new Date('2026-11-27T12:00:00Z'),
  });
}

function accepting(type: string): Request {
  return { accepts: (types: string[]) => (types.includes(type) ? type : false) } as unknown as Request;
}

async function text(file: StreamableFile): Promise<string> {
  let all = '';
  for await (const chunk of file.getStream()) all += String(chunk);
  return all;
}

function controllerWith() {
  const payouts = {
    request: jest.fn().mockResolvedValue(payout(1)),
    list: jest.fn(),
    get: jest.fn().mockResolvedValue(payout(1)),
    cancel: jest.fn().mockResolvedValue(payout(1)),
    bankOf: jest.fn().mockResolvedValue({ bankId: 'bank-1', name: 'Banco República', country: 'URY', code: '001' }),
  };
  const balances = { list: jest.fn(), batches: jest.fn() };
  const controller = new PayoutController(payouts as unknown as PayoutsService, balances as unknown as BalancesService);
  return { controller, payouts, balances };
}

describe('PayoutController', () => {
  it('asks for a payout with the amount as sent and the Idempotency-Key, and shows it with its bank’s name', async () => {
    const { controller, payouts } = controllerWith();
    const answer = await controller.create(
      caller,
      merchantId,
      plainToInstance(CreatePayoutDto, { currency: 'UYU', amount: 1500.5 }),
      'key-1',
    );
    expect(payouts.request).toHaveBeenCalledWith(caller, merchantId, 'UYU', 1500.5, 'key-1');
    expect(payouts.bankOf).toHaveBeenCalledWith('bank-1');
    expect(answer).toMatchObject({ amount: 1500.51, currency: 'UYU', status: 'PENDING', settlementBank: { bankName: 'Banco República' } });
  });

  it('lists a page in the payins envelope, the dates as bounds of whole days', async () => {
    const { controller, payouts } = controllerWith();
    payouts.list.mockResolvedValue({ items: [payout(1), payout(2)], page: 1, limit: 10, total: 12 });
    const query = plainToInstance(ListPayoutsQuery, { merchantId, dateFrom: '2026-11-01', dateTo: '2026-11-30', page: 1, limit: 10 });
    const answer = await controller.list(caller, query, accepting('application/json'));
    const [, filters, page] = payouts.list.mock.calls[0] as [Caller, Record<string, unknown>, unknown];
    expect(filters).toMatchObject({
      merchantId,
      dateFrom: new Date('2026-11-01T00:00:00.000Z'),
      dateTo: new Date('2026-11-30T23:59:59.999Z'),
    });
    expect(page).toEqual({ page: 1, limit: 10 });
    expect(answer).toMatchObject([{ currentPage: '1', pageSize: '10', rowCount: 12, pageCount: 2 }]);
  });

  it('answers CSV on Accept: text/csv with every page of the filters, not the one asked', async () => {
    const { controller, payouts } = controllerWith();
    const first = Array.from({ length: MAX_PAGE_SIZE }, (_, i) => payout(i));
    payouts.list
      .mockResolvedValueOnce({ items: first, page: 1, limit: MAX_PAGE_SIZE, total: MAX_PAGE_SIZE + 1 })
      .mockResolvedValueOnce({ items: [payout(MAX_PAGE_SIZE)], page: 2, limit: MAX_PAGE_SIZE, total: MAX_PAGE_SIZE + 1 });
    const answer = await controller.list(caller, plainToInstance(ListPayoutsQuery, { page: 3, limit: 5 }), accepting('text/csv'));
    expect(answer).toBeInstanceOf(StreamableFile);
    const csv = await text(answer as StreamableFile);
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^payoutId,merchantId,currency,amount,status,bankId/);
    expect(lines).toHaveLength(MAX_PAGE_SIZE + 2);
    expect(payouts.list.mock.calls.map(([, , page]) => page)).toEqual([
      { page: 1, limit: MAX_PAGE_SIZE },
      { page: 2, limit: MAX_PAGE_SIZE },
    ]);
    expect(csv).toContain('Banco República');
  });

  it('reads a payout’s movements in its merchant’s scope, and cancels through the service', async () => {
    const { controller, balances, payouts } = controllerWith();
    balances.list.mockResolvedValue({ items: [], page: 1, limit: 10, total: 0 });
    const id = payout(1).snapshot().payoutId;
    await controller.transactions(caller, id, plainToInstance(ListPayoutsQuery, { page: 1, limit: 10 }), accepting('application/json'));
    expect(balances.list).toHaveBeenCalledWith(caller, { merchantId, payoutId: id }, { page: 1, limit: 10 });
    await controller.cancel(caller, id);
    expect(payouts.cancel).toHaveBeenCalledWith(caller, id);
  });
});
