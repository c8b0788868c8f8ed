import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@pcs/events';
import { DisputeStatus } from '@pcs/kernel';
import { IntentDisputes } from '@pcs/payment-intents';
import { BalancesService } from '@pcs/settlement';
import type { EntityManager } from 'typeorm';
import { DisputeRepository } from './dispute.repository';
import { disputeRepresentation } from './dispute.representation';
import { Dispute } from './domain/dispute';

/**
 * What follows a dispute's change, in the transaction that changes it
 * (contract §21): the money (in PLATFORM flow, a CHARGEBACK when it opens,
 * a CHARGEBACK_REVERSAL when it is won, each once per dispute through the
 * balance context; none in MERCHANT flow, contract §23), what the payment
 * intent shows and holds back, and the events. Every path that changes a
 * dispute ends here.
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
  async commit(manager: EntityManager, dispute: Dispute, was: DisputeStatus | null, now: Date): Promise<void> {
    const d = dispute.snapshot();
    const movement = { disputeId: d.disputeId, businessId: d.businessId, merchantId: d.merchantId, currency: d.currency, amount: d.amount };
    // In MERCHANT flow the processor takes a chargeback from the merchant's own account: no balance money moves (contract §23).
    const moves = d.fundsFlow === 'PLATFORM';
    if (moves && was === null)
      await this.balances.recordDisputeMovement(manager, {
        ...movement,
        type: 'CHARGEBACK',
        description: `chargeback ${d.processorReference} (${d.reason})`,
      });
    if (moves && d.status === 'WON' && was !== 'WON')
      await this.balances.recordDisputeMovement(manager, {
        ...movement,
        type: 'CHARGEBACK_REVERSAL',
        description: `chargeback ${d.processorReference} won`,
      });
    if (was !== d.status)
      await this.intents.record(
        manager,
        d.paymentIntentId,
        { disputeId: d.disputeId, status: d.status, amount: d.amount, ...(d.kind === 'CLAIM' ? { claim: true } : {}) },
        now,
      );
    if (was !== null) await this.disputes.save(manager, dispute);
    const changes = dispute.pullChanges();
    if (changes.length === 0) return;
    const evidence = (await this.disputes.evidenceOf(manager, [d.disputeId])).get(d.disputeId) ?? [];
    const object = disputeRepresentation(dispute, evidence);
    await this.events.recordAll(
      manager,
      changes.map((type) => ({ type, businessId: d.businessId, merchantId: d.merchantId, subjectId: d.paymentIntentId, object, at: now })),
    );
  }
}
