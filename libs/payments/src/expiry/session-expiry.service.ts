import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { inTransaction } from '@pcs/database';
import { DataSource } from 'typeorm';
import { AttemptOutcomes } from '../attempts/attempt-outcomes';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { PayinRepository } from '../ledger/payin.repository';

/** Payers who left a gateway's page: their attempts expire. */
@Injectable()
export class SessionExpiryService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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
    const candidates = await this.ledger.expiredSessions(this.dataSource.manager, now, batch);
    let expired = 0;
    for (const candidate of candidates) {
      const closed = await inTransaction(this.dataSource, async (manager) => {
        const intent = await this.intents.lockById(manager, candidate.snapshot().paymentIntentId, true);
        if (!intent) return null; // another replica holds it
        const payin = await this.ledger.get(manager, candidate.id, true);
        const sessionEnd = payin?.snapshot().sessionExpiresAt;
        if (!payin || !sessionEnd || sessionEnd >= now || !payin.expire(now)) return null;
        await this.ledger.save(manager, payin);
        if (intent.status === 'REQUIRES_ACTION') {
          intent.expireAttempt(now);
          await this.intents.save(manager, intent);
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
