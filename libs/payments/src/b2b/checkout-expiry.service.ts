import { Injectable } from '@nestjs/common';
import { PaymentIntentId, UnitOfWork } from '@pcs/kernel';
import { Payin } from '../domain/payin';
import { AttemptOutcomes } from '../attempts/attempt-outcomes';
import { checkoutIsPastDue } from '../domain/b2b-checkout';
import { CHECKOUT_EXPIRED_REASON } from '../domain/b2b-status';
import { PaymentIntentStatus } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { B2bCheckoutRepository } from './b2b-checkout.repository';
import { PayinRepository } from '../ledger/payin.repository';

/** What an unpaid checkout can be in when its time is up; a PROCESSING payment is money on its way and is left alone. */
const UNPAID: readonly PaymentIntentStatus[] = ['REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_CONFIRMATION', 'REQUIRES_ACTION'];

/**
 * A B2B checkout left unpaid for CHECKOUT_MINUTES expires (contract §13): its
 * intent is CANCELED with cancellationReason EXPIRED (B2B code EXPIRED), an
 * attempt still open at a gateway EXPIRES and its page is closed. The sweep
 * does it in the background; the checkout page and its actions do it for
 * their own intent on the spot, so a payer never pays a checkout past its time.
 */
@Injectable()
export class CheckoutExpiryService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly intents: PaymentIntentRepository,
    private readonly checkouts: B2bCheckoutRepository,
    private readonly ledger: PayinRepository,
    private readonly outcomes: AttemptOutcomes,
  ) {}

  /** The sweep: safe with several replicas (each intent is taken with SKIP LOCKED). */
  async expireDue(now = new Date(), batch = 50): Promise<number> {
    let expired = 0;
    for (const id of await this.checkouts.pastDue(this.unitOfWork.outside, now, batch)) if (await this.expire(id, now, true)) expired += 1;
    return expired;
  }

  /** One intent, now, if its checkout is past its time (waits for the intent's lock). */
  async expireIfDue(paymentIntentId: PaymentIntentId, now = new Date()): Promise<boolean> {
    return this.expire(paymentIntentId, now, false);
  }

  private async expire(paymentIntentId: PaymentIntentId, now: Date, skipLocked: boolean): Promise<boolean> {
    const closed = await this.unitOfWork.run(async (tx) => {
      const checkout = await this.checkouts.findByPaymentIntent(tx, paymentIntentId);
      if (!checkout || !checkoutIsPastDue(checkout, now)) return null;
      const intent = await this.intents.lockById(tx, paymentIntentId, skipLocked);
      if (!intent || !UNPAID.includes(intent.status)) return null;
      const open: Payin[] = await this.ledger.openAttempts(tx, intent.id);
      for (const payin of open) if (payin.expire(now)) await this.ledger.save(tx, payin);
      intent.cancel(CHECKOUT_EXPIRED_REASON, now);
      await this.intents.save(tx, intent);
      return open;
    });
    if (!closed) return false;
    for (const payin of closed) await this.outcomes.closeCheckoutQuietly(payin, 'EXPIRED');
    return true;
  }
}
