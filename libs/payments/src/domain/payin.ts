/*
 * Why one file: the payin aggregate: one ledger row's states and the transitions that guard them (approve,
 * reject, refund, manual refund); its invariants hold only read together.
 */
/**
 * A payin record (specification's Transaction; contract §7): a collection
 * attempt or a refund of a payment intent, with its fees fixed at approval.
 * Over 300 lines because every status and amount rule of a record, from a
 * gateway's answer to settlement's fields, belongs to the one aggregate.
 */
import {
  BusinessId,
  Currency,
  FundsFlow,
  LiquidationSource,
  MerchantId,
  PaymentIntentId,
  RefundOrigin,
  TransactionStatus,
} from '@pcs/kernel';

export type TransactionType = 'PAYIN' | 'REFUND';
export type ConceptCode = 'PAYIN' | 'REFUND' | 'MANUAL_REFUND';
export type PaymentIntentInitiator = 'MERCHANT' | 'PAYER';
export type ManualRefundStatus = 'MANUAL_REFUND_PENDING' | 'MANUAL_REFUND_CONFIRMED';

const FINAL: readonly TransactionStatus[] = [
  TransactionStatus.APPROVED,
  TransactionStatus.REJECTED,
  TransactionStatus.CANCELLED,
  TransactionStatus.EXPIRED,
];

export interface PayinProps {
  readonly transactionId: string;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  readonly paymentIntentId: PaymentIntentId;
  readonly accountId: string | null;
  readonly transactionType: TransactionType;
  readonly conceptCode: ConceptCode;
  status: TransactionStatus;
  manualRefundStatus: ManualRefundStatus | null;
  readonly countryProcessorId: string | null;
  readonly gateway: string | null;
  externalId: string | null;
  externalStatus: string | null;
  transactionSyncDate: Date | null;
  readonly currency: Currency;
  /** Minor units; a refund's is what its processor says it refunded (takeProcessorAmount). */
  amount: number;
  readonly subtotalAmount: number;
  readonly taxAmount: number;
  readonly tipAmount: number;
  receivedAmount: number;
  readonly description: string | null;
  readonly merchantName: string;
  readonly personFirstName: string | null;
  readonly personLastName: string | null;
  maskedPan: string | null;
  cardType: string | null;
  readonly paymentIntentInitiator: PaymentIntentInitiator;
  sessionExpiresAt: Date | null;
  liquidationDate: Date | null;
  /** The fee and the tax on it, fixed at approval (minor units; 0 until then, and always 0 on a refund). */
  feeAmount: number;
  feeTaxAmount: number;
  /** The processor's own fee when it reports one (margin reports; never charged to the merchant). */
  processorFeeAmount: number | null;
  /** The processor's financing fee (interest-free installments) when it reports one; compared apart in reconciliation. */
  processorFinancingFeeAmount: number | null;
  /** The installments the payer paid in (contract §25; 1: a single payment), fixed at approval. */
  installments: number;
  /** Each installment and what the payer paid in all, with any interest the payer pays (never the merchant's money). */
  installmentAmount: number | null;
  payerTotalAmount: number | null;
  /**
   * Whose processor account collected it (contract §23), fixed at approval
   * (a refund takes its collection's): PLATFORM money enters the balance,
   * MERCHANT money never does (the merchant owes only our fee).
   */
  fundsFlow: FundsFlow;
  /** Where liquidationDate came from once approved: the processor's release date, or our calendar. */
  liquidationSource: LiquidationSource | null;
  /** Who made a refund (REFUND rows; null on collections). */
  readonly origin: RefundOrigin | null;
  /** The lost claim a processor-side refund settled: its money left with the dispute's debit, so the refund moves none. */
  settlesDisputeId: string | null;
  /**
   * A manual refund the merchant settled by other means (contract §28): no processor returned the
   * money, so it moves no balance and takes nothing at a processor. Every other approved refund
   * moved money at its processor.
   */
  refundedElsewhere: boolean;
  cancelledAt: Date | null;
  cancellationReason: string | null;
  /** When to ask the gateway about this payin if nothing has been heard (null: not waiting on a gateway). */
  reconcileAt: Date | null;
  /** The request that confirmed this manual refund (so a retried confirmation is recognised). */
  confirmedByOperation: string | null;
  readonly createdAt: Date;
  updatedAt: Date;
}

