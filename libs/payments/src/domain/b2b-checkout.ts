import { PaymentIntentId } from '@pcs/kernel';

/** The invoice a B2B client names (specification: reference, serie, number), as sent. */
export interface InvoiceDetails {
  readonly reference?: string;
  readonly serie?: string;
  readonly number?: number;
}

/**
 * The hosted checkout of a B2B payment intent (contract §13): what only the
 * B2B API needs beside the intent itself. `reference` is the opaque part of
 * the checkout URL; `credentialId` names the credentials that created the
 * intent, whose secret signs the return to `redirectUrl`.
 */
export interface B2bCheckout {
  readonly paymentIntentId: PaymentIntentId;
  readonly reference: string;
  readonly credentialId: string;
  readonly redirectUrl: string;
  readonly includeAllPaymentMethods: boolean;
  readonly invoiceDetails: InvoiceDetails | null;
  readonly expiresAt: Date;
  readonly createdAt: Date;
}

/** Whether the checkout is past its time (it expires at `expiresAt`). */
export function checkoutIsPastDue(checkout: B2bCheckout, now: Date): boolean {
  return checkout.expiresAt.getTime() <= now.getTime();
}
