import * as crypto from 'node:crypto';

/** The row every reference endpoint of the benchmark inserts: one payment intent's, as operation 17 would. */
export const CREATION_INSERT = `INSERT INTO payment_intent (payment_intent_id, business_id, merchant_id, payer_id, country_id, origin, payin_type, status, currency, amount, tax_amount, vat_rate_bp, external_reference)
     VALUES ($1, $2, $3, $4, $5, 'API', 'DEFAULT', 'REQUIRES_PAYMENT_INSTRUMENT', $6, $7, $8, 2200, $9)`;

export interface CreationContext {
  businessId: string;
  merchantId: string;
  payerId: string;
  countryId: string;
}

/** A new id and the statement's values for a creation body (amounts in minor units, VAT 22% included). */
export function creationRow(
  context: CreationContext,
  body: { amount: number; currency: string; externalReference: string },
): { id: string; values: unknown[] } {
  const id = crypto.randomUUID();
  const minor = Math.round(body.amount * 100);
  return {
    id,
    values: [
      id,
      context.businessId,
      context.merchantId,
      context.payerId,
      context.countryId,
      body.currency,
      minor,
      Math.round((minor * 22) / 122),
      body.externalReference,
    ],
  };
}
