import {
  BusinessId,
  Currency,
  disputeHoldsAmount,
  DisputeStatus,
  DomainError,
  InvalidRequestError,
  MerchantId,
  Money,
  MoneyError,
  PayerId,
  PayinType,
  PaymentInstrumentId,
  PaymentIntentId,
} from '@pcs/kernel';
import type { EventType } from '@pcs/events';

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
interface Offered {
  readonly description: string | null;
  readonly preferredPaymentMethod: string | null;
  readonly preferredInstrumentType: string | null;
  readonly additionalInfo: Record<string, unknown> | null;
}

/** The events a payment intent announces about itself (contract §14); refunds announce theirs. */
export type PaymentIntentEventType = Extract<EventType, `payment_intent.${string}`>;

/**
 * One attempt to collect an amount (contract §9). Every transition is a
 * method that refuses what the state machine does not allow, with a 409
 * PAYMENT_INTENT_INVALID_STATE, before anything changes.
 */
export class PaymentIntent {
  /** What happened to it since it was loaded or created, oldest first: the events its repository records with the row. */
  private changes: PaymentIntentEventType[] = [];

  private constructor(private readonly props: PaymentIntentProps) {}

  /**
   * The amount plus the tip within the largest amount accepted: each origin
   * checks it as soon as it reads them (naming its request's field), and
   * every intent is created under it.
   */
  static assertWithinLimit(amount: Money, tip: Money, field: string): void {
    if (!amount.plus(tip).isWithinLimit()) throw new InvalidRequestError([field], `${field}: the amount plus the tip exceeds the maximum`);
  }

