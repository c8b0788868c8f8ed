import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@pcs/events';
import { DisputeStatus, Transaction } from '@pcs/kernel';
import { IntentDisputes } from '@pcs/payments';
import { BalancesService } from '@pcs/settlement';
import { DisputeRepository } from './dispute.repository';
import { disputeRepresentation } from './dispute.representation';
import { Dispute } from './domain/dispute';

/**
 * What follows a dispute's change, in the transaction that changes it
 * (contracts §21, §24): the money, in PLATFORM flow only (none in MERCHANT
 * flow, contract §23) — the processor's dispute fee once when it opens, and
 * the debit brought to what the dispute takes: its amount capped at what is
 * still collected (received less refunds and the payment's other disputes)
 * when it opens or the processor changes its amount, nothing once it is won —
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
        const left = await this.intents.collectedLeftFor(tx, d.paymentIntentId, d.disputeId);
        await this.balances.debitDispute(tx, {
          ...movement,
          target: Math.min(d.amount, left),
          why: was === null ? `opened (${d.reason})` : 'amount changed by the processor',
        });
      }
    }
    if (was !== d.status || dispute.amountChanged)
      await this.intents.record(
        tx,
        d.paymentIntentId,
        { disputeId: d.disputeId, status: d.status, amount: d.amount, ...(d.kind === 'CLAIM' ? { claim: true } : {}) },
        now,
      );
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
}
