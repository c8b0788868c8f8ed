import type { DashboardIdentity, DashboardUser } from '@pcs/dashboard-identity';
import { recordingResponse } from '@pcs/testing';
import { PayinsApiError } from './payins-api';
import type { PayinsApi } from './payins-api';
import { PaymentsController } from './payments.controller';
import { Redirect } from './web';
import type { DashboardRequest } from './web';

/**
 * Payments' pages against the payins API and the audit, where the dashboard
 * moves money: a refund in two steps (the first shows what will be refunded
 * and hands the confirmation a key of its own, the second refunds with that
 * key as the API's Idempotency-Key and is audited), an amount beyond what is
 * refundable refused before the API is asked, a refusal of the API shown and
 * audited with its errorId; and the CSV export paging through every page of
 * the API, rows made after it began left out. test/dashboard-money.e2e-spec.ts
 * runs the pages in a browser.
 */
const operator: DashboardUser = { userId: 'u-1', businessId: 'b-1', merchantId: null, email: 'ana@example.uy', role: 'operator' };
const intentId = '3f1e2d4c-5b6a-4978-8695-a4b3c2d1e0f9';
const merchantId = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';
const request = {
  dashboard: { user: operator, csrfToken: 'csrf' },
  ip: '203.0.113.7',
  header: () => 'en',
  destroyed: false,
} as unknown as DashboardRequest;

const intent = {
  paymentIntentId: intentId,
  businessId: 'b-1',
  merchantId,
  payerId: 'p-1',
  paymentInstrumentId: null,
  payinType: 'DEFAULT',
  paymentIntentStatus: 'SUCCEEDED',
  lastPaymentError: null,
  externalReference: 'order-1',
  externalChargeId: null,
  externalInvoiceId: null,
  invoiceEmail: null,
  description: 'Order 1',
  currency: 'UYU',
  subtotalAmount: 1000,
  taxAmount: 220,
  tipAmount: 0,
  totalAmount: 1220,
  receivedAmount: 1220,
  refundedAmount: 0,
  refundableAmount: 1220,
  confirmationInstrument: null,
  nextAction: null,
  statementDescriptor: null,
  cancelledAt: null,
  cancellationReason: null,
  receiptEmail: null,
  setupFutureUsage: null,
  metadata: null,
  linkId: null,
  createdAt: '2026-11-27T12:00:00.000Z',
  exchangeRate: 1,
  disputed: false,
  disputes: [],
};

const row = (transactionType: 'PAYIN' | 'REFUND', amount: number, n = 1) => ({
  transactionId: `t-${transactionType}-${n}`,
  accountId: null,
  merchantId,
  paymentIntentId: intentId,
  merchantName: 'Tienda Pocitos',
  status: 'APPROVED',
  externalId: null,
  externalStatus: null,
  transactionSyncDate: null,
  transactionType,
  currency: 'UYU',
  amount,
  subtotalAmount: amount,
  taxAmount: 0,
  tipAmount: 0,
  receivedAmount: amount,
  feeAmount: 0,
  feeTaxAmount: 0,
  netAmount: amount,
  processorFeeAmount: null,
  description: null,
  conceptCode: transactionType,
  liquidationDate: null,
  liquidationSource: null,
  fundsFlow: 'PLATFORM',
  origin: 'API',
  cancelledAt: null,
  cancellationReason: null,
  createdAt: '2026-11-27T12:00:00.000Z',
  person: { firstName: 'Ana', lastName: 'Pérez' },
  paymentInstrumentData: null,
  paymentIntentInitiator: 'PAYER',
  payoutRequestId: null,
});

function controllerWith(refunded = 0) {
  const api = {
    // What the API says was refunded and may still be (contract §28): the dashboard does no arithmetic of its own.
    paymentIntent: jest.fn().mockResolvedValue({ ...intent, refundedAmount: refunded, refundableAmount: 1220 - refunded }),
    rowsOf: jest.fn().mockResolvedValue(refunded ? [row('PAYIN', 1220), row('REFUND', -refunded)] : [row('PAYIN', 1220)]),
    timelineOf: jest.fn().mockResolvedValue([]),
    localeOf: jest.fn().mockResolvedValue({ timeZone: 'America/Montevideo' }),
    refund: jest.fn().mockResolvedValue(undefined),
    ledger: jest.fn(),
  };
  const identity = { audit: jest.fn().mockResolvedValue(undefined) };
  return { controller: new PaymentsController(api as unknown as PayinsApi, identity as unknown as DashboardIdentity), api, identity };
}

