import { DeclineTable } from '@pcs/gateways';

/**
 * Mercado Pago's `status_detail` of a rejected payment, as its "collection results" page lists them (Checkout API,
 * response handling), each SOFT or HARD (libs/gateways/src/declines.ts; docs/processors.md has the table).
 */
export const MERCADO_PAGO_DECLINES: DeclineTable = {
  cc_rejected_insufficient_amount: { kind: 'SOFT', meaning: 'the card does not have enough funds' },
  cc_rejected_call_for_authorize: { kind: 'SOFT', meaning: 'the payer must authorise the amount with the issuer' },
  cc_rejected_card_error: { kind: 'SOFT', meaning: 'the payment could not be processed' },
  cc_rejected_duplicated_payment: { kind: 'SOFT', meaning: 'a payment of that value was already made' },
  cc_rejected_max_attempts: { kind: 'SOFT', meaning: 'the limit of attempts was reached' },
  cc_rejected_other_reason: { kind: 'SOFT', meaning: 'the card did not process the payment' },
  bank_error: { kind: 'SOFT', meaning: 'a bank transfer refused by an error of the bank' },
  cc_rejected_bad_filled_card_number: { kind: 'HARD', meaning: 'the card number is wrong' },
  cc_rejected_bad_filled_date: { kind: 'HARD', meaning: 'the expiration date is wrong' },
  cc_rejected_bad_filled_other: { kind: 'HARD', meaning: 'the card data is wrong' },
  cc_rejected_bad_filled_security_code: { kind: 'HARD', meaning: 'the security code is wrong' },
  cc_rejected_blacklist: { kind: 'HARD', meaning: 'the card or its holder is blocked' },
  cc_rejected_card_disabled: { kind: 'HARD', meaning: 'the card must be activated by its holder' },
  cc_rejected_high_risk: { kind: 'HARD', meaning: 'refused by fraud prevention: another payment method is needed' },
  cc_rejected_invalid_installments: { kind: 'HARD', meaning: 'the card does not take payments in those installments' },
  cc_rejected_3ds_mandatory: { kind: 'HARD', meaning: 'a 3-D Secure challenge is mandatory' },
};
