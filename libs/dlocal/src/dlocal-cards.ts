import { CardNotSavedError, SavedCard } from '@pcs/gateways';
import { PaymentMethodName } from '@pcs/kernel';
import type { DLocalSecureCard } from './dlocal.client';

/** dLocal's card brands (its `brand` codes) as our payment methods; the rest we do not route. */
const BRANDS: Readonly<Record<string, PaymentMethodName>> = {
  VI: PaymentMethodName.VISA,
  MC: PaymentMethodName.MASTER_CARD,
  AE: PaymentMethodName.AMERICAN_EXPRESS,
  OC: PaymentMethodName.OCA,
};

/** dLocal's id of a saved card, as its reference shows it (`CV-` and a UUID). */
const CARD_ID = /^CV-[0-9A-Za-z-]{8,64}$/;

/** The saved card a charge names (the instrument's external id), or null when it is no card dLocal keeps for us. */
export function dlocalCardIdOf(reference: string | null): string | null {
  return reference && CARD_ID.test(reference) ? reference : null;
}

/**
 * The card dLocal saved (`POST /secure_cards`), as we keep it (contract §31): its `card_id`, its brand as our method,
 * its last four and expiry. dLocal's answer has no BIN: none is kept. An answer without those parts is refused.
 */
export function savedCardOf(card: DLocalSecureCard): SavedCard {
  const month = Number(card.expiration_month);
  const year = Number(card.expiration_year);
  if (
    !dlocalCardIdOf(card.card_id) ||
    !/^\d{4}$/.test(card.last4 ?? '') ||
    !Number.isInteger(month) ||
    month < 1 ||
    month > 12 ||
    !Number.isInteger(year) ||
    year < 2000 ||
    year > 2199
  )
    throw new CardNotSavedError('dLocal answered a card without its id, last four or expiry');
  return {
    reference: card.card_id,
    paymentMethod: BRANDS[card.brand ?? ''] ?? null,
    instrumentType: 'CREDIT_CARD',
    bin: null,
    last4: card.last4!,
    expMonth: month,
    expYear: year,
  };
}
