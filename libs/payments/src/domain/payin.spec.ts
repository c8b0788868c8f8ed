import { asBusinessId, asMerchantId, asPaymentIntentId, Currency, TransactionStatus } from '@pcs/kernel';
import { Payin } from './payin';

const now = new Date('2026-11-20T15:00:00Z'); // a Friday
const open = () =>
  Payin.open({
    transactionId: 't',
    businessId: asBusinessId('b'),
    merchantId: asMerchantId('m'),
    paymentIntentId: asPaymentIntentId('pi'),
    accountId: null,
    transactionType: 'PAYIN',
    conceptCode: 'PAYIN',
    countryProcessorId: 'cp',
    gateway: 'SANDBOX',
    externalId: null,
    currency: Currency.UYU,
    amount: 12200,
    subtotalAmount: 10000,
    taxAmount: 2200,
    tipAmount: 0,
    description: null,
    merchantName: 'Shop',
    personFirstName: null,
    personLastName: null,
    paymentIntentInitiator: 'PAYER',
    sessionExpiresAt: null,
    reconcileAt: null,
    fundsFlow: 'PLATFORM',
    createdAt: now,
  });

describe('Payin', () => {
  it('fixes at approval the installment plan paid in: the one reported, or a single payment whatever was asked before the page', () => {
    const terms = { feeAmount: 548, feeTaxAmount: 121, availableOn: now, liquidationSource: 'CALENDAR', fundsFlow: 'PLATFORM' } as const;
    const asked = Payin.open({ ...open().snapshot(), installments: 3 });
    expect(asked.snapshot().installments).toBe(3);
    asked.approve('approved', now, terms);
    expect(asked.snapshot()).toMatchObject({ installments: 1, installmentAmount: null, payerTotalAmount: null });
    const paidIn = Payin.open({ ...open().snapshot(), installments: 3 });
    paidIn.approve('approved', now, terms, { plan: { installments: 6, installmentAmount: 2250, payerTotalAmount: 13500 } });
    expect(paidIn.snapshot()).toMatchObject({ installments: 6, installmentAmount: 2250, payerTotalAmount: 13500 });
  });

  it('fixes the fees and availability an approval brings; a refund has no fee and is available at once', () => {
    const availableOn = new Date('2026-11-24T03:00:00Z');
    const payin = open();
    const terms = { feeAmount: 548, feeTaxAmount: 121, availableOn, liquidationSource: 'PROCESSOR', fundsFlow: 'MERCHANT' } as const;
    expect(payin.approve('approved', now, terms, { processorFeeAmount: 400 })).toBe(true);
    expect(payin.snapshot()).toMatchObject({
      status: 'APPROVED',
      receivedAmount: 12200,
      externalStatus: 'approved',
      feeAmount: 548,
      feeTaxAmount: 121,
      processorFeeAmount: 400,
      liquidationDate: availableOn,
      liquidationSource: 'PROCESSOR',
      fundsFlow: 'MERCHANT',
    });
    const refund = Payin.open({ ...open().snapshot(), transactionId: 'r', transactionType: 'REFUND', conceptCode: 'REFUND' });
    refund.approve('refunded', now, terms);
    expect(refund.snapshot()).toMatchObject({ feeAmount: 0, feeTaxAmount: 0, liquidationDate: now, fundsFlow: 'PLATFORM' });
  });

  it('records a refund the processor made itself approved at once, under its reference; only a processor refund may be so recorded', () => {
    const api = Payin.open({ ...open().snapshot(), transactionId: 'r1', transactionType: 'REFUND', conceptCode: 'REFUND', origin: 'API' });
    expect(api.recordFromProcessor('mp-1', now, null)).toBe(false);
    expect(api.status).toBe(TransactionStatus.PENDING);
    const made = Payin.open({
      ...open().snapshot(),
      transactionId: 'r2',
      transactionType: 'REFUND',
      conceptCode: 'REFUND',
      origin: 'PROCESSOR',
    });
    expect(made.recordFromProcessor('mp-2', now, 'd-1')).toBe(true);
    expect(made.snapshot()).toMatchObject({ status: 'APPROVED', externalId: 'mp-2', settlesDisputeId: 'd-1', receivedAmount: 12200 });
    expect(made.pullRefundEvents()).toEqual(['refund.created', 'refund.succeeded']);
    expect(made.recordFromProcessor('mp-2', now, null)).toBe(false);
  });

  it('absorbs anything applied after a final state: nothing changes twice', () => {
    const payin = open();
    payin.reject('insufficient_funds', now);
    const before = payin.snapshot();
    expect(payin.approve('approved', now)).toBe(false);
    expect(payin.schedule('pending', now, 30_000)).toBe(false);
    expect(payin.cancel('late', now)).toBe(false);
    expect(payin.expire(now)).toBe(false);
    expect(payin.snapshot()).toEqual(before);
  });

  it('moves PENDING → SCHEDULED → APPROVED, but never back to SCHEDULED', () => {
    const payin = open();
    expect(payin.schedule('voucher_issued', now, 30_000)).toBe(true);
    expect(payin.status).toBe(TransactionStatus.SCHEDULED);
    expect(payin.schedule('voucher_issued', now, 30_000)).toBe(false);
    expect(payin.approve('approved', now)).toBe(true);
  });

  it('is asked about while it waits on a gateway, less often the older it is, and never once final', () => {
    const payin = open();
    payin.schedule('voucher_issued', now, 30_000);
    expect(payin.snapshot().reconcileAt).toEqual(new Date(now.getTime() + 30_000));
    const later = new Date(now.getTime() + 10 * 60_000);
    payin.askGatewayAgainLater(later, 30_000);
    expect(payin.snapshot().reconcileAt).toEqual(new Date(later.getTime() + 10 * 60_000));
    const muchLater = new Date(now.getTime() + 5 * 3600_000);
    payin.askGatewayAgainLater(muchLater, 30_000);
    expect(payin.snapshot().reconcileAt).toEqual(new Date(muchLater.getTime() + 3600_000));
    payin.approve('approved', muchLater);
    expect(payin.snapshot().reconcileAt).toBeNull();
  });

  it('keeps a gateway’s word to its column’s 64 characters, however long the refusal it sent', () => {
    const refused = open();
    const said = 'Mercado Pago refund: answered 400 (bad_request: amount exceeds the refundable amount)';
    expect(refused.reject(said, now)).toBe(true);
    expect(refused.snapshot().externalStatus).toBe(said.slice(0, 64));
  });

  it('keeps which refunds moved money at their processor: not a manual one settled by other means', () => {
    const manual = Payin.open({ ...open().snapshot(), transactionType: 'REFUND', conceptCode: 'MANUAL_REFUND' });
    expect(manual.confirmManualRefund('op', now)).toBe(true);
    expect(manual.snapshot()).toMatchObject({ status: TransactionStatus.APPROVED, refundedElsewhere: true });
    expect(manual.refundedAtProcessor).toBe(false);
    const atGateway = Payin.open({ ...open().snapshot(), transactionType: 'REFUND', conceptCode: 'MANUAL_REFUND' });
    atGateway.confirmManualRefundAtGateway('op', now, 1000);
    atGateway.approve('refunded', now);
    expect(atGateway.refundedAtProcessor).toBe(true);
    // What the processor says it refunded is what the record says, before it is approved.
    const ours = Payin.open({ ...open().snapshot(), transactionType: 'REFUND', conceptCode: 'REFUND' });
    expect(ours.takeProcessorAmount(12000)).toBe(-200);
    ours.approve('refunded', now);
    expect([ours.snapshot().amount, ours.takeProcessorAmount(1)]).toEqual([12000, 0]);
  });

  it('remembers which request confirmed a manual refund', () => {
    const refund = Payin.open({
      ...open().snapshot(),
      transactionType: 'REFUND',
      conceptCode: 'MANUAL_REFUND',
      manualRefundStatus: 'MANUAL_REFUND_PENDING',
    });
    expect(refund.confirmManualRefund('op-1', now)).toBe(true);
    expect(refund.snapshot()).toMatchObject({
      status: 'APPROVED',
      manualRefundStatus: 'MANUAL_REFUND_CONFIRMED',
      confirmedByOperation: 'op-1',
    });
    expect(refund.confirmManualRefund('op-2', now)).toBe(false);
    expect(refund.snapshot().confirmedByOperation).toBe('op-1');
  });
});
