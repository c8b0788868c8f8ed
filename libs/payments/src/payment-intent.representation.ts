import { wireAmount } from '@pcs/kernel';
import type { PaymentIntent } from './domain/payment-intent';

/** A payment intent as the payins API shows it: operations 19–23, and the object of its events. */
export function paymentIntentRepresentation(intent: PaymentIntent) {
  const p = intent.snapshot();
  const wire = (minor: number) => wireAmount(minor, p.currency);
  return {
    paymentIntentId: p.paymentIntentId,
    businessId: p.businessId,
    // Beyond the specification: which merchant collects it (the dashboard scopes people by merchant).
    merchantId: p.merchantId,
    payerId: p.payerId,
    paymentInstrumentId: p.paymentInstrumentId,
    payinType: p.payinType,
    paymentIntentStatus: p.status,
    lastPaymentError: p.lastPaymentError,
    externalReference: p.externalReference,
    externalChargeId: p.externalChargeId,
    externalInvoiceId: p.externalInvoiceId,
    invoiceEmail: p.invoiceEmail,
    description: p.description,
    currency: p.currency,
    subtotalAmount: wire(intent.subtotalAmount),
    taxAmount: wire(p.taxAmount),
    tipAmount: wire(p.tipAmount),
    totalAmount: wire(intent.total.minor),
    receivedAmount: wire(p.receivedAmount),
    // Contract §28: what was refunded, exact in any order, and what a refund may still ask for.
    refundedAmount: wire(p.refundedAmount),
    refundableAmount: wire(intent.refundable.minor),
    confirmationInstrument: null,
    nextAction: null,
    statementDescriptor: null,
    cancelledAt: p.cancelledAt?.toISOString() ?? null,
    cancellationReason: p.cancellationReason,
    receiptEmail: p.receiptEmail,
    setupFutureUsage: p.setupFutureUsage ? 'OFF_SESSION' : null,
    metadata: p.metadata ? JSON.stringify(p.metadata) : null,
    linkId: p.linkId,
    createdAt: p.createdAt.toISOString(),
    exchangeRate: Number(p.exchangeRate),
    // Contract §21: whether the payer's bank disputed it, and each dispute's status and amount.
    disputed: intent.disputed,
    disputes: p.disputes.map((d) => ({ disputeId: d.disputeId, status: d.status, amount: wire(d.amount) })),
    // Contract §25: the installment plan it was paid in (payment_intent.succeeded carries it); null: one payment.
    installmentPlan: p.installmentPlan && {
      installments: p.installmentPlan.installments,
      installmentAmount: p.installmentPlan.installmentAmount === null ? null : wire(p.installmentPlan.installmentAmount),
      payerTotalAmount: p.installmentPlan.payerTotalAmount === null ? null : wire(p.installmentPlan.payerTotalAmount),
      financingFeeAmount: wire(p.installmentPlan.financingFeeAmount),
    },
  };
}