  /** Operation 17: for a payer, with an instrument or not; `confirm` charges it off-session (automatic confirmation). */
  static fromApi(
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
  static fast(basis: IntentBasis, offered: Offered): PaymentIntent {
    return PaymentIntent.create({
      ...basis,
      ...PaymentIntent.payerless(basis, offered),
      origin: 'FAST',
      externalReference: null,
      linkId: null,
    });
  }

  /** Operation 24: paying from a link (its amount, country, VAT and reference). */
  static fromLink(
    basis: IntentBasis,
    link: { readonly linkId: string; readonly reference: string | null },
    offered: Offered,
  ): PaymentIntent {
    return PaymentIntent.create({
      ...basis,
      ...PaymentIntent.payerless(basis, offered),
      origin: 'LINK',
      externalReference: link.reference,
      linkId: link.linkId,
    });
  }

  /** B6: a B2B intent paid through the hosted checkout; a stated VAT amount is recorded as it is. */
  static b2b(
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
  private static payerless(basis: IntentBasis, offered: Offered) {
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

  /** The common core of every origin (and of tests that need an intent of any shape). */
  static create(input: PaymentIntentInput): PaymentIntent {
    const { amount: gross, tip, tax: stated, ...rest } = input;
    if (!gross.plus(tip).isWithinLimit()) throw new MoneyError('TOO_LARGE', 'the amount plus the tip exceeds the maximum');
    if (stated && !gross.isGreaterThan(stated)) throw new MoneyError('TOO_LARGE', 'the VAT amount must be below the amount');
    const tax = stated ?? gross.splitVat(input.vatRateBp).tax;
    const intent = new PaymentIntent({
      ...rest,
      currency: gross.currency,
      amount: gross.minor,
      tipAmount: tip.minor,
      status: input.paymentInstrumentId ? 'REQUIRES_CONFIRMATION' : 'REQUIRES_PAYMENT_INSTRUMENT',
      taxAmount: tax.minor,
      receivedAmount: 0,
      refundedAmount: 0,
      disputedAmount: 0,
      disputes: [],
      exchangeRate: '1',
      lastPaymentError: null,
      externalChargeId: null,
      cancelledAt: null,
      cancellationReason: null,
      succeededAt: null,
      updatedAt: input.createdAt,
    });
    intent.changes.push('payment_intent.created');
    return intent;
  }

  static restore(props: PaymentIntentProps): PaymentIntent {
    return new PaymentIntent({ ...props });
  }

  get id(): PaymentIntentId {
    return this.props.paymentIntentId;
  }

  get status(): PaymentIntentStatus {
    return this.props.status;
  }

  snapshot(): Readonly<PaymentIntentProps> {
    return { ...this.props };
  }

  /** The events to record with this state, once: the list is emptied. */
  pullChanges(): PaymentIntentEventType[] {
    const changes = this.changes;
    this.changes = [];
    return changes;
  }

  get subtotalAmount(): number {
    return this.props.amount - this.props.taxAmount;
  }

  /** What the payer pays: the gross amount plus the tip. */
  get total(): Money {
    return Money.ofMinor(this.props.amount + this.props.tipAmount, this.props.currency);
  }

  /** What was received less refunds not failed and disputes not won (contract §21); never below zero. */
  get refundable(): Money {
    const left = this.props.receivedAmount - this.props.refundedAmount - this.props.disputedAmount;
    return Money.ofMinor(Math.max(0, left), this.props.currency);
  }

  get disputed(): boolean {
    return this.props.disputes.length > 0;
  }

  /**
   * A dispute of this payment opened or changed (contract §21). What the
   * disputes hold follows their statuses at once: the caller holds the row
   * lock, and a refund decided on the row as it was read is refused its
   * write (the row changed), so a refund racing a dispute never reaches
   * into the disputed amount. Collected payments only.
   */
  recordDispute(dispute: IntentDispute, now: Date): void {
    if (this.props.receivedAmount === 0) throw this.invalid();
    const known = this.props.disputes.some((d) => d.disputeId === dispute.disputeId);
    this.props.disputes = known
      ? this.props.disputes.map((d) => (d.disputeId === dispute.disputeId ? { ...dispute } : d))
      : [...this.props.disputes, { ...dispute }];
    this.props.disputedAmount = this.props.disputes.filter((d) => disputeHoldsAmount(d.status)).reduce((sum, d) => sum + d.amount, 0);
    this.touch(now);
  }

  /** Initialize at a gateway (operation 21): the payer must act at the gateway's page. Again from REQUIRES_ACTION replaces the attempt. */
  awaitPayerAtGateway(now: Date): void {
    this.require(['REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_CONFIRMATION', 'REQUIRES_ACTION']);
    this.props.status = 'REQUIRES_ACTION';
    this.props.lastPaymentError = null;
    this.touch(now);
    this.changes.push('payment_intent.requires_action');
  }

  /** A charge without the payer (confirm with an instrument). */
  startOffSessionCharge(now: Date): void {
    this.require(['REQUIRES_CONFIRMATION']);
    if (!this.props.paymentInstrumentId) throw this.invalid();
    this.props.status = 'PROCESSING';
    this.touch(now);
    this.changes.push('payment_intent.processing');
  }

  /** The payer completed at the gateway, the money is on its way (asynchronous methods). */
  markProcessing(now: Date): void {
    this.require(['REQUIRES_ACTION', 'PROCESSING']);
    if (this.props.status === 'PROCESSING') return;
    this.props.status = 'PROCESSING';
    this.touch(now);
    this.changes.push('payment_intent.processing');
  }

  succeed(chargeId: string | null, now: Date): void {
    this.require(['REQUIRES_ACTION', 'PROCESSING']);
    this.props.status = 'SUCCEEDED';
    this.props.receivedAmount = this.total.minor;
    this.props.externalChargeId = chargeId ?? this.props.externalChargeId;
    this.props.succeededAt = now;
    this.props.lastPaymentError = null;
    this.touch(now);
    this.changes.push('payment_intent.succeeded');
  }

  /** The gateway rejected the attempt: the payer may try another instrument. */
  fail(error: string, now: Date): void {
    this.require(['REQUIRES_ACTION', 'PROCESSING']);
    this.props.status = 'REQUIRES_PAYMENT_INSTRUMENT';
    this.props.lastPaymentError = error;
    this.touch(now);
    this.changes.push('payment_intent.payment_failed');
  }

  /** The payer left the gateway's page unfinished past the window. */
  expireAttempt(now: Date): void {
    this.require(['REQUIRES_ACTION']);
    this.props.status = 'REQUIRES_PAYMENT_INSTRUMENT';
    this.props.lastPaymentError = 'the payer did not complete the payment in time';
    this.touch(now);
    this.changes.push('payment_intent.payment_failed');
  }

  cancel(reason: string, now: Date): void {
    this.require(OPEN_STATUSES);
    this.props.status = 'CANCELED';
    this.props.cancelledAt = now;
    this.props.cancellationReason = reason;
    this.touch(now);
    this.changes.push('payment_intent.canceled');
  }

  /**
   * Reserves a refund (contract §9): the whole refundable amount when none is
   * given. The caller holds the row lock, so concurrent refunds queue here and
   * each sees the amount the previous one reserved.
   */
  reserveRefund(requested: Money | null, now: Date): Money {
    this.require(['SUCCEEDED', 'PARTIALLY_REFUNDED']);
    const available = this.refundable;
    const amount = requested ?? available;
    if (amount.currency !== available.currency)
      throw new DomainError(
        'REFUND_AMOUNT_EXCEEDS_AVAILABLE',
        "the refund must be in the payment intent's currency",
        this.availableParams(),
      );
    if (amount.isZero() || amount.isGreaterThan(available)) {
      throw new DomainError(
        'REFUND_AMOUNT_EXCEEDS_AVAILABLE',
        `the refund of ${amount.toWire()} exceeds the ${available.toWire()} ${available.currency} still refundable`,
        this.availableParams(),
      );
    }
    this.props.refundedAmount += amount.minor;
    this.settleRefundStatus(now);
    this.changes.push(this.props.status === 'REFUNDED' ? 'payment_intent.refunded' : 'payment_intent.partially_refunded');
    return amount;
  }

  /** A refund failed at the gateway: its amount is refundable again. */
  releaseRefund(amount: Money, now: Date): void {
    this.props.refundedAmount = Math.max(0, this.props.refundedAmount - amount.minor);
    this.settleRefundStatus(now);
  }

  private settleRefundStatus(now: Date): void {
    if (this.props.receivedAmount === 0) return;
    this.props.status =
      this.props.refundedAmount === 0
        ? 'SUCCEEDED'
        : this.props.refundedAmount >= this.props.receivedAmount
          ? 'REFUNDED'
          : 'PARTIALLY_REFUNDED';
    this.touch(now);
  }

  private availableParams() {
    return { available: this.refundable.toWire(), currency: this.props.currency };
  }

  private require(allowed: readonly PaymentIntentStatus[]): void {
    if (!allowed.includes(this.props.status)) throw this.invalid();
  }

  private invalid(): DomainError {
    return new DomainError('PAYMENT_INTENT_INVALID_STATE', `not allowed while the payment intent is ${this.props.status}`, {
      status: this.props.status,
    });
  }

  private touch(now: Date): void {
    this.props.updatedAt = now;
  }
}
