import { paymentIntentRepresentation } from '@pcs/payments';
import type { PaymentIntent, PaymentIntentStatus } from '@pcs/payments';
import { PaymentIntentCreationResponse, PaymentIntentResponse } from './payment-intent.responses';

const NEXT_ACTIONS: Partial<Record<PaymentIntentStatus, string>> = {
  REQUIRES_PAYMENT_INSTRUMENT: 'INITIALIZE_WITH_PAYMENT_METHOD',
  REQUIRES_CONFIRMATION: 'INITIALIZE_WITH_PAYMENT_METHOD',
  REQUIRES_ACTION: 'REDIRECT_TO_GATEWAY',
  PROCESSING: 'WAIT_FOR_GATEWAY',
};

export function presentPaymentIntent(intent: PaymentIntent): PaymentIntentResponse {
  return paymentIntentRepresentation(intent);
}

export function presentCreation(intent: PaymentIntent): PaymentIntentCreationResponse {
  return {
    paymentIntent: presentPaymentIntent(intent),
    confirmationMethod: intent.snapshot().confirmationMethod,
    status: intent.status,
    nextAction: NEXT_ACTIONS[intent.status] ?? null,
  };
}
