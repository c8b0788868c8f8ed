import { plainToInstance } from 'class-transformer';
import { asBusinessId, asMerchantId, Caller, InvalidRequestError } from '@pcs/kernel';
import type { MerchantAccess } from '@pcs/merchants';
import type { PayinLedgerService } from '@pcs/payments';
import type { BalancesService } from '@pcs/settlement';
import { PayinController } from './payin.controller';
import { ListPayinsQuery, PayinSummaryQuery } from './payin.dto';

/**
 * The payins ledger's controller against its services (issue 41: a spec per
 * controller): what it asks of the ledger, the tenancy check it makes first,
 * the refusals it makes itself, and the envelope it answers. The services are
 * stand-ins recording their calls; the end-to-end specs cover the same routes
 * over HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';

function controllerWith() {
  const calls: { list: unknown[][]; summary: unknown[][]; visible: unknown[][]; payouts: unknown[][] } = {
    list: [],
    summary: [],
    visible: [],
    payouts: [],
  };
  const ledger = {
    list: (...args: unknown[]) => {
      calls.list.push(args);
      return Promise.resolve({ items: [], page: 2, limit: 5, total: 11 });
    },
    summary: (...args: unknown[]) => {
      calls.summary.push(args);
      return Promise.resolve({ days: [], paymentMethods: [], totals: [] });
    },
  } as unknown as PayinLedgerService;
  const access = {
    loadVisible: (...args: unknown[]) => {
      calls.visible.push(args);
      return Promise.resolve({});
    },
  } as unknown as MerchantAccess;
  const balances = {
    payoutsOfSources: (...args: unknown[]) => {
      calls.payouts.push(args);
      return Promise.resolve(new Map());
    },
  } as unknown as BalancesService;
  return { controller: new PayinController(ledger, access, balances), calls };
}

describe('PayinController', () => {
  it('lists through the ledger with the filters typed and the dates as bounds, after checking the named merchant is visible', async () => {
    const { controller, calls } = controllerWith();
    const query = plainToInstance(ListPayinsQuery, {
      merchantId,
      status: 'APPROVED',
      dateFrom: '2026-11-01',
      dateUntil: '2026-11-02',
      page: 2,
      limit: 5,
    });
    const answer = await controller.list(caller, query);
    expect(calls.visible).toEqual([[caller, asMerchantId(merchantId)]]);
    expect(calls.list).toHaveLength(1);
    const [asked, filters, page] = calls.list[0] as [Caller, Record<string, unknown>, unknown];
    expect(asked).toBe(caller);
    expect(filters).toMatchObject({
      merchantId,
      status: 'APPROVED',
      dateFrom: new Date('2026-11-01T00:00:00.000Z'),
      dateUntil: new Date('2026-11-02T23:59:59.999Z'),
    });
    expect(page).toEqual({ page: 2, limit: 5 });
    expect(calls.payouts).toEqual([[[]]]);
    expect(answer).toEqual([{ currentPage: '2', pageSize: '5', rowCount: 11, pageCount: 3, results: [] }]);
  });

  it('refuses a minimum above the maximum before asking anything', async () => {
    const { controller, calls } = controllerWith();
    const query = plainToInstance(ListPayinsQuery, { minAmount: 10, maxAmount: 5 });
    await expect(controller.list(caller, query)).rejects.toBeInstanceOf(InvalidRequestError);
    expect(calls.list).toEqual([]);
    expect(calls.visible).toEqual([]);
  });

  it('summarizes whole UTC days, the last 30 by default, until the end of the last day', async () => {
    const { controller, calls } = controllerWith();
    const answer = await controller.summarize(
      caller,
      plainToInstance(PayinSummaryQuery, { dateFrom: '2026-11-01', dateUntil: '2026-11-03' }),
    );
    expect(calls.summary).toEqual([[caller, undefined, new Date('2026-11-01T00:00:00.000Z'), new Date('2026-11-04T00:00:00.000Z')]]);
    expect(answer).toMatchObject({ dateFrom: '2026-11-01', dateUntil: '2026-11-03', days: [], totals: [] });

    await controller.summarize(caller, plainToInstance(PayinSummaryQuery, {}));
    const [, , from, until] = calls.summary[1] as [Caller, undefined, Date, Date];
    expect((until.getTime() - from.getTime()) / 86_400_000).toBe(30);
  });

  it('refuses a reversed span, a span over 366 days and an impossible date', async () => {
    const { controller, calls } = controllerWith();
    for (const query of [
      { dateFrom: '2026-11-03', dateUntil: '2026-11-01' },
      { dateFrom: '2025-01-01', dateUntil: '2026-11-01' },
      { dateFrom: '2026-02-30', dateUntil: '2026-03-01' },
    ]) {
      await expect(controller.summarize(caller, plainToInstance(PayinSummaryQuery, query))).rejects.toBeInstanceOf(InvalidRequestError);
    }
    expect(calls.summary).toEqual([]);
  });
});
