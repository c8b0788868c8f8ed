import type { DashboardUser } from '@pcs/dashboard-identity';
import { recordingResponse } from '@pcs/testing';
import type { DashboardRequest } from './web';
import type { PayinsApi } from './payins-api';
import { PayersController } from './payers.controller';

/** The payers' search against the payins API: the term trimmed and bounded, the page a positive integer (else the first). */
const user: DashboardUser = { userId: 'u-1', businessId: 'b-1', merchantId: null, email: 'ana@example.uy', role: 'operator' };
const request = { dashboard: { user, csrfToken: 'csrf' }, header: () => 'en' } as unknown as DashboardRequest;

describe('PayersController', () => {
  it('searches with the term as typed (bounded to 100 characters) and the page asked, or the first', async () => {
    const payers = jest.fn().mockResolvedValue({ rows: [], total: 0, pageCount: 0 });
    const controller = new PayersController({ payers } as unknown as PayinsApi);
    for (const query of [{ searchTerm: 'ana', page: '2' }, { searchTerm: 'x'.repeat(150), page: '-1' }, { page: ['3'] }, {}]) {
      const { res, answer } = recordingResponse();
      await controller.search(request, res, query);
      expect(answer.body).toContain('<html');
    }
    expect(payers.mock.calls.map(([, asked]) => asked as { page: number; searchTerm?: string })).toEqual([
      { page: 2, searchTerm: 'ana' },
      { page: 1, searchTerm: 'x'.repeat(100) },
      { page: 1, searchTerm: undefined },
      { page: 1, searchTerm: undefined },
    ]);
  });
});