/** The state a record was read in, which a conditional save requires it still to be in. */
export interface PayinState {
  readonly status: TransactionStatus;
  readonly manualRefundStatus: ManualRefundStatus | null;
}

export type NewPayin = Omit<
  PayinProps,
  | 'status'
  | 'manualRefundStatus'
  | 'externalStatus'
  | 'transactionSyncDate'
  | 'receivedAmount'
  | 'liquidationDate'
  | 'feeAmount'
  | 'feeTaxAmount'
  | 'processorFeeAmount'
  | 'processorFinancingFeeAmount'
  | 'installments'
  | 'installmentAmount'
  | 'payerTotalAmount'
  | 'liquidationSource'
  | 'origin'
  | 'settlesDisputeId'
  | 'refundedElsewhere'
  | 'cancelledAt'
  | 'cancellationReason'
  | 'updatedAt'
  | 'maskedPan'
  | 'cardType'
  | 'confirmedByOperation'
> & {
  /** The installments asked for (contract §25); the approval fixes the plan paid in. */
  installments?: number;
  maskedPan?: string | null;
  cardType?: string | null;
  manualRefundStatus?: ManualRefundStatus | null;
  origin?: RefundOrigin | null;
};

/** What a record keeps of a gateway's word on it (the column's length). */
const EXTERNAL_STATUS_LENGTH = 64;

/** The longest a payin waiting on a gateway goes without being asked about. */
const MAX_RECONCILE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * What an approval fixes for good (contract §19): the fee and its tax
 * (minor units) and when the money becomes available. A refund's approval
 * fixes no fee and is available at once.
 */
export interface ApprovalTerms {
  readonly feeAmount: number;
  readonly feeTaxAmount: number;
  readonly availableOn: Date;
  /** Whether availableOn is the processor's own release date or our calendar's. */
  readonly liquidationSource: LiquidationSource;
  /** Whose account collected it (contract §23): fixed for good with the approval. */
  readonly fundsFlow: FundsFlow;
}

/** What a gateway reported with an approval. */
export interface ApprovalDetails {
  readonly maskedPan?: string;
  readonly cardType?: string;
  /** The processor's own fee, minor units. */
  readonly processorFeeAmount?: number;
  /** The processor's financing fee, minor units. */
  readonly processorFinancingFeeAmount?: number;
  /** The installment plan the payer paid in, when more than one installment. */
  readonly plan?: { readonly installments: number; readonly installmentAmount: number | null; readonly payerTotalAmount: number | null };
}

/**
 * A transaction record of the ledger: one per collection attempt (PAYIN) and
 * one per refund (REFUND). PENDING at creation, SCHEDULED once an asynchronous
 * method issued a voucher or order, then final. Final states absorb: applying
 * anything to a final payin changes nothing and says so (returns false), which
 * is what makes replayed or late gateway callbacks harmless.
 */
export class Payin {
  /** Whether its events so far were handed out: a new payin has not been announced, a loaded one has (up to its state). */
  private announced: { created: boolean; outcome: boolean };

  private constructor(
    private readonly props: PayinProps,
    fresh: boolean,
  ) {
    this.announced = { created: !fresh, outcome: !fresh && FINAL.includes(props.status) };
  }

  static open(input: NewPayin): Payin {
    return new Payin(
      {
        maskedPan: null,
        cardType: null,
        manualRefundStatus: null,
        origin: null,
        ...input,
        installments: input.installments ?? 1,
        status: TransactionStatus.PENDING,
        externalStatus: null,
        transactionSyncDate: null,
        receivedAmount: 0,
        liquidationDate: null,
        feeAmount: 0,
        feeTaxAmount: 0,
        processorFeeAmount: null,
        processorFinancingFeeAmount: null,
        installmentAmount: null,
        payerTotalAmount: null,
        liquidationSource: null,
        settlesDisputeId: null,
        refundedElsewhere: false,
        cancelledAt: null,
        cancellationReason: null,
        confirmedByOperation: null,
        updatedAt: input.createdAt,
      },
      true,
    );
  }

  static restore(props: PayinProps): Payin {
    return new Payin({ ...props }, false);
  }

