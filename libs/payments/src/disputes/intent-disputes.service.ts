import { Injectable } from '@nestjs/common';
import { asPaymentIntentId, ProcessorMadeRefund, Transaction } from '@pcs/kernel';
import { BalancesService } from '@pcs/settlement';
import { Payin } from '../domain/payin';
import { IntentDispute, PaymentIntent } from '../domain/payment-intent';
import { PayinRepository } from '../ledger/payin.repository';
import { PaymentIntentRepository } from '../payment-intent.repository';

/**
 * What the disputes context asks of a payment intent (contract §21): to show
 * one of its disputes and hold back what it disputes, in the disputes
 * context's own transaction. The intent's row is locked and rewritten, so a
 * refund decided on the row as it was is refused its write and decides
 * again on the amount still refundable.
 *
 * And what a dispute's debit is (contract §28: what the processor takes),
 * decided on the intent and its refunds read under the intent's lock, both
 * when a dispute opens or changes (the disputes context) and when one of
 * the payment's refunds at the processor is approved, released or rejected
 * while a dispute is open (refunds here): the difference is booked once.
 */
@Injectable()
export class IntentDisputes {
  constructor(
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinRepository,
    private readonly balances: BalancesService,
  ) {}

  async record(tx: Transaction, paymentIntentId: string, dispute: IntentDispute, now: Date): Promise<PaymentIntent> {
    const intent = await this.intents.lockById(tx, asPaymentIntentId(paymentIntentId));
    if (!intent) throw new Error(`payment intent ${paymentIntentId} of a dispute does not exist`);
    intent.recordDispute(dispute, now);
    await this.intents.save(tx, intent);
    return intent;
  }

  /**
   * What a dispute of the payment debits now (contract §28), minor units: its amount as given
   * (the processor's latest word, which the intent may not show yet), capped at what was
   * received less the refunds the processor made and the other disputes' holds. The intent is
   * locked in the caller's transaction, so no refund changes meanwhile.
   */
  async debitTarget(tx: Transaction, paymentIntentId: string, dispute: IntentDispute): Promise<number> {
    const intent = await this.intents.lockById(tx, asPaymentIntentId(paymentIntentId));
    if (!intent) throw new Error(`payment intent ${paymentIntentId} of a dispute does not exist`);
    intent.recordDispute(dispute, intent.snapshot().updatedAt);
    return intent.disputeDebitTarget(dispute.disputeId, await this.refundedAtProcessor(tx, intent));
  }

  /**
   * The payment's refunds at its processor changed (one approved, released or rejected) while
   * `intent` is locked in `tx`: the debit of each dispute that holds money follows, in PLATFORM
   * flow (a dispute moves no balance money in MERCHANT flow), booking only the difference. A lost
   * case follows too: the processor's refund may have been made before the case closed and heard
   * of after it.
   */
  async followRefunds(tx: Transaction, intent: PaymentIntent, charge: Payin): Promise<void> {
    const holding = intent.holdingDisputes;
    const c = charge.snapshot();
    if (holding.length === 0 || c.fundsFlow !== 'PLATFORM') return;
    const refunds = await this.refundedAtProcessor(tx, intent);
    for (const dispute of holding)
      await this.balances.debitDispute(tx, {
        disputeId: dispute.disputeId,
        chargeId: c.transactionId,
        businessId: c.businessId,
        merchantId: c.merchantId,
        currency: c.currency,
        processor: c.gateway ?? '',
        reference: dispute.disputeId,
        target: intent.disputeDebitTarget(dispute.disputeId, refunds),
        why: 'followed the refunds made at the processor',
      });
  }

  /** The intent, locked in the caller's transaction: what a dispute may still take back is decided on it (its refundable amount). */
  lock(tx: Transaction, paymentIntentId: string): Promise<PaymentIntent | null> {
    return this.intents.lockById(tx, asPaymentIntentId(paymentIntentId));
  }

  private async refundedAtProcessor(tx: Transaction, intent: PaymentIntent): Promise<ProcessorMadeRefund[]> {
    return (await this.ledger.refundsOf(tx, intent.id))
      .filter((refund) => refund.refundedAtProcessor)
      .map((refund) => ({ amount: refund.snapshot().amount, settlesDisputeId: refund.snapshot().settlesDisputeId }));
  }
}
