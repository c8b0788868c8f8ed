import { Injectable, Logger } from '@nestjs/common';
import { GatewayEvent } from '@pcs/gateways';
import { Payin } from '../domain/payin';
import { TransactionStatus, UnitOfWork } from '@pcs/kernel';
import { AttemptOutcomes } from '../attempts/attempt-outcomes';
import { GatewayEventLog, PaymentIntentRepository } from '../payment-intent.repository';
import { PayinRepository } from '../ledger/payin.repository';

/** What gateways report back about attempts, through their signed callbacks. */
@Injectable()
export class GatewayEventsService {
  private readonly logger = new Logger('GatewayEvents');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinRepository,
    private readonly events: GatewayEventLog,
    private readonly outcomes: AttemptOutcomes,
  ) {}

  /**
   * A verified gateway callback. Applied once: the event id is recorded in the
   * same transaction, so a replay finds it and changes nothing; a late or
   * out-of-order event meets a final payin, which absorbs it.
   */
  async apply(event: GatewayEvent): Promise<'applied' | 'replayed' | 'unknown'> {
    const found = await this.ledger.findByExternalId(this.unitOfWork.outside, event.gateway, event.reference);
    return found ? this.applyTo(found, event) : 'unknown';
  }

  /** The same, for an attempt the gateway names by our own id for it (Mercado Pago's external_reference). */
  async applyTo(attempt: Payin, event: GatewayEvent): Promise<'applied' | 'replayed' | 'unknown'> {
    return this.unitOfWork.run(async (tx) => {
      if (!(await this.events.record(tx, event.gateway, event.eventId, event.reference))) return 'replayed';
      const intent = await this.intents.lockById(tx, attempt.snapshot().paymentIntentId);
      const payin = await this.ledger.get(tx, attempt.id, true);
      if (!intent || !payin) return 'unknown';
      if (payin.isFinal && event.outcome === 'APPROVED' && payin.status !== TransactionStatus.APPROVED)
        this.logger.error(`${event.gateway} approved ${event.reference} for attempt ${payin.id}, which had already ended: refund it there`);
      await this.outcomes.apply(tx, intent, payin, event);
      return 'applied';
    });
  }
}
