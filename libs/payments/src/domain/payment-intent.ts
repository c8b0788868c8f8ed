/*
 * Why one file: the payment intent aggregate: its states and transitions; its invariants hold only read
 * together.
 */
/**
 * The payment intent aggregate: its state machine (contract §9), refunds'
 * reservations and disputes' holds on what is refundable. Its props and
 * inputs are in payment-intent-props.ts; how each origin makes one, in
 * payment-intent-origins.ts.
 */
import {
  disputeDebit,
  disputeHoldsAmount,
  DomainError,
  InvalidRequestError,
  Money,
  MoneyError,
  PaymentIntentId,
  ProcessorMadeRefund,
  refundableMinor,
} from '@pcs/kernel';
import {
  IntentDispute,
  IntentInstallmentPlan,
  OPEN_STATUSES,
  PaymentIntentEventType,
  PaymentIntentInput,
  PaymentIntentProps,
  PaymentIntentStatus,
} from './payment-intent-props';

export * from './payment-intent-props';

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
      installmentPlan: null,
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
    return Money.ofMinor(
      refundableMinor(this.props.receivedAmount, this.props.refundedAmount, this.props.disputedAmount),
      this.props.currency,
    );
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
      ? this.props.disputes.map((d) => (d.disputeId === dispute.disputeId ? { ...dispute, settledByRefund: d.settledByRefund } : d))
      : [...this.props.disputes, { ...dispute }];
    this.holdDisputed();
    this.touch(now);
  }

  /**
   * A refund the processor made itself (contract §23), recorded as it was
   * made: the payer has the money back whatever our records allowed. What it
   * takes beyond what was still refundable is returned as `beyond` (minor
   * units) for the caller to report; the refunded amount never passes what
   * was received. A refund that ends a claim the merchant lost
   * (`settlesClaim`) is that claim's money: the dispute stops holding it and
   * the refund holds it instead, so nothing is held twice. Collected
   * payments only (a refund of a payment never collected here is a
   * discrepancy, not a refund).
   */
  recordProcessorRefund(amount: Money, now: Date, settlesClaim: string | null = null): { beyond: number } {
    this.require(['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED']);
    if (amount.currency !== this.props.currency || amount.minor <= 0)
      throw new MoneyError('NOT_POSITIVE', 'a refund is a positive amount in the intent’s currency');
    if (settlesClaim)
      this.props.disputes = this.props.disputes.map((d) => (d.disputeId === settlesClaim ? { ...d, settledByRefund: true } : d));
    this.holdDisputed();
    const beyond = Math.max(0, amount.minor - this.refundable.minor);
    // Exact in any order (contract §28): while one of ours is still pending the sum may pass what was received; the
    // processor refuses ours then, and its rejection releases only its own amount.
    this.props.refundedAmount += amount.minor;
    this.settleRefundStatus(now);
    this.changes.push(this.props.status === 'REFUNDED' ? 'payment_intent.refunded' : 'payment_intent.partially_refunded');
    return { beyond };
  }

  /** A lost claim of exactly `amount` that no refund settled yet: the one a processor's refund of that amount ends. */
  claimSettledBy(amount: number): string | null {
    return this.props.disputes.find((d) => d.claim && d.status === 'LOST' && !d.settledByRefund && d.amount === amount)?.disputeId ?? null;
  }

  /**
   * What a dispute's debit is (contract §28: what the processor takes): nothing once it is won;
   * otherwise its amount, capped at what was received less the refunds the processor actually
   * made (`refundedAtProcessor`: approved refunds that moved money there, not pending
   * reservations nor refunds settled by other means; a refund that ended this very claim is its
   * money, not a refund before it) and less what the payment's other disputes hold. Never below zero.
   */
  disputeDebitTarget(disputeId: string, refundedAtProcessor: readonly ProcessorMadeRefund[]): number {
    const dispute = this.props.disputes.find((d) => d.disputeId === disputeId);
    if (!dispute) throw new Error(`payment intent ${this.id} has no dispute ${disputeId}`);
    return disputeDebit(
      dispute,
      this.props.receivedAmount,
      refundedAtProcessor,
      this.props.disputes.filter((d) => d.disputeId !== disputeId),
    );
  }

  /**
   * The disputes whose debit follows the payment's refunds at the processor (contract §28): every
   * one that holds money — open, and lost or accepted too, since a refund the processor made before
   * a case closed may reach us only after it (a notification late or lost).
   */
  get holdingDisputes(): readonly IntentDispute[] {
    return this.props.disputes.filter((d) => disputeHoldsAmount(d.status));
  }

  /** What the disputes hold: every one not won, but a claim a refund settled. */
  private holdDisputed(): void {
    this.props.disputedAmount = this.props.disputes
      .filter((d) => disputeHoldsAmount(d.status) && !d.settledByRefund)
      .reduce((sum, d) => sum + d.amount, 0);
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

  /** Collected, in one payment or in the installment plan the gateway reports (contract §25). */
  succeed(chargeId: string | null, now: Date, plan: IntentInstallmentPlan | null = null): void {
    this.require(['REQUIRES_ACTION', 'PROCESSING']);
    this.props.status = 'SUCCEEDED';
    this.props.installmentPlan = plan && plan.installments > 1 ? { ...plan } : null;
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

  /**
   * The processor refunded `difference` more (or, negative, less) than one of our refunds asked
   * (contract §28): what was refunded is what it says.
   */
  followProcessorRefundAmount(difference: number, now: Date): void {
    if (difference === 0) return;
    this.props.refundedAmount = Math.max(0, this.props.refundedAmount + difference);
    this.settleRefundStatus(now);
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
