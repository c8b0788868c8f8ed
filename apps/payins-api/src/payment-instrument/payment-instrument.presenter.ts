import type { PaymentInstrumentView } from '@pcs/payment-instruments';
import { PaymentInstrumentResponse } from './payment-instrument.responses';

export function presentPaymentInstrument({ instrument }: PaymentInstrumentView): PaymentInstrumentResponse {
  const i = instrument.snapshot();
  return {
    paymentInstrumentId: i.paymentInstrumentId,
    merchantId: i.merchantId,
    payerId: i.payerId,
    paymentInstrumentStatus: i.status,
    paymentMethodId: i.paymentMethodId,
    externalId: i.externalId,
    active: i.active,
    validated: i.validated,
    countries: i.countries.join(','),
    metadata: i.metadata,
    nextAction: instrument.nextAction,
  };
}
