import {
  BusinessId,
  Currency,
  DisputeProcessor,
  DisputeReason,
  DisputeStatus,
  DomainError,
  FundsFlow,
  isClosedDispute,
  MerchantId,
} from '@pcs/kernel';

/** A chargeback (the payer's bank took it back) or a claim the payer opened at the processor (Mercado Pago's mediation). */
export type DisputeKind = 'CHARGEBACK' | 'CLAIM';

export type DisputeEventType = 'dispute.created' | 'dispute.updated' | 'dispute.won' | 'dispute.lost' | 'dispute.accepted';

/** An evidence file as the dispute lists it (its bytes stay in their own table). */
export interface EvidenceFile {
  readonly evidenceId: string;
  readonly fileName: string;
  readonly contentType: 'application/pdf' | 'image/png' | 'image/jpeg';
  readonly size: number;
  readonly sha256: string;
  readonly uploadedAt: Date;
  /** When the processor took it; null until the dispute is submitted. */
  readonly sentAt: Date | null;
}

export interface DisputeProps {
  readonly disputeId: string;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  readonly paymentIntentId: string;
  /** The approved collection (ledger payin) the payer's bank took back. */
  readonly chargeId: string;
  readonly currency: Currency;
  /** Minor units; the processor may change it later (contract §24). */
  amount: number;
  reason: DisputeReason;
  status: DisputeStatus;
  evidenceDueBy: Date | null;
  readonly processor: DisputeProcessor;
  readonly processorReference: string;
  /** Whose account the disputed payment was collected into (contract §23): in MERCHANT flow a dispute moves no balance money. */
  readonly fundsFlow: FundsFlow;
  readonly kind: DisputeKind;
  submittingUntil: Date | null;
  submittedAt: Date | null;
  closedAt: Date | null;
  readonly createdAt: Date;
  updatedAt: Date;
}

/** What a processor tells of a case (contract §21), in our terms. */
export interface ProcessorVerdict {
  readonly status: 'NEEDS_RESPONSE' | 'UNDER_REVIEW' | 'WON' | 'LOST';
  readonly evidenceDueBy: Date | null;
  readonly reason: DisputeReason;
  /** The disputed amount as the processor tells it now (minor units); absent: unchanged. */
  readonly amount?: number;
}

/** The most evidence a dispute takes, as Mercado Pago allows it: five files, 10 MB in all. */
export const MAX_EVIDENCE_FILES = 5;
export const MAX_EVIDENCE_BYTES = 10_000_000;

/**
 * A payer's bank taking a collected payment back (contract §21). The
 * processor opens and decides it; in between the merchant answers with
 * evidence (NEEDS_RESPONSE → UNDER_REVIEW) or gives up (ACCEPTED). Every
 * transition refuses what the state does not allow before anything changes,
 * and records the event it causes.
 */
export class Dispute {
  private changes: DisputeEventType[] = [];
  private amountBefore: number | null = null;

  private constructor(private readonly props: DisputeProps) {}

  /** A case the processor opened; it may already be decided when first heard of (a missed notification). */
  static open(
    input: Omit<DisputeProps, 'status' | 'evidenceDueBy' | 'reason' | 'submittingUntil' | 'submittedAt' | 'closedAt' | 'updatedAt'>,
    verdict: ProcessorVerdict,
  ): Dispute {
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error('a dispute takes back a positive amount');
    const dispute = new Dispute({
      ...input,
      reason: verdict.reason,
      status: 'NEEDS_RESPONSE',
      evidenceDueBy: verdict.evidenceDueBy,
      submittingUntil: null,
      submittedAt: null,
      closedAt: null,
      updatedAt: input.createdAt,
    });
    dispute.changes.push('dispute.created');
    dispute.follow(verdict, input.createdAt);
    return dispute;
  }

  static restore(props: DisputeProps): Dispute {
    return new Dispute({ ...props });
  }

  get id(): string {
    return this.props.disputeId;
  }

  get status(): DisputeStatus {
    return this.props.status;
  }

  snapshot(): Readonly<DisputeProps> {
    return { ...this.props };
  }

  /** Whether anything happened to it since it was loaded (events not pulled yet). */
  get changed(): boolean {
    return this.changes.length > 0;
  }

  /** Whether the processor changed the disputed amount since it was loaded (its debit follows, contract §24). */
  get amountChanged(): boolean {
    return this.amountBefore !== null && this.amountBefore !== this.props.amount;
  }

  /** The events of what happened since it was loaded, once. */
  pullChanges(): DisputeEventType[] {
    const changes = this.changes;
    this.changes = [];
    return changes;
  }

