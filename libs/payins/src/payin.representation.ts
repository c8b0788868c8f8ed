import { wireAmount } from '@pcs/kernel';
import type { PayinProps } from './domain/payin';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** A payin (or refund) as the payins API shows it: operation 36, and the object of refund events. */
export function payinRepresentation(p: Readonly<PayinProps>) {
  const wire = (minor: number) => wireAmount(minor, p.currency);
  return {
    transactionId: p.transactionId,
    accountId: p.accountId,
    merchantId: p.merchantId,
    payoutRequestId: null,
    paymentIntentId: p.paymentIntentId,
    merchantName: p.merchantName,
    status: p.status,
    externalId: p.externalId,
    externalStatus: p.externalStatus,
    transactionSyncDate: iso(p.transactionSyncDate),
    transactionType: p.transactionType,
    currency: p.currency,
    amount: wire(p.amount),
    subtotalAmount: wire(p.subtotalAmount),
    taxAmount: wire(p.taxAmount),
    tipAmount: wire(p.tipAmount),
    receivedAmount: wire(p.receivedAmount),
    description: p.description,
    conceptCode: p.conceptCode,
    liquidationDate: iso(p.liquidationDate),
    cancelledAt: iso(p.cancelledAt),
    cancellationReason: p.cancellationReason,
    createdAt: iso(p.createdAt),
    person: { lastName: p.personLastName, firstName: p.personFirstName },
    paymentInstrumentData: { maskedPan: p.maskedPan, cardType: p.cardType },
    paymentIntentInitiator: p.paymentIntentInitiator,
  };
}
