import { Currency, Money } from '@pcs/kernel';
import type { PaymentInstrumentView } from './payment-instrument.service';

/** An instrument as the payins API shows it (operations 27, 28), and the object of `payment_instrument.created`. */
export function paymentInstrumentRepresentation({ instrument }: PaymentInstrumentView) {
  const i = instrument.snapshot();
  return {
    paymentInstrumentId: i.paymentInstrumentId as string,
    merchantId: i.merchantId as string,
    payerId: i.payerId as string,
    paymentInstrumentStatus: i.status as string,
    paymentMethodId: i.paymentMethodId,
    externalId: i.externalId,
    active: i.active,
    validated: i.validated,
    countries: i.countries.join(','),
    metadata: i.metadata,
    nextAction: instrument.nextAction,
    // A card saved by a setup page (contract §31): what may be kept of it; null for any other instrument.
    card:
      i.cardLast4 && i.cardExpMonth && i.cardExpYear && i.processor
        ? { brand: i.cardBrand, bin: i.cardBin, last4: i.cardLast4, expMonth: i.cardExpMonth, expYear: i.cardExpYear }
        : null,
    // A Pix Automático authorisation (contract §31): the terms the payer authorised; null for any other instrument.
    pixAutomatico: i.pixMandate
      ? {
          amount: Money.ofMinor(i.pixMandate.amount, Currency.BRL).toWire(),
          currency: 'BRL',
          frequency: i.pixMandate.frequency,
          startDate: i.pixMandate.startDate,
        }
      : null,
  };
}
