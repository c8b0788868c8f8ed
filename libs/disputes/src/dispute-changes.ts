import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@pcs/events';
import { DisputeStatus, Transaction } from '@pcs/kernel';
import { IntentDispute, IntentDisputes } from '@pcs/payments';
import { BalancesService } from '@pcs/settlement';
import { DisputeRepository } from './dispute.repository';
import { disputeRepresentation } from './dispute.representation';
import { Dispute } from './domain/dispute';

/**
 * What follows a dispute's change, in the transaction that changes it
 * (contracts §21, §24): the money, in PLATFORM flow only (none in MERCHANT
 * flow, contract §23) — the processor's dispute fee once when it opens, and
 * the debit brought to what the processor takes: its amount capped at what
 * was received less the refunds the processor made and the payment's other
 * disputes (contract §28), when it opens or the processor changes its amount
 * (the payment's refunds move it too: IntentDisputes.followRefunds), nothing
 * once it is won —
 * each difference booked once, through the balance context, drawn on the
 * payment's pending net first; what the payment intent shows and holds back;
 * and the events. Every path that changes a dispute ends here.
 */
@Injectable()
export class DisputeChanges {
  constructor(
    private readonly disputes: DisputeRepository,
    private readonly balances: BalancesService,
    private readonly intents: IntentDisputes,
    private readonly events: EventRecorder,
  ) {}

  /**
   * Writes the dispute (a new one is inserted by the caller, `was` null) and
   * what its change causes; the dispute and its intent are locked by the
   * caller's transaction, in that order.
   */
  async commit(tx: Transaction, dispute: Dispute, was: DisputeStatus | null, now: Date): Promise<void> {
    const d = dispute.snapshot();
    if (d.fundsFlow === 'PLATFORM') {
      const movement = {
        disputeId: d.disputeId,
        chargeId: d.chargeId,
        businessId: d.businessId,
        merchantId: d.merchantId,
        currency: d.currency,
        processor: d.processor,
        reference: d.processorReference,
      };
      if (was === null) await this.balances.chargeDisputeFee(tx, movement);
      if (d.status === 'WON' && was !== 'WON') await this.balances.debitDispute(tx, { ...movement, target: 0, why: 'won' });
      else if (d.status !== 'WON' && (was === null || dispute.amountChanged)) {
        // What the processor takes (contract §28): the amount, capped at what was received less the refunds it made.
        const target = await this.intents.debitTarget(tx, d.paymentIntentId, this.mirrorOf(dispute));
        await this.balances.debitDispute(tx, {
          ...movement,
          target,
          why: was === null ? `opened (${d.reason})` : 'amount changed by the processor',
        });
      }
    }
    if (was !== d.status || dispute.amountChanged) await this.intents.record(tx, d.paymentIntentId, this.mirrorOf(dispute), now);
    if (was !== null) await this.disputes.save(tx, dispute);
    const changes = dispute.pullChanges();
    if (changes.length === 0) return;
    const evidence = (await this.disputes.evidenceOf(tx, [d.disputeId])).get(d.disputeId) ?? [];
    const object = disputeRepresentation(dispute, evidence);
    await this.events.recordAll(
      tx,
      changes.map((type) => ({ type, businessId: d.businessId, merchantId: d.merchantId, subjectId: d.paymentIntentId, object, at: now })),
    );
  }

  /** The dispute as its payment intent shows it. */
  private mirrorOf(dispute: Dispute): IntentDispute {
    const d = dispute.snapshot();
    return { disputeId: d.disputeId, status: d.status, amount: d.amount, ...(d.kind === 'CLAIM' ? { claim: true } : {}) };
  }
}
