import { plainToInstance } from 'class-transformer';
import type { Request } from 'express';
import { Dispute } from '@pcs/disputes';
import type { DisputesService } from '@pcs/disputes';
import type { RawBodyRequest } from '@pcs/http';
import { asBusinessId, asMerchantId, Caller, Currency } from '@pcs/kernel';
import { DisputeController } from './dispute.controller';
import { ListDisputesQuery } from './dispute.dto';

/**
 * The disputes' controller against its service: filters typed and dates as
 * whole-day bounds, the evidence handed over as the raw bytes the signature
 * covered (with their content type and the Idempotency-Key), and each answer
 * the dispute with its evidence. The service is a jest stand-in;
 * test/disputes.e2e-spec.ts runs the routes over HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');
const disputeId = '7b6a5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d';
const now = new Date('2026-11-27T12:00:00Z');

function view() {
  const dispute = Dispute.open(
    {
      disputeId,
      businessId: caller.businessId,
      merchantId,
      paymentIntentId: 'pi-1',
      chargeId: 'ch-1',
      currency: Currency.UYU,
      amount: 150050,
      processor: 'SANDBOX',
      processorReference: 'case-1',
      fundsFlow: 'PLATFORM',
      kind: 'CHARGEBACK',
      createdAt: now,
    },
    { status: 'NEEDS_RESPONSE', evidenceDueBy: new Date('2026-12-04T12:00:00Z'), reason: 'FRAUDULENT' },
  );
  return { dispute, evidence: [] };
}

function controllerWith() {
  const answer = view();
  const disputes = {
    list: jest.fn().mockResolvedValue({ items: [answer], page: 1, limit: 10, total: 1 }),
    get: jest.fn().mockResolvedValue(answer),
    addEvidence: jest.fn().mockResolvedValue(answer),
    submit: jest.fn().mockResolvedValue(answer),
    accept: jest.fn().mockResolvedValue(answer),
  };
  return { controller: new DisputeController(disputes as unknown as DisputesService), disputes };
}

describe('DisputeController', () => {
  it('lists with the merchant typed and the dates as bounds of whole days, in the payins envelope', async () => {
    const { controller, disputes } = controllerWith();
    const query = plainToInstance(ListDisputesQuery, {
      merchantId,
      status: 'NEEDS_RESPONSE',
      dateFrom: '2026-11-01',
      dateTo: '2026-11-30',
      page: 1,
      limit: 10,
    });
    const answer = await controller.list(caller, query);
    expect(disputes.list).toHaveBeenCalledWith(
      caller,
      {
        merchantId,
        status: 'NEEDS_RESPONSE',
        dateFrom: new Date('2026-11-01T00:00:00.000Z'),
        dateUntil: new Date('2026-11-30T23:59:59.999Z'),
        sort: undefined,
      },
      { page: 1, limit: 10 },
    );
    expect(answer).toMatchObject([{ rowCount: 1, results: [{ disputeId, status: 'NEEDS_RESPONSE', amount: 1500.5, currency: 'UYU' }] }]);
  });

  it('hands the evidence over as the raw bytes with their content type and the Idempotency-Key, and nothing when none came', async () => {
    const { controller, disputes } = controllerWith();
    const bytes = Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF\r\n--b--\r\n');
    const request = { rawBody: bytes, headers: { 'content-type': 'multipart/form-data; boundary=b' } } as unknown as Request &
      RawBodyRequest;
    await controller.evidence(caller, disputeId, request, 'key-1');
    expect(disputes.addEvidence).toHaveBeenCalledWith(caller, disputeId, 'multipart/form-data; boundary=b', bytes, 'key-1');
    await controller.evidence(caller, disputeId, { headers: {} } as unknown as Request & RawBodyRequest);
    expect(disputes.addEvidence).toHaveBeenLastCalledWith(caller, disputeId, undefined, Buffer.alloc(0), undefined);
  });

  it('reads, submits and accepts through the service, each answering the dispute', async () => {
    const { controller, disputes } = controllerWith();
    for (const route of ['get', 'submit', 'accept'] as const) {
      expect(await controller[route](caller, disputeId)).toMatchObject({ disputeId, reason: 'FRAUDULENT' });
      expect(disputes[route]).toHaveBeenCalledWith(caller, disputeId);
    }
  });
});
