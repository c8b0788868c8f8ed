import { plainToInstance } from 'class-transformer';
import { asBusinessId, Caller } from '@pcs/kernel';
import type { ReconciliationRunsService } from '@pcs/processor-reports';
import { ListReconciliationRunsQuery, ReconciliationRunController } from './reconciliation-run.controller';

/** Reconciliation runs against their service: the merchant typed, the page asked, one run by id. test/reconciliation*.e2e-spec.ts run them over HTTP. */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';
const asked = new Error('asked');

describe('ReconciliationRunController', () => {
  it('lists a merchant’s runs a page at a time, in the payins envelope', async () => {
    const runs = {
      list: jest.fn().mockResolvedValue({ items: [], page: 3, limit: 20, total: 41 }),
      get: jest.fn().mockRejectedValue(asked),
    };
    const controller = new ReconciliationRunController(runs as unknown as ReconciliationRunsService);
    const answer = await controller.list(caller, plainToInstance(ListReconciliationRunsQuery, { merchantId, page: 3, limit: 20 }));
    expect(runs.list).toHaveBeenCalledWith(caller, merchantId, { page: 3, limit: 20 });
    expect(answer).toEqual([{ currentPage: '3', pageSize: '20', rowCount: 41, pageCount: 3, results: [] }]);
    await expect(controller.get(caller, 'run-1')).rejects.toBe(asked);
    expect(runs.get).toHaveBeenCalledWith(caller, 'run-1');
  });
});