describe('PaymentsController', () => {
  it('shows what will be refunded with a key of its own first, and refunds nothing yet', async () => {
    const { controller, api } = controllerWith();
    const { res, answer } = recordingResponse();
    await controller.refund(request, res, intentId, { kind: 'refund', amount: '200' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/name="operation" value="[0-9a-f-]{36}"/);
    expect(answer.body).toMatch(/name="confirmed" value="yes"/);
    expect(api.refund).not.toHaveBeenCalled();
  });

  it('refunds on the confirmation with its key as the Idempotency-Key, audits it and redirects; all when no amount is typed', async () => {
    const { controller, api, identity } = controllerWith(200);
    const operation = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
    await expect(
      controller.refund(request, recordingResponse().res, intentId, { kind: 'refund', amount: '200', confirmed: 'yes', operation }),
    ).rejects.toMatchObject({
      location: `/payments/${intentId}?done=refund`,
    });
    await expect(
      controller.refund(request, recordingResponse().res, intentId, { kind: 'manual', amount: '', confirmed: 'yes', operation }),
    ).rejects.toBeInstanceOf(Redirect);
    expect(api.refund.mock.calls).toEqual([
      [intentId, 'refund', 200, operation],
      [intentId, 'manual', undefined, operation],
    ]);
    expect(identity.audit.mock.calls.map(([entry]) => entry as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        action: 'refund',
        target: intentId,
        result: 'succeeded',
        detail: { amount: '200', currency: 'UYU', operation },
      }),
      expect.objectContaining({ action: 'manual-refund', result: 'succeeded', detail: { amount: 'all', currency: 'UYU', operation } }),
    ]);
  });

  it('refuses an amount beyond what is refundable, or not an amount, before asking the API', async () => {
    const { controller, api } = controllerWith(1000);
    for (const amount of ['220.01', '0', '-5', '12.345', 'abc']) {
      const { res, answer } = recordingResponse();
      await controller.refund(request, res, intentId, {
        kind: 'refund',
        amount,
        confirmed: 'yes',
        operation: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9',
      });
      expect([amount, answer.status]).toEqual([amount, 400]);
    }
    expect(api.refund).not.toHaveBeenCalled();
  });

  it('takes what may still be refunded from the API’s refundableAmount, not from the rows it shows (contract §28)', async () => {
    const { controller, api } = controllerWith();
    // The rows show 1,220.00 collected and nothing refunded; the API knows of 1,120.00 refunded at the processor.
    api.paymentIntent.mockResolvedValue({ ...intent, refundedAmount: 1120, refundableAmount: 100 });
    const operation = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
    const { res, answer } = recordingResponse();
    await controller.refund(request, res, intentId, { kind: 'refund', amount: '100.01', confirmed: 'yes', operation });
    expect(answer.status).toBe(400);
    expect(api.refund).not.toHaveBeenCalled();
    await expect(
      controller.refund(request, recordingResponse().res, intentId, { kind: 'refund', amount: '', confirmed: 'yes', operation }),
    ).rejects.toBeInstanceOf(Redirect);
    expect(api.refund.mock.calls).toEqual([[intentId, 'refund', undefined, operation]]);
  });

  it('refuses a confirmation without a well-formed key (403), and an unknown kind (400), refunding nothing', async () => {
    const { controller, api } = controllerWith();
    await expect(
      controller.refund(request, recordingResponse().res, intentId, { kind: 'refund', amount: '1', confirmed: 'yes' }),
    ).rejects.toMatchObject({
      status: 403,
    });
    await expect(controller.refund(request, recordingResponse().res, intentId, { kind: 'chargeback', amount: '1' })).rejects.toMatchObject({
      status: 400,
    });
    expect(api.refund).not.toHaveBeenCalled();
  });

  it('shows the API’s refusal (422) and audits it as refused with its errorId', async () => {
    const { controller, api, identity } = controllerWith();
    api.refund.mockRejectedValue(
      new PayinsApiError(409, {
        errorId: 'Payins:REFUND_AMOUNT_EXCEEDS_AVAILABLE',
        message: 'exceeds',
        showMessage: { EN: 'The refund exceeds what is refundable.', ES: 'El reembolso supera lo reembolsable.' },
        needUpdate: false,
      } as never),
    );
    const { res, answer } = recordingResponse();
    await controller.refund(request, res, intentId, {
      kind: 'refund',
      amount: '10',
      confirmed: 'yes',
      operation: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9',
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toContain('The refund exceeds what is refundable.');
    expect(identity.audit).toHaveBeenCalledWith(
      expect.objectContaining({
        action: 'refund',
        result: 'refused',
        detail: expect.objectContaining({ errorId: 'Payins:REFUND_AMOUNT_EXCEEDS_AVAILABLE' }),
      }),
    );
  });

  it('exports every page of the API oldest first, up to when the export began, and audits it', async () => {
    const { controller, api, identity } = controllerWith();
    api.ledger
      .mockResolvedValueOnce({ rows: [row('PAYIN', 10, 1), row('PAYIN', 20, 2)], total: 3, pageCount: 2 })
      .mockResolvedValueOnce({ rows: [row('PAYIN', 30, 3)], total: 3, pageCount: 2 });
    const { res, answer } = recordingResponse();
    const before = new Date().toISOString();
    await controller.export(request, res, { status: 'APPROVED', currency: 'UYU', dateUntil: '2999-01-01', minAmount: 'x' });
    const [first, second] = api.ledger.mock.calls.map(([, filters]) => filters as Record<string, unknown>);
    expect(first).toMatchObject({
      status: 'APPROVED',
      currency: 'UYU',
      minAmount: undefined,
      sort: 'DATE',
      order: 'ASC',
      page: 1,
      limit: 100,
    });
    expect(second).toMatchObject({ page: 2, limit: 100 });
    expect(String(first.dateUntil) >= before).toBe(true);
    expect(answer.chunks).toHaveLength(1 + 3);
    expect(answer.ended).toBe(true);
    expect(identity.audit).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'payments:export', detail: expect.objectContaining({ rows: 3 }) }),
    );
  });
});
