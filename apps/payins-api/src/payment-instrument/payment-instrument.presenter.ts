import { paymentInstrumentRepresentation } from '@pcs/payment-instruments';
import type { PaymentInstrumentView } from '@pcs/payment-instruments';
import { PaymentInstrumentResponse } from './payment-instrument.responses';

export function presentPaymentInstrument(view: PaymentInstrumentView): PaymentInstrumentResponse {
  return paymentInstrumentRepresentation(view);
}