  /**
   * A refund's events not yet recorded (contract §14): created, then
   * succeeded or failed once it is final. Collections announce nothing here:
   * their payment intent does. Each is handed out once.
   */
  pullRefundEvents(): ('refund.created' | 'refund.succeeded' | 'refund.failed')[] {
    if (this.props.transactionType !== 'REFUND') return [];
    const events: ('refund.created' | 'refund.succeeded' | 'refund.failed')[] = [];
    if (!this.announced.created) events.push('refund.created');
    if (!this.announced.outcome && this.isFinal)
      events.push(this.props.status === TransactionStatus.APPROVED ? 'refund.succeeded' : 'refund.failed');
    this.announced = { created: true, outcome: this.isFinal };
    return events;
  }

  get id(): string {
    return this.props.transactionId;
  }

  get status(): TransactionStatus {
    return this.props.status;
  }

  get isFinal(): boolean {
    return FINAL.includes(this.props.status);
  }

  /** The state a conditional save requires the record still to be in (what it was read in). */
  get state(): PayinState {
    return { status: this.props.status, manualRefundStatus: this.props.manualRefundStatus };
  }

  /** A manual refund reserved and waiting for the merchant to confirm it. */
  get awaitsConfirmation(): boolean {
    return (
      this.props.conceptCode === 'MANUAL_REFUND' &&
      this.props.manualRefundStatus === 'MANUAL_REFUND_PENDING' &&
      this.props.status === TransactionStatus.PENDING
    );
  }

  /** A manual refund confirmed at a gateway that returns the money itself, still waiting for that gateway's answer. */
  get awaitsGateway(): boolean {
    return (
      this.props.conceptCode === 'MANUAL_REFUND' &&
      this.props.manualRefundStatus === 'MANUAL_REFUND_CONFIRMED' &&
      this.props.status === TransactionStatus.PENDING
    );
  }

  snapshot(): Readonly<PayinProps> {
    return { ...this.props };
  }

  bindGatewayReference(externalId: string, sessionExpiresAt: Date | null, now: Date): void {
    this.props.externalId = externalId;
    this.props.sessionExpiresAt = sessionExpiresAt;
    this.props.updatedAt = now;
  }

  /**
   * An asynchronous method issued a voucher or transfer order: the money is on
   * its way. From now on the gateway is asked about it from time to time, in
   * case its word is lost.
   */
  schedule(externalStatus: string, now: Date, askGatewayAfterMs: number): boolean {
    if (this.props.status !== TransactionStatus.PENDING) return false;
    this.props.status = TransactionStatus.SCHEDULED;
    this.sync(externalStatus, now);
    this.props.sessionExpiresAt = null;
    this.props.reconcileAt = new Date(now.getTime() + askGatewayAfterMs);
    return true;
  }

  /**
   * The gateway said the payin is still pending: ask again later, waiting
   * longer the older the payin is (as long as it has lived, at least
   * `minimumMs`, at most an hour).
   */
  askGatewayAgainLater(now: Date, minimumMs: number): void {
    if (this.isFinal) return;
    const age = now.getTime() - this.props.createdAt.getTime();
    this.props.reconcileAt = new Date(now.getTime() + Math.min(MAX_RECONCILE_INTERVAL_MS, Math.max(minimumMs, age)));
    this.props.updatedAt = now;
  }

  /**
   * A manual refund confirmed by a request (its operation id) at a gateway
   * that returns the money itself on confirmation: it stays PENDING until the
   * gateway answers (asked again after `askGatewayAfterMs` if nothing is heard),
   * and is no longer a pending manual refund to confirm.
   */
  confirmManualRefundAtGateway(operationId: string, now: Date, askGatewayAfterMs: number): boolean {
    if (this.isFinal || this.props.conceptCode !== 'MANUAL_REFUND') return false;
    this.props.manualRefundStatus = 'MANUAL_REFUND_CONFIRMED';
    this.props.confirmedByOperation = operationId;
    this.props.reconcileAt = new Date(now.getTime() + askGatewayAfterMs);
    this.props.updatedAt = now;
    return true;
  }

  /** A manual refund confirmed by a request (its operation id) as settled by other means: no processor moves money for it. */
  confirmManualRefund(operationId: string, now: Date): boolean {
    if (this.isFinal || this.props.conceptCode !== 'MANUAL_REFUND') return false;
    this.props.refundedElsewhere = true;
    this.approve('manually refunded', now);
    this.props.confirmedByOperation = operationId;
    return true;
  }

  /** An approved refund that moved money at its processor (contract §28): the processor's account paid it, once. */
  get refundedAtProcessor(): boolean {
    return this.props.transactionType === 'REFUND' && this.props.status === TransactionStatus.APPROVED && !this.props.refundedElsewhere;
  }

