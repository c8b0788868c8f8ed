import { TransactionStatus, wireAmount } from '@pcs/kernel';
import type { PayinProps } from '../domain/payin';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * A payin (or refund) as the payins API shows it: operation 36, and the
 * object of refund events. `payoutRequestId` is the payout that swept its
 * balance transaction (the settlement context knows it; null otherwise).
 * Fees and net (contract §19): 0 until approved; a refund has no fee and a
 * negative net. `fundsFlow` (contract §23) is whose processor account
 * collected it; a refund's `origin` who made it. Installments (contract §25):
 * the plan the payer paid in (`installments` 1: a single payment), what the
 * payer paid in all (any interest the payer pays is never the merchant's
 * money: `receivedAmount` stays the sale), and the financing fee the merchant
 * pays for an interest-free plan, which lowers the net in PLATFORM flow.
 */
export function payinRepresentation(p: Readonly<PayinProps>, payoutRequestId: string | null = null) {
  const wire = (minor: number) => wireAmount(minor, p.currency);
  const approved = p.status === TransactionStatus.APPROVED;
  const financing = approved && p.transactionType === 'PAYIN' ? (p.processorFinancingFeeAmount ?? 0) : 0;
  const net = !approved
    ? 0
    : p.transactionType === 'REFUND'
      ? -p.amount
      : p.receivedAmount - p.feeAmount - p.feeTaxAmount - (p.fundsFlow === 'PLATFORM' ? financing : 0);
  return {
    transactionId: p.transactionId,
    accountId: p.accountId,
    merchantId: p.merchantId,
    payoutRequestId,
    paymentIntentId: p.paymentIntentId,
    merchantName: p.merchantName,
    status: p.status,
    externalId: p.externalId,
    externalStatus: p.externalStatus,
    transactionSyncDate: iso(p.transactionSyncDate),
    transactionType: p.transactionType,
    currency: p.currency,
    amount: wire(p.amount),
    subtotalAmount: wire(p.subtotalAmount),
    taxAmount: wire(p.taxAmount),
    tipAmount: wire(p.tipAmount),
    receivedAmount: wire(p.receivedAmount),
    feeAmount: wire(approved ? p.feeAmount : 0),
    feeTaxAmount: wire(approved ? p.feeTaxAmount : 0),
    netAmount: wire(net),
    processorFeeAmount: p.processorFeeAmount === null ? null : wire(p.processorFeeAmount),
    installments: p.installments,
    installmentAmount: p.installmentAmount === null ? null : wire(p.installmentAmount),
    payerTotalAmount: p.payerTotalAmount === null ? null : wire(p.payerTotalAmount),
    financingFeeAmount: wire(financing),
    description: p.description,
    conceptCode: p.conceptCode,
    liquidationDate: iso(p.liquidationDate),
    liquidationSource: approved && p.transactionType === 'PAYIN' ? p.liquidationSource : null,
    fundsFlow: p.fundsFlow,
    origin: p.transactionType === 'REFUND' ? (p.origin ?? 'API') : null,
    cancelledAt: iso(p.cancelledAt),
    cancellationReason: p.cancellationReason,
    createdAt: iso(p.createdAt),
    person: { lastName: p.personLastName, firstName: p.personFirstName },
    paymentInstrumentData: { maskedPan: p.maskedPan, cardType: p.cardType },
    paymentIntentInitiator: p.paymentIntentInitiator,
  };
}
