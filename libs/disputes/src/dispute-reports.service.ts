import { Injectable, Logger } from '@nestjs/common';
import { DisputeReport, sandboxDisputeOutcome, SANDBOX } from '@pcs/gateways';
import {
  DISPUTE_PROCESSORS,
  DisputeProcessor,
  DisputeReason,
  DomainError,
  InvalidRequestError,
  PaymentIntentId,
  Transaction,
  TransactionStatus,
  UnitOfWork,
} from '@pcs/kernel';
import { PayinLedgerService, IntentDisputes } from '@pcs/payments';
import * as crypto from 'node:crypto';
import { DisputeChanges } from './dispute-changes';
import { DisputeRepository } from './dispute.repository';
import { Dispute } from './domain/dispute';

export type DisputeReportResult = 'applied' | 'replayed' | 'unknown';

/** How long the sandbox gives the merchant to answer a dispute it opens. */
export const SANDBOX_EVIDENCE_DAYS = 7;

/**
 * Disputes as processors tell them (contract §21): a verified notification
 * read by the processor's adapter into a report, or the sandbox's own. The
 * first report of a case opens its dispute (repeated or racing notifications
 * open one: the case is unique); later ones move it as the processor
 * decides. A case must name an approved collection of that merchant at that
 * processor (its adapter finds which from the processor's payment), or
 * nothing changes.
 */
@Injectable()
export class DisputeReports {
  private readonly logger = new Logger('Disputes');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly disputes: DisputeRepository,
    private readonly ledger: PayinLedgerService,
    private readonly intents: IntentDisputes,
    private readonly changes: DisputeChanges,
  ) {}

  async apply(merchantId: string, gateway: string, report: DisputeReport): Promise<DisputeReportResult> {
    if (!(DISPUTE_PROCESSORS as readonly string[]).includes(gateway)) return 'unknown';
    return this.unitOfWork.run((tx) => this.applyIn(tx, merchantId, gateway as DisputeProcessor, report));
  }

  /**
   * The sandbox's chargeback of a payment it collected (`npm run admin --
   * sandbox:dispute`, the sandbox page's button): of what is still the
   * payer's, decided with the intent locked (received less refunds and other
   * disputes, so no refund racing it takes the same money), due in seven days.
   */
  async openSandbox(by: { paymentIntentId: string } | { sandboxReference: string }, reason: DisputeReason = 'GENERAL'): Promise<string> {
    return this.unitOfWork.run(async (tx) => {
      const charge =
        'paymentIntentId' in by
          ? await this.ledger.latestApprovedCharge(tx, by.paymentIntentId as PaymentIntentId)
          : await this.ledger.findByExternalId(tx, SANDBOX, by.sandboxReference);
      const c = charge?.snapshot();
      if (!c || c.transactionType !== 'PAYIN' || c.status !== TransactionStatus.APPROVED)
        throw new DomainError('PAYMENT_INTENT_INVALID_STATE', 'only a collected payment can be disputed', { status: 'not collected' });
      if (c.gateway !== SANDBOX)
        throw new InvalidRequestError(
          ['paymentIntentId'],
          `this payment was collected by ${c.gateway}: its disputes come from that processor`,
        );
      const intent = await this.intents.lock(tx, c.paymentIntentId);
      const left = intent!.refundable;
      if (left.isZero())
        throw new DomainError('PAYMENT_INTENT_INVALID_STATE', 'nothing of this payment is left to dispute', { status: intent!.status });
      const reference = `sbx_dp_${crypto.randomBytes(9).toString('base64url')}`;
      await this.applyIn(tx, c.merchantId, SANDBOX, {
        reference,
        chargeId: c.transactionId,
        amount: left.minor,
        currency: c.currency,
        reason,
        status: 'NEEDS_RESPONSE',
        evidenceDueBy: new Date(Date.now() + SANDBOX_EVIDENCE_DAYS * 86_400_000),
      });
      return (await this.disputes.lockCase(tx, SANDBOX, reference))!.id;
    });
  }

  private async applyIn(
    tx: Transaction,
    merchantId: string,
    processor: DisputeProcessor,
    report: DisputeReport,
  ): Promise<DisputeReportResult> {
    const now = new Date();
    const verdict = { status: report.status, evidenceDueBy: report.evidenceDueBy, reason: report.reason, amount: report.amount };
    for (let attempt = 0; attempt < 2; attempt++) {
      const known = await this.disputes.lockCase(tx, processor, report.reference);
      if (known) {
        if (known.snapshot().merchantId !== merchantId) return 'unknown';
        const was = known.status;
        known.follow(verdict, now);
        if (!known.changed) return 'replayed';
        await this.changes.commit(tx, known, was, now);
        return 'applied';
      }
      // How a case ended (a claim's): news only of one already open.
      if (report.updateOnly) return 'unknown';
      const opened = await this.openCase(tx, merchantId, processor, report, now);
      if (opened === null) return 'unknown';
      if (await this.disputes.insert(tx, opened)) {
        await this.changes.commit(tx, opened, null, now);
        return 'applied';
      }
      // Another notification of the case opened it meanwhile (its row now exists, locked by its transaction): follow it instead.
    }
    throw new Error(`dispute case ${processor} ${report.reference} could not be opened or read`);
  }

  /** The sandbox's decision on submitted evidence (contract §21): WON when a file's name contains `win`, LOST otherwise. */
  async decideSandbox(disputeId: string): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const dispute = await this.disputes.find(tx, disputeId, null, true);
      if (!dispute || dispute.status !== 'UNDER_REVIEW' || dispute.snapshot().processor !== SANDBOX) return; // accepted meanwhile, or decided
      const files = (await this.disputes.evidenceOf(tx, [disputeId])).get(disputeId) ?? [];
      const d = dispute.snapshot();
      const outcome = sandboxDisputeOutcome(files.map((f) => f.fileName));
      dispute.follow({ status: outcome, evidenceDueBy: d.evidenceDueBy, reason: d.reason }, new Date());
      await this.changes.commit(tx, dispute, 'UNDER_REVIEW', new Date());
      this.logger.log(`sandbox decided dispute ${disputeId}: ${outcome}`);
    });
  }

  /** A new case: the approved collection it names must be this merchant's at this processor, in the same currency. */
  private async openCase(
    tx: Transaction,
    merchantId: string,
    processor: DisputeProcessor,
    report: DisputeReport,
    now: Date,
  ): Promise<Dispute | null> {
    const charge = (await this.ledger.get(tx, report.chargeId))?.snapshot();
    if (
      !charge ||
      charge.merchantId !== merchantId ||
      charge.gateway !== processor ||
      charge.transactionType !== 'PAYIN' ||
      charge.status !== TransactionStatus.APPROVED
    )
      return null;
    if (charge.currency !== report.currency) {
      this.logger.warn(`${processor} case ${report.reference} is in ${report.currency}, its payment in ${charge.currency}: not opened`);
      return null;
    }
    return Dispute.open(
      {
        disputeId: crypto.randomUUID(),
        businessId: charge.businessId,
        merchantId: charge.merchantId,
        paymentIntentId: charge.paymentIntentId,
        chargeId: charge.transactionId,
        currency: charge.currency,
        amount: report.amount,
        processor,
        processorReference: report.reference,
        fundsFlow: charge.fundsFlow,
        kind: report.kind ?? 'CHARGEBACK',
        createdAt: now,
      },
      { status: report.status, evidenceDueBy: report.evidenceDueBy, reason: report.reason },
    );
  }
}
