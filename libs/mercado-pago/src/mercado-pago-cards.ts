import { cardPartsOf, CardNotSavedError, SavedCard } from '@pcs/gateways';
import { PaymentMethodName } from '@pcs/kernel';
import type { MercadoPagoCard } from './mercado-pago.client';

/** Mercado Pago's card payment methods (`payment_method.id`, its payment methods API) as ours; the rest we do not route. */
const BRANDS: Readonly<Record<string, PaymentMethodName>> = {
  visa: PaymentMethodName.VISA,
  debvisa: PaymentMethodName.VISA,
  master: PaymentMethodName.MASTER_CARD,
  debmaster: PaymentMethodName.MASTER_CARD,
  amex: PaymentMethodName.AMERICAN_EXPRESS,
  oca: PaymentMethodName.OCA,
};

/** What a charge names a saved card by: the customer, the card, and its payment method at Mercado Pago. */
export interface MercadoPagoCardReference {
  readonly customerId: string;
  readonly cardId: string;
  readonly paymentMethodId: string;
}

const REFERENCE = /^([0-9A-Za-z_-]{1,60}):([0-9A-Za-z]{1,30}):([a-z_]{2,20})$/;

export function cardReference(reference: MercadoPagoCardReference): string {
  return `${reference.customerId}:${reference.cardId}:${reference.paymentMethodId}`;
}

/** A saved card's reference read back, or null when the instrument names no card Mercado Pago keeps for us. */
export function readCardReference(text: string | null): MercadoPagoCardReference | null {
  const match = text ? REFERENCE.exec(text) : null;
  return match ? { customerId: match[1], cardId: match[2], paymentMethodId: match[3] } : null;
}

/**
 * The card Mercado Pago saved for a customer, as we keep it (contract §31): its reference, its brand as our method,
 * its first six, last four and expiry. An answer without them is refused (nothing is kept of a card we cannot show).
 */
export function savedCardOf(customerId: string, card: MercadoPagoCard): SavedCard {
  const parts = cardPartsOf(card.first_six_digits, card.last_four_digits, card.expiration_month, card.expiration_year);
  const paymentMethodId = card.payment_method?.id ?? '';
  if (!parts || parts.bin.length !== 6 || !/^[a-z_]{2,20}$/.test(paymentMethodId) || !/^[0-9A-Za-z]{1,30}$/.test(String(card.id)))
    throw new CardNotSavedError('Mercado Pago answered a card without its first six, last four, expiry or payment method');
  const year = Number(card.expiration_year);
  return {
    reference: cardReference({ customerId, cardId: String(card.id), paymentMethodId }),
    paymentMethod: BRANDS[paymentMethodId] ?? null,
    instrumentType: card.payment_method?.payment_type_id === 'debit_card' ? 'DEBIT_CARD' : 'CREDIT_CARD',
    bin: parts.bin,
    last4: parts.last4,
    expMonth: Number(card.expiration_month),
    expYear: year < 100 ? 2000 + year : year,
  };
}
