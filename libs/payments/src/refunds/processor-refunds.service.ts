import { Injectable, Logger } from '@nestjs/common';
import type { ProcessorRefund } from '@pcs/gateways';
import { Money, Transaction, TransactionStatus, UnitOfWork, uuidFrom } from '@pcs/kernel';
import { FindingSide, ProcessorFinding } from '../domain/processor-finding';
import * as crypto from 'node:crypto';
import { PaymentAttemptParties } from '../attempts/payment-attempt-parties';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { PayinRepository } from '../ledger/payin.repository';
import { ProcessorFindingRepository } from '../ledger/processor-finding.repository';
import { IntentDisputes } from '../disputes/intent-disputes.service';

export type ProcessorRefundsResult = 'applied' | 'replayed' | 'unknown';

/**
 * Refunds made at the processor itself (contract §23: its panel, its API
 * used by someone else), found in what the processor lists on a collection
 * of ours — from a notification, a lookup, or the daily reconciliation.
 *
 * Each is recorded once as a refund of the intent (origin PROCESSOR, its id
 * derived from the processor's, so repeated or reordered news finds it
 * recorded): the intent becomes PARTIALLY_REFUNDED or REFUNDED, the events
 * are sent, and in PLATFORM flow the approval's trigger debits the balance.
 * A refund the processor lists that is ours is known by its reference; one
 * of ours whose answer we have not heard yet (same amount, no reference) is
 * left to that refund's own settlement, never recorded twice. What the
 * processor refunded beyond what our records allowed is still recorded, and
 * reported (PROCESSOR_OVER_REFUND): at once as an event, and in the
 * account's next reconciliation run; a refund of a payment we never saw
 * collected is only reported.
 */
@Injectable()
export class ProcessorRefunds {
  private readonly logger = new Logger('ProcessorRefunds');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinRepository,
    private readonly findings: ProcessorFindingRepository,
    private readonly parties: PaymentAttemptParties,
    private readonly disputes: IntentDisputes,
  ) {}

  /** The refunds `gateway` lists on the payment of our attempt `payinId`, which must be `merchantId`'s at that gateway. */
  async apply(merchantId: string, gateway: string, payinId: string, refunds: readonly ProcessorRefund[]): Promise<ProcessorRefundsResult> {
    const attempt = (await this.ledger.get(this.unitOfWork.outside, payinId))?.snapshot();
    if (!attempt || attempt.merchantId !== merchantId || attempt.gateway !== gateway || attempt.transactionType !== 'PAYIN')
      return 'unknown';
    let applied = false;
    for (const refund of refunds.filter((r) => r.status === 'APPROVED'))
      applied = (await this.applyOne(payinId, gateway, refund)) || applied;
    return applied ? 'applied' : 'replayed';
  }

  /** One refund, under the intent's lock (the order every writer of the intent and its records keeps). True when it changed something. */
  private applyOne(payinId: string, gateway: string, refund: ProcessorRefund): Promise<boolean> {
    const refundId = uuidFrom(`processor refund\n${gateway}\n${refund.reference}`);
    return this.unitOfWork.run(async (tx) => {
      const attempt = (await this.ledger.get(tx, payinId))!;
      const intent = await this.intents.lockById(tx, attempt.snapshot().paymentIntentId);
      if (!intent) return false;
      const known = await this.ledger.refundsOf(tx, intent.id);
      // Recorded already, or one of ours that the processor answered with this reference.
      if (known.some((r) => r.id === refundId || r.snapshot().externalId === refund.reference)) return false;
      // One of ours still waiting on its answer, of this amount: this is probably it; its own settlement decides.
      if (
        known.some((r) => !r.isFinal && !r.awaitsConfirmation && r.snapshot().externalId === null && r.snapshot().amount === refund.amount)
      )
        return false;
      const now = new Date();
      const a = attempt.snapshot();
      if (attempt.status !== TransactionStatus.APPROVED || refund.currency !== a.currency) {
        // A refund of a payment we never saw collected: nothing to refund here, only to report.
        return this.report(
          tx,
          intent,
          gateway,
          refund,
          { externalId: a.transactionId, currency: a.currency, amount: 0, fee: null, date: null },
          now,
        );
      }
      const settles = intent.claimSettledBy(refund.amount);
      const allowed = settles ? refund.amount : intent.refundable.minor;
      const { beyond } = intent.recordProcessorRefund(Money.ofMinor(refund.amount, refund.currency), now, settles);
      const record = await this.parties.newRefund(
        intent,
        attempt,
        refundId,
        Money.ofMinor(refund.amount, refund.currency),
        'REFUND',
        'PROCESSOR',
        now,
      );
      record.recordFromProcessor(refund.reference, now, settles);
      await this.intents.save(tx, intent);
      await this.ledger.insert(tx, record);
      // What the processor takes for an open dispute follows what it refunded (contract §28).
      await this.disputes.followRefunds(tx, intent, attempt);
      if (beyond > 0) {
        this.logger.warn(
          `${gateway} refunded ${refund.reference} beyond what payment intent ${intent.id} allowed (${beyond} minor units over)`,
        );
        await this.report(
          tx,
          intent,
          gateway,
          refund,
          { externalId: a.transactionId, currency: a.currency, amount: -allowed, fee: null, date: null },
          now,
        );
      }
      return true;
    });
  }

  /** PROCESSOR_OVER_REFUND: kept for the account's next run and announced once. */
  private async report(
    tx: Transaction,
    intent: PaymentIntent,
    gateway: string,
    refund: ProcessorRefund,
    ours: FindingSide,
    now: Date,
  ): Promise<boolean> {
    const p = intent.snapshot();
    const finding: ProcessorFinding = {
      findingId: crypto.randomUUID(),
      businessId: p.businessId,
      merchantId: p.merchantId,
      gateway,
      kind: 'PROCESSOR_OVER_REFUND',
      externalId: refund.reference,
      ours,
      theirs: { externalId: refund.reference, currency: refund.currency, amount: -refund.amount, fee: null, date: now },
      foundAt: now,
    };
    return this.findings.record(tx, finding);
  }
}
