import type { EventType } from '@pcs/events';
import {
  BusinessId,
  Currency,
  DisputeStatus,
  MerchantId,
  Money,
  PayerId,
  PayinType,
  PaymentInstrumentId,
  PaymentIntentId,
} from '@pcs/kernel';

/** Every state of a payment intent (contract §9). */
export const PAYMENT_INTENT_STATUSES = [
  'REQUIRES_PAYMENT_INSTRUMENT',
  'REQUIRES_CONFIRMATION',
  'REQUIRES_ACTION',
  'PROCESSING',
  'SUCCEEDED',
  'CANCELED',
  'PARTIALLY_REFUNDED',
  'REFUNDED',
] as const;
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

export type PaymentIntentOrigin = 'API' | 'FAST' | 'LINK' | 'B2B';

/** One dispute of the payment as the intent shows it (contract §21); the disputes context keeps the rest. */
export interface IntentDispute {
  readonly disputeId: string;
  readonly status: DisputeStatus;
  /** Minor units. */
  readonly amount: number;
  /** A claim at the processor (Mercado Pago's mediation) rather than a bank's chargeback. */
  readonly claim?: boolean;
  /** A lost claim the processor ended by refunding the payer: that refund holds its amount now, not the dispute. */
  readonly settledByRefund?: boolean;
}

/**
 * The installment plan a payment was paid in (contract §25), minor units: each installment and what the
 * payer paid in all (null where the processor does not tell them), and the financing fee the merchant
 * pays for an interest-free plan (0 when none).
 */
export interface IntentInstallmentPlan {
  readonly installments: number;
  readonly installmentAmount: number | null;
  readonly payerTotalAmount: number | null;
  readonly financingFeeAmount: number;
}

/** States from which money may still move towards collection. */
export const OPEN_STATUSES: readonly PaymentIntentStatus[] = [
  'REQUIRES_PAYMENT_INSTRUMENT',
  'REQUIRES_CONFIRMATION',
  'REQUIRES_ACTION',
  'PROCESSING',
];

export interface PaymentIntentProps {
  readonly paymentIntentId: PaymentIntentId;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  payerId: PayerId | null;
  paymentInstrumentId: PaymentInstrumentId | null;
  readonly countryId: string;
  readonly origin: PaymentIntentOrigin;
  readonly payinType: PayinType;
  status: PaymentIntentStatus;
  readonly currency: Currency;
  /** Gross, VAT included, tip excluded; minor units like every amount here. */
  readonly amount: number;
  readonly taxAmount: number;
  readonly tipAmount: number;
  receivedAmount: number;
  refundedAmount: number;
  /** What its disputes hold (all but the won ones), minor units: no longer refundable. */
  disputedAmount: number;
  disputes: readonly IntentDispute[];
  /** The plan it was paid in (contract §25); null: a single payment, or not paid. */
  installmentPlan: IntentInstallmentPlan | null;
  readonly vatRateBp: number;
  readonly exchangeRate: string;
  readonly externalReference: string | null;
  externalChargeId: string | null;
  readonly externalInvoiceId: string | null;
  readonly invoiceNumber: number | null;
  readonly invoiceEmail: string | null;
  readonly description: string | null;
  lastPaymentError: string | null;
  readonly receiptEmail: string | null;
  readonly setupFutureUsage: boolean;
  readonly offSession: boolean;
  readonly confirmationMethod: 'AUTOMATIC' | 'MANUAL';
  readonly metadata: Record<string, unknown> | null;
  readonly linkId: string | null;
  readonly preferredPaymentMethod: string | null;
  readonly preferredInstrumentType: string | null;
  /** Payment method names the payer may choose among (a B2B intent's `paymentMethods.options.networks`); null: any. */
  readonly allowedPaymentMethods: readonly string[] | null;
  readonly additionalInfo: Record<string, unknown> | null;
  cancelledAt: Date | null;
  cancellationReason: string | null;
  succeededAt: Date | null;
  readonly createdAt: Date;
  updatedAt: Date;
}

export type NewPaymentIntent = Omit<
  PaymentIntentProps,
  | 'status'
  | 'taxAmount'
  | 'receivedAmount'
  | 'refundedAmount'
  | 'disputedAmount'
  | 'disputes'
  | 'installmentPlan'
  | 'lastPaymentError'
  | 'externalChargeId'
  | 'cancelledAt'
  | 'cancellationReason'
  | 'succeededAt'
  | 'updatedAt'
  | 'exchangeRate'
>;

/**
 * A new intent's input: amounts arrive as Money (gross VAT included, and the
 * tip), in one currency. `tax`, when the client states it (B2B
 * `amountDetails.vatAmount`), is recorded as it is instead of computed from
 * the rate; it must be at least 0 and below the amount.
 */
export type PaymentIntentInput = Omit<NewPaymentIntent, 'amount' | 'tipAmount' | 'currency'> & {
  readonly amount: Money;
  readonly tip: Money;
  readonly tax?: Money;
};

/** What every origin of a payment intent states: who, where, how much (gross, VAT included) and when. */
export interface IntentBasis {
  readonly paymentIntentId: PaymentIntentId;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  readonly countryId: string;
  readonly amount: Money;
  readonly vatRateBp: number;
  readonly createdAt: Date;
}

/**
 * What the payer is offered, as a fast or link intent narrows it, and what
 * the request adds; the receipt goes to `additionalInfo.payerInfo.email`.
 */
export interface Offered {
  readonly description: string | null;
  readonly preferredPaymentMethod: string | null;
  readonly preferredInstrumentType: string | null;
  readonly additionalInfo: Record<string, unknown> | null;
}

/** The events a payment intent announces about itself (contract §14); refunds announce theirs. */
export type PaymentIntentEventType = Extract<EventType, `payment_intent.${string}`>;
