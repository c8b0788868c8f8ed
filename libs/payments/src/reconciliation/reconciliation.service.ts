import { Injectable, Logger } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { GatewayRegistry } from '@pcs/gateways';
import { TransactionStatus, UnitOfWork } from '@pcs/kernel';
import { AttemptOutcomes } from '../attempts/attempt-outcomes';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { RefundsService } from '../refunds/refunds.service';
import { PayinRepository } from '../ledger/payin.repository';

/**
 * Why an attempt ends when its processor has no payment of it (a crash before it was sent): no card was asked, so
 * nothing was declined (contract §31's scheduler charges such an invoice again at once, as no decline).
 */
export const CHARGE_NEVER_SENT = 'the charge never reached the gateway';

/**
 * Crash recovery and lost answers: charges and refunds that waited past their
 * window for a gateway's word are asked about, by the id we gave the gateway,
 * and settled through the same rules as the normal path.
 */
@Injectable()
export class ReconciliationService {
  private readonly logger = new Logger('Reconciliation');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinRepository,
    private readonly gateways: GatewayRegistry,
    private readonly outcomes: AttemptOutcomes,
    private readonly refunds: RefundsService,
    private readonly settings: RuntimeSettings,
  ) {}

  /** Settles the payins whose gateway answer is overdue; returns how many were looked at. */
  async reconcileDue(now = new Date(), batch = 50): Promise<number> {
    const due = await this.ledger.dueForReconciliation(this.unitOfWork.outside, now, batch);
    for (const payin of due) {
      try {
        if (payin.snapshot().transactionType === 'PAYIN') await this.reconcileAttempt(payin.id, now);
        else await this.refunds.reconcileRefund(payin.id, now);
      } catch (error) {
        this.logger.warn(`could not reconcile payin ${payin.id}: ${(error as Error).message}`);
      }
    }
    return due.length;
  }

  /**
   * A collection attempt: the gateway's answer is applied as any other. A
   * charge the gateway never received (the process died before sending it)
   * is void at the gateway from then on, and fails here: the intent goes back
   * to REQUIRES_PAYMENT_INSTRUMENT, nothing was collected.
   */
  async reconcileAttempt(payinId: string, now = new Date()): Promise<void> {
    const payin = await this.ledger.get(this.unitOfWork.outside, payinId);
    const gatewayName = payin?.snapshot().gateway;
    if (!payin || payin.isFinal || !gatewayName) return;
    const answer = await this.gateways.get(gatewayName).lookup(payinId, payin.snapshot().merchantId);
    if (
      answer.reference &&
      (answer.status === 'APPROVED' ||
        answer.status === 'REJECTED' ||
        (answer.status === 'PENDING' && payin.status === TransactionStatus.PENDING))
    ) {
      const { status, reference, error, maskedPan, cardType, instrumentToken, processorFeeAmount } = answer;
      await this.outcomes.applyChargeAnswer(payinId, gatewayName, {
        status,
        reference,
        error,
        maskedPan,
        cardType,
        instrumentToken,
        processorFeeAmount,
      });
    }
    await this.unitOfWork.run(async (tx) => {
      const intent = await this.intents.lockById(tx, payin.snapshot().paymentIntentId, true);
      const locked = intent && (await this.ledger.get(tx, payinId, true));
      if (!intent || !locked || locked.isFinal) return;
      if (answer.status === 'NOT_RECEIVED' || answer.status === 'EXPIRED') {
        const reason = answer.status === 'NOT_RECEIVED' ? CHARGE_NEVER_SENT : 'the payer did not complete the payment in time';
        if (answer.status === 'EXPIRED') locked.expire(now);
        else locked.reject(reason, now);
        if (intent.status === 'REQUIRES_ACTION' || intent.status === 'PROCESSING') intent.fail(reason, now);
        await this.intents.save(tx, intent);
      } else {
        locked.askGatewayAgainLater(now, this.settings.gateway.reconcileAfterSeconds * 1000);
      }
      await this.ledger.save(tx, locked);
    });
  }
}
