import type { DashboardIdentity, DashboardUser } from '@pcs/dashboard-identity';
import { recordingResponse } from '@pcs/testing';
import { DisputesController } from './disputes.controller';
import { PayinsApiError } from './payins-api';
import type { PayinsApi } from './payins-api';
import type { DashboardRequest } from './web';

/**
 * Disputes' pages against the payins API and the audit: only a dispute the
 * person can read is answered (404 otherwise, asking nothing); accepting gives
 * the amount up, so the first post only asks and the confirmed one accepts;
 * evidence needs its form's key (the API's Idempotency-Key) and a file; every
 * answer is audited, a refusal of the API shown (422) with the dispute as it is
 * now. test/dashboard-disputes.e2e-spec.ts runs the pages in a browser.
 */
const operator: DashboardUser = { userId: 'u-1', businessId: 'b-1', merchantId: null, email: 'ana@example.uy', role: 'operator' };
const request = { dashboard: { user: operator, csrfToken: 'csrf' }, ip: '203.0.113.7', header: () => 'en' } as unknown as DashboardRequest;
const disputeId = '7b6a5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d';
const operation = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';

const dispute = (status = 'NEEDS_RESPONSE') => ({
  disputeId,
  paymentIntentId: '3f1e2d4c-5b6a-4978-8695-a4b3c2d1e0f9',
  merchantId: '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f',
  amount: 1500.5,
  currency: 'UYU',
  reason: 'FRAUDULENT',
  status,
  evidenceDueBy: '2026-12-04T12:00:00.000Z',
  evidence: [],
  processor: 'SANDBOX',
  processorReference: 'case-1',
  createdAt: '2026-11-27T12:00:00.000Z',
  closedAt: null,
});

function controllerWith() {
  const api = {
    dispute: jest.fn((_user: DashboardUser, id: string) => Promise.resolve(id === disputeId ? dispute() : null)),
    localeOf: jest.fn().mockResolvedValue({ timeZone: 'America/Montevideo' }),
    acceptDispute: jest.fn().mockResolvedValue(dispute('LOST')),
    submitDispute: jest.fn().mockResolvedValue(dispute('UNDER_REVIEW')),
    addEvidence: jest.fn().mockResolvedValue(dispute()),
  };
  const identity = { audit: jest.fn().mockResolvedValue(undefined) };
  return { controller: new DisputesController(api as unknown as PayinsApi, identity as unknown as DashboardIdentity), api, identity };
}

describe('DisputesController', () => {
  it('answers only a dispute the person can read', async () => {
    const { controller, api } = controllerWith();
    const other = '00000000-0000-4000-8000-000000000000';
    await expect(controller.submit(request, recordingResponse().res, other)).rejects.toMatchObject({ status: 404 });
    await expect(controller.accept(request, recordingResponse().res, other, { confirmed: 'yes' })).rejects.toMatchObject({ status: 404 });
    expect([api.submitDispute, api.acceptDispute].map((f) => f.mock.calls.length)).toEqual([0, 0]);
  });

  it('asks before accepting, then accepts on the confirmation, audited with the amount given up', async () => {
    const { controller, api, identity } = controllerWith();
    const { res, answer } = recordingResponse();
    await controller.accept(request, res, disputeId, {});
    expect(answer.body).toMatch(/name="confirmed" value="yes"/);
    expect(api.acceptDispute).not.toHaveBeenCalled();
    await expect(controller.accept(request, recordingResponse().res, disputeId, { confirmed: 'yes' })).rejects.toMatchObject({
      location: `/disputes/${disputeId}?done=accepted`,
    });
    expect(api.acceptDispute).toHaveBeenCalledWith(disputeId);
    expect(identity.audit).toHaveBeenCalledWith(
      expect.objectContaining({
        action: 'dispute:accept',
        result: 'succeeded',
        detail: { amount: 1500.5, currency: 'UYU', status: 'LOST' },
      }),
    );
  });

  it('takes evidence only with its form’s key and a file, the key as the Idempotency-Key', async () => {
    const { controller, api } = controllerWith();
    await expect(controller.evidence(request, recordingResponse().res, disputeId, { files: [] })).rejects.toMatchObject({ status: 403 });
    const none = recordingResponse();
    await controller.evidence(request, none.res, disputeId, { operation, files: [] });
    expect(none.answer.status).toBe(400);
    expect(api.addEvidence).not.toHaveBeenCalled();
    const file = { name: 'receipt.pdf', type: 'application/pdf', content: Buffer.from('%PDF-1.4') };
    await expect(controller.evidence(request, recordingResponse().res, disputeId, { operation, files: [file] })).rejects.toMatchObject({
      location: `/disputes/${disputeId}?done=evidence`,
    });
    expect(api.addEvidence).toHaveBeenCalledWith(
      disputeId,
      [{ name: 'receipt.pdf', type: 'application/pdf', content: new Uint8Array(file.content) }],
      operation,
    );
  });

  it('shows a refusal of the API (422) and audits it with its errorId; a failure of the API is not shown as a refusal', async () => {
    const { controller, api, identity } = controllerWith();
    api.submitDispute.mockRejectedValueOnce(
      new PayinsApiError(409, {
        errorId: 'Payins:DISPUTE_NO_EVIDENCE',
        message: 'no evidence',
        showMessage: { EN: 'Add evidence first.', ES: 'Agregue evidencia primero.' },
        needUpdate: false,
      } as never),
    );
    const { res, answer } = recordingResponse();
    await controller.submit(request, res, disputeId);
    expect(answer.status).toBe(422);
    expect(answer.body).toContain('Add evidence first.');
    expect(identity.audit).toHaveBeenLastCalledWith(
      expect.objectContaining({ action: 'dispute:submit', result: 'refused', detail: { errorId: 'Payins:DISPUTE_NO_EVIDENCE' } }),
    );
    api.submitDispute.mockRejectedValueOnce(new PayinsApiError(503, undefined));
    await expect(controller.submit(request, recordingResponse().res, disputeId)).rejects.toBeInstanceOf(PayinsApiError);
    expect(identity.audit).toHaveBeenLastCalledWith(expect.objectContaining({ action: 'dispute:submit', result: 'failed' }));
  });
});