  /**
   * The processor's word on the case. Its decision is final and wins over
   * ours (ACCEPTED), except that a won case stays won: its money came back,
   * and a new claim is a new case. Open states never go backwards (evidence
   * we submitted stays submitted).
   */
  follow(verdict: ProcessorVerdict, now: Date): void {
    const p = this.props;
    if (p.status === 'WON') return;
    const amount = verdict.amount;
    if (amount !== undefined && Number.isSafeInteger(amount) && amount > 0 && amount !== p.amount) {
      this.amountBefore ??= p.amount;
      p.amount = amount;
      if (!this.changes.includes('dispute.created')) this.touch(now, 'dispute.updated');
    }
    if (verdict.status === 'WON' || verdict.status === 'LOST') {
      if (p.status === verdict.status) return;
      p.status = verdict.status;
      p.closedAt = now;
      p.submittingUntil = null;
      this.touch(now, verdict.status === 'WON' ? 'dispute.won' : 'dispute.lost');
      return;
    }
    if (isClosedDispute(p.status)) return;
    let changed = false;
    if (verdict.status === 'UNDER_REVIEW' && p.status === 'NEEDS_RESPONSE') {
      p.status = 'UNDER_REVIEW';
      changed = true;
    }
    if ((verdict.evidenceDueBy?.getTime() ?? null) !== (p.evidenceDueBy?.getTime() ?? null)) {
      p.evidenceDueBy = verdict.evidenceDueBy;
      changed = true;
    }
    if (verdict.reason !== p.reason && verdict.reason !== 'GENERAL') {
      p.reason = verdict.reason;
      changed = true;
    }
    if (changed && !this.changes.includes('dispute.created')) this.touch(now, 'dispute.updated');
  }

  /** Whether evidence may be added now: the case waits on the merchant and its due date has not passed. */
  assertTakesEvidence(now: Date): void {
    this.require(['NEEDS_RESPONSE'], 'add evidence', 'agregar evidencia');
    this.assertNotOverdue(now);
  }

  /** Evidence was added (checked by assertTakesEvidence first). */
  evidenceAdded(now: Date): void {
    this.touch(now, 'dispute.updated');
  }

  /**
   * Holds the case for a submission to the processor until `until` (a crash
   * frees it then). Needs evidence, a case waiting on the merchant, its due
   * date not passed, and no other submission under way.
   */
  beginSubmission(now: Date, until: Date, evidenceCount: number): void {
    this.require(['NEEDS_RESPONSE'], 'submit it', 'presentarla');
    this.assertNotOverdue(now);
    if (evidenceCount === 0) throw new DomainError('DISPUTE_NO_EVIDENCE');
    if (this.props.submittingUntil && this.props.submittingUntil > now) throw new DomainError('DISPUTE_SUBMISSION_IN_PROGRESS');
    this.props.submittingUntil = until;
    this.props.updatedAt = now;
  }

  /** The processor took the evidence: the case is under its review. */
  submitted(now: Date): void {
    this.props.submittingUntil = null;
    this.props.submittedAt = now;
    if (this.props.status !== 'NEEDS_RESPONSE') return; // the processor decided meanwhile
    this.props.status = 'UNDER_REVIEW';
    this.touch(now, 'dispute.updated');
  }

  /** The submission failed before the processor took it: the case is free again. */
  abandonSubmission(now: Date): void {
    this.props.submittingUntil = null;
    this.props.updatedAt = now;
  }

  /** The merchant gives up: the amount stays with the payer (nothing moves). */
  accept(now: Date): void {
    this.require(['NEEDS_RESPONSE', 'UNDER_REVIEW'], 'accept it', 'aceptarla');
    if (this.props.submittingUntil && this.props.submittingUntil > now) throw new DomainError('DISPUTE_SUBMISSION_IN_PROGRESS');
    this.props.status = 'ACCEPTED';
    this.props.closedAt = now;
    this.touch(now, 'dispute.accepted');
  }

  private assertNotOverdue(now: Date): void {
    const due = this.props.evidenceDueBy;
    if (due && due.getTime() < now.getTime())
      throw new DomainError('DISPUTE_EVIDENCE_OVERDUE', undefined, { evidenceDueBy: due.toISOString() });
  }

  private require(allowed: readonly DisputeStatus[], action: string, actionEs: string): void {
    if (!allowed.includes(this.props.status))
      throw new DomainError('DISPUTE_INVALID_STATE', undefined, { status: this.props.status, action, actionEs });
  }

  private touch(now: Date, event: DisputeEventType): void {
    this.props.updatedAt = now;
    this.changes.push(event);
  }
}
