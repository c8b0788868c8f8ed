import { Injectable } from '@nestjs/common';
import { AttemptOutcomes } from '../attempts/attempt-outcomes';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { PayinRepository } from '../ledger/payin.repository';
import { UnitOfWork } from '@pcs/kernel';

/** Payers who left a gateway's page: their attempts expire. */
@Injectable()
export class SessionExpiryService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinRepository,
    private readonly outcomes: AttemptOutcomes,
  ) {}

  /**
   * Attempts whose payer left the gateway's page past the window: the payin
   * EXPIRES and the intent returns to REQUIRES_PAYMENT_INSTRUMENT. Safe with
   * several replicas: each intent is taken with SKIP LOCKED.
   */
  async expireSessions(now = new Date(), batch = 50): Promise<number> {
    const candidates = await this.ledger.expiredSessions(this.unitOfWork.outside, now, batch);
    let expired = 0;
    for (const candidate of candidates) {
      const closed = await this.unitOfWork.run(async (tx) => {
        const intent = await this.intents.lockById(tx, candidate.snapshot().paymentIntentId, true);
        if (!intent) return null; // another replica holds it
        const payin = await this.ledger.get(tx, candidate.id, true);
        const sessionEnd = payin?.snapshot().sessionExpiresAt;
        if (!payin || !sessionEnd || sessionEnd >= now || !payin.expire(now)) return null;
        await this.ledger.save(tx, payin);
        if (intent.status === 'REQUIRES_ACTION') {
          intent.expireAttempt(now);
          await this.intents.save(tx, intent);
        }
        return payin;
      });
      if (closed) {
        expired += 1;
        await this.outcomes.closeCheckoutQuietly(closed, 'EXPIRED');
      }
    }
    return expired;
  }
}
