import { Money, PayinType, PayerId, PaymentInstrumentId } from '@pcs/kernel';
import { PaymentIntent } from './payment-intent';
import type { IntentBasis, Offered } from './payment-intent-props';

/**
 * How each origin makes a payment intent (contract §9): what it states and
 * what it leaves empty, as one props object for `PaymentIntent.create`.
 */

/** Operation 17: for a payer, with an instrument or not; `confirm` charges it off-session (automatic confirmation). */
export function apiIntent(
  basis: IntentBasis,
  request: {
    readonly payinType: PayinType;
    readonly tip: Money;
    readonly payerId: PayerId;
    readonly payerEmail: string | null;
    readonly paymentInstrumentId: PaymentInstrumentId | null;
    readonly externalReference: string;
    readonly invoiceNumber: number;
    readonly description: string | null;
    readonly setupFutureUsage: boolean;
    readonly offSession: boolean;
    readonly confirm: boolean;
    readonly metadata: Record<string, unknown> | null;
  },
): PaymentIntent {
  PaymentIntent.assertWithinLimit(basis.amount, request.tip, 'tipAmount');
  return PaymentIntent.create({
    ...basis,
    origin: 'API',
    payinType: request.payinType,
    tip: request.tip,
    payerId: request.payerId,
    paymentInstrumentId: request.paymentInstrumentId,
    externalReference: request.externalReference,
    externalInvoiceId: String(request.invoiceNumber),
    invoiceNumber: request.invoiceNumber,
    invoiceEmail: request.payerEmail,
    receiptEmail: request.payerEmail,
    description: request.description,
    setupFutureUsage: request.setupFutureUsage,
    offSession: request.offSession,
    confirmationMethod: request.confirm ? 'AUTOMATIC' : 'MANUAL',
    metadata: request.metadata,
    linkId: null,
    preferredPaymentMethod: null,
    preferredInstrumentType: null,
    allowedPaymentMethods: null,
    additionalInfo: null,
  });
}

/** Operation 18: a merchant's fast payment, no payer yet. */
export function fastIntent(basis: IntentBasis, offered: Offered): PaymentIntent {
  return PaymentIntent.create({
    ...basis,
    ...payerless(basis, offered),
    origin: 'FAST',
    externalReference: null,
    linkId: null,
  });
}

/** Operation 24: paying from a link (its amount, country, VAT and reference). */
export function linkIntent(
  basis: IntentBasis,
  link: { readonly linkId: string; readonly reference: string | null },
  offered: Offered,
): PaymentIntent {
  return PaymentIntent.create({
    ...basis,
    ...payerless(basis, offered),
    origin: 'LINK',
    externalReference: link.reference,
    linkId: link.linkId,
  });
}

/** B6: a B2B intent paid through the hosted checkout; a stated VAT amount is recorded as it is. */
export function b2bIntent(
  basis: IntentBasis,
  request: {
    readonly tip: Money;
    readonly tax?: Money;
    readonly externalReference: string | null;
    readonly invoiceReference: string | null;
    readonly invoiceNumber: number | null;
    readonly description: string | null;
    readonly instrumentType: string | null;
    readonly networks: string[] | null;
  },
): PaymentIntent {
  PaymentIntent.assertWithinLimit(basis.amount, request.tip, 'amountDetails.tip');
  return PaymentIntent.create({
    ...basis,
    origin: 'B2B',
    payinType: PayinType.DEFAULT,
    tip: request.tip,
    ...(request.tax ? { tax: request.tax } : {}),
    payerId: null,
    paymentInstrumentId: null,
    externalReference: request.externalReference,
    externalInvoiceId: request.invoiceReference,
    invoiceNumber: request.invoiceNumber,
    invoiceEmail: null,
    description: request.description,
    receiptEmail: null,
    setupFutureUsage: false,
    offSession: false,
    confirmationMethod: 'MANUAL',
    metadata: null,
    linkId: null,
    preferredPaymentMethod: null,
    preferredInstrumentType: request.instrumentType,
    allowedPaymentMethods: request.networks,
    additionalInfo: null,
  });
}

/** What fast and link intents share: no payer, no tip, no invoice, paid by the payer on a page (manual confirmation). */
function payerless(basis: IntentBasis, offered: Offered) {
  return {
    ...offered,
    receiptEmail: (offered.additionalInfo?.payerInfo as { email?: string } | undefined)?.email ?? null,
    payinType: PayinType.DEFAULT,
    tip: Money.zero(basis.amount.currency),
    payerId: null,
    paymentInstrumentId: null,
    externalInvoiceId: null,
    invoiceNumber: null,
    invoiceEmail: null,
    setupFutureUsage: false,
    offSession: false,
    confirmationMethod: 'MANUAL' as const,
    metadata: null,
    allowedPaymentMethods: null,
  };
}