  /**
   * The processor refunded another amount than this record asked (contract §28: the refund booked is
   * the amount the processor's answer says it refunded): the record takes that amount before it is
   * approved. The difference (the processor's less ours) is returned for the intent to follow.
   */
  takeProcessorAmount(amount: number): number {
    if (this.isFinal || this.props.transactionType !== 'REFUND') return 0;
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error('a processor refunds a positive whole number of minor units');
    const difference = amount - this.props.amount;
    this.props.amount = amount;
    return difference;
  }

  /**
   * Approved: the amount is received, with the fees and availability the
   * approval fixed (`terms`; a refund's, or a collection without terms, pays
   * nothing and is available now). The database writes the balance
   * transaction of this approval in the statement that saves it.
   */
  approve(externalStatus: string, now: Date, terms?: ApprovalTerms, details?: ApprovalDetails): boolean {
    if (this.isFinal) return false;
    const charged = this.props.transactionType === 'PAYIN' && terms;
    this.props.status = TransactionStatus.APPROVED;
    this.props.receivedAmount = this.props.amount;
    this.props.feeAmount = charged ? terms.feeAmount : 0;
    this.props.feeTaxAmount = charged ? terms.feeTaxAmount : 0;
    this.props.liquidationDate = charged ? terms.availableOn : now;
    if (charged) {
      this.props.liquidationSource = terms.liquidationSource;
      this.props.fundsFlow = terms.fundsFlow;
    }
    this.props.processorFeeAmount = details?.processorFeeAmount ?? this.props.processorFeeAmount;
    this.props.processorFinancingFeeAmount = details?.processorFinancingFeeAmount ?? this.props.processorFinancingFeeAmount;
    if (charged) {
      // The approval fixes the plan paid in (contract §25): the one the gateway reports, or a single payment
      // (a plan asked for before the page, which the payer changed to one payment, is not what was paid).
      this.props.installments = details?.plan?.installments ?? 1;
      this.props.installmentAmount = details?.plan?.installmentAmount ?? null;
      this.props.payerTotalAmount = details?.plan?.payerTotalAmount ?? null;
    }
    this.props.maskedPan = details?.maskedPan ?? this.props.maskedPan;
    this.props.cardType = details?.cardType ?? this.props.cardType;
    if (this.props.manualRefundStatus) this.props.manualRefundStatus = 'MANUAL_REFUND_CONFIRMED';
    this.finish();
    this.sync(externalStatus, now);
    return true;
  }

  /**
   * A refund the processor made itself (contract §23: its panel, its API used
   * by someone else), found in its news: approved as made there, under the
   * processor's reference. One that ended a claim the merchant lost
   * (`settlesDisputeId`) moves no money of its own: the dispute's debit took it.
   */
  recordFromProcessor(reference: string, now: Date, settlesDisputeId: string | null): boolean {
    if (this.props.transactionType !== 'REFUND' || this.props.origin !== 'PROCESSOR') return false;
    this.bindGatewayReference(reference, null, now);
    this.props.settlesDisputeId = settlesDisputeId;
    return this.approve('refunded at the processor', now);
  }

  reject(externalStatus: string, now: Date): boolean {
    if (this.isFinal) return false;
    this.props.status = TransactionStatus.REJECTED;
    this.finish();
    this.sync(externalStatus, now);
    return true;
  }

  cancel(reason: string, now: Date): boolean {
    if (this.isFinal) return false;
    this.props.status = TransactionStatus.CANCELLED;
    this.props.cancelledAt = now;
    this.props.cancellationReason = reason;
    this.finish();
    this.props.updatedAt = now;
    return true;
  }

  expire(now: Date): boolean {
    if (this.isFinal) return false;
    this.props.status = TransactionStatus.EXPIRED;
    this.props.cancelledAt = now;
    this.props.cancellationReason = 'the payer did not complete the payment in time';
    this.finish();
    this.props.updatedAt = now;
    return true;
  }

  private finish(): void {
    this.props.sessionExpiresAt = null;
    this.props.reconcileAt = null;
  }

  private sync(externalStatus: string, now: Date): void {
    // What the gateway said, kept to its column's 64 characters (a processor's refusal can be a long sentence).
    this.props.externalStatus = externalStatus.slice(0, EXTERNAL_STATUS_LENGTH);
    this.props.transactionSyncDate = now;
    this.props.updatedAt = now;
  }
}
