import { Injectable } from '@nestjs/common';
import { asPaymentIntentId, Transaction } from '@pcs/kernel';
import { IntentDispute, PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';

/**
 * What the disputes context asks of a payment intent (contract §21): to show
 * one of its disputes and hold back what it disputes, in the disputes
 * context's own transaction. The intent's row is locked and rewritten, so a
 * refund decided on the row as it was is refused its write and decides
 * again on the amount still refundable.
 */
@Injectable()
export class IntentDisputes {
  constructor(private readonly intents: PaymentIntentRepository) {}

  async record(tx: Transaction, paymentIntentId: string, dispute: IntentDispute, now: Date): Promise<PaymentIntent> {
    const intent = await this.intents.lockById(tx, asPaymentIntentId(paymentIntentId));
    if (!intent) throw new Error(`payment intent ${paymentIntentId} of a dispute does not exist`);
    intent.recordDispute(dispute, now);
    await this.intents.save(tx, intent);
    return intent;
  }

  /** What a dispute may still take back of its payment: received, less refunds and the other disputes (the intent locked). */
  async collectedLeftFor(tx: Transaction, paymentIntentId: string, disputeId: string): Promise<number> {
    const intent = await this.intents.lockById(tx, asPaymentIntentId(paymentIntentId));
    if (!intent) throw new Error(`payment intent ${paymentIntentId} of a dispute does not exist`);
    return intent.collectedLeftFor(disputeId);
  }

  /** The intent, locked in the caller's transaction: what a dispute may still take back is decided on it (its refundable amount). */
  lock(tx: Transaction, paymentIntentId: string): Promise<PaymentIntent | null> {
    return this.intents.lockById(tx, asPaymentIntentId(paymentIntentId));
  }
}
