import { wireAmount } from '@pcs/kernel';
import type { PaymentIntent, PaymentIntentStatus } from '@pcs/payment-intents';
import { PaymentIntentCreationResponse, PaymentIntentResponse } from './payment-intent.responses';

const NEXT_ACTIONS: Partial<Record<PaymentIntentStatus, string>> = {
  REQUIRES_PAYMENT_INSTRUMENT: 'INITIALIZE_WITH_PAYMENT_METHOD',
  REQUIRES_CONFIRMATION: 'INITIALIZE_WITH_PAYMENT_METHOD',
  REQUIRES_ACTION: 'REDIRECT_TO_GATEWAY',
  PROCESSING: 'WAIT_FOR_GATEWAY',
};

export function presentPaymentIntent(intent: PaymentIntent): PaymentIntentResponse {
  const p = intent.snapshot();
  const wire = (minor: number) => wireAmount(minor, p.currency);
  return {
    paymentIntentId: p.paymentIntentId,
    businessId: p.businessId,
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
  };
}

export function presentCreation(intent: PaymentIntent): PaymentIntentCreationResponse {
  return {
    paymentIntent: presentPaymentIntent(intent),
    confirmationMethod: intent.snapshot().confirmationMethod,
    status: intent.status,
    nextAction: NEXT_ACTIONS[intent.status] ?? null,
  };
}
