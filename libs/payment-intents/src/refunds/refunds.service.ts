import { Injectable, Logger } from '@nestjs/common';
import { inTransaction } from '@pcs/database';
import { InjectDataSource } from '@nestjs/typeorm';
import { GatewayRegistry, RefundOutcome } from '@pcs/gateways';
import { RuntimeSettings } from '@pcs/config';
import { Caller, DomainError, ManualRefundStatus, Money, PaymentIntentId } from '@pcs/kernel';
import { Payin, PayinLedgerService } from '@pcs/payins';
import { CatalogService } from '@pcs/catalog';
import * as crypto from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentAttemptParties } from '../attempts/payment-attempt-parties';
import { PaymentIntentRepository } from '../payment-intent.repository';

/**
 * Refunds (operations 22 and 23). The refundable amount is received minus
 * every refund that has not failed, manual ones included. A refund reserves
 * its amount in a short transaction that holds the intent's row lock, so any
 * number of concurrent refunds queue and none can reserve past what was
 * collected (a CHECK constraint backs this up). The gateway is called after
 * that commit; a refund it rejects releases its reservation.
 */
@Injectable()
export class RefundsService {
  private readonly logger = new Logger('Refunds');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinLedgerService,
    private readonly parties: PaymentAttemptParties,
    private readonly gateways: GatewayRegistry,
    private readonly catalog: CatalogService,
    private readonly settings: RuntimeSettings,
  ) {}

  /**
   * Operation 22: everything refundable when no amount is given.
   * `operationId` (derived from the request's Idempotency-Key, when it has
   * one) names the refund: a refund already recorded under it is carried on,
   * not made twice.
   */
  async refund(caller: Caller, paymentIntentId: PaymentIntentId, requestedAmount?: Money, operationId?: string): Promise<PaymentIntent> {
    const refundId = operationId ?? crypto.randomUUID();
    const earlier = operationId && (await this.ledger.get(this.dataSource.manager, operationId));
    if (earlier) {
      const intent = await this.intents.getVisible(this.dataSource.manager, caller, paymentIntentId);
      if (earlier.snapshot().paymentIntentId !== intent.id)
        throw new DomainError('PAYMENT_INTENT_INVALID_STATE', undefined, { status: intent.status });
    } else {
      await inTransaction(this.dataSource, async (manager) => {
        const intent = await this.intents.getVisible(manager, caller, paymentIntentId, true);
        const now = new Date();
        const amount = intent.reserveRefund(requestedAmount ?? null, now);
        await this.ledger.insert(manager, await this.parties.newRefund(manager, intent, refundId, amount, 'REFUND', now));
        await this.intents.save(manager, intent);
      });
    }
    await this.sendToGateway(refundId);
    return (await this.intents.findById(this.dataSource.manager, paymentIntentId))!;
  }

  /**
   * Asks the gateway for a reserved refund (the refund's id is its
   * idempotency key there) and records the answer. Unreachable: the refund
   * stays PENDING, holding its amount, and reconciliation settles it.
   */
  private async sendToGateway(refundId: string): Promise<void> {
    const refund = await this.ledger.get(this.dataSource.manager, refundId);
    if (!refund || refund.isFinal) return;
    const r = refund.snapshot();
    const { gateway, chargeId, chargeReference, paymentMethod, merchantName } = await this.refundContext(r.paymentIntentId, refundId);
    let outcome: RefundOutcome;
    try {
      outcome = await gateway.refund({
        refundId,
        merchantId: r.merchantId,
        chargeId,
        chargeReference,
        merchantName,
        paymentMethod,
        currency: r.currency,
        amount: r.amount,
      });
    } catch (error) {
      this.logger.error(
        `refund ${refundId} got no answer from ${gateway.name} (${(error as Error).message}); reconciliation will settle it`,
      );
      return;
    }
    await this.settle(refundId, outcome.status, outcome.reference, outcome.error);
  }

  /**
   * Crash recovery for a gateway refund that has waited past its window: the
   * gateway is asked by the refund's id. Approved is recorded; rejected, or
   * never received (the process died before sending it; the gateway voids the
   * id from then on), releases the reserved amount.
   */
  async reconcileRefund(refundId: string, now = new Date()): Promise<void> {
    const refund = await this.ledger.get(this.dataSource.manager, refundId);
    // Refunds sent to a gateway: gateway refunds, and manual ones confirmed at a gateway that refunds them.
    const r = refund?.snapshot();
    if (!refund || !r || refund.isFinal || (r.conceptCode === 'MANUAL_REFUND' && r.manualRefundStatus !== 'MANUAL_REFUND_CONFIRMED'))
      return;
    const { gateway } = await this.refundContext(refund.snapshot().paymentIntentId, refundId);
    const answer = await gateway.lookup(refundId, refund.snapshot().merchantId);
    if (answer.status === 'APPROVED') return this.settle(refundId, 'APPROVED', answer.reference);
    if (answer.status !== 'PENDING')
      return this.settle(refundId, 'REJECTED', answer.reference, answer.error ?? 'the refund never reached the gateway');
    await inTransaction(this.dataSource, async (manager) => {
      const locked = await this.ledger.get(manager, refundId, true);
      if (!locked || locked.isFinal) return;
      locked.askGatewayAgainLater(now, this.settings.gateway.reconcileAfterSeconds * 1000);
      await this.ledger.save(manager, locked);
    });
  }

  /** Records a gateway's final word on a refund: APPROVED, or REJECTED releasing its reservation. */
  private async settle(refundId: string, status: 'APPROVED' | 'REJECTED', reference: string | null, error?: string): Promise<void> {
    await inTransaction(this.dataSource, async (manager) => {
      const found = await this.ledger.get(manager, refundId);
      const intent = found && (await this.intents.lockById(manager, found.snapshot().paymentIntentId));
      const payin = intent && (await this.ledger.get(manager, refundId, true));
      if (!intent || !payin || payin.isFinal) return;
      const now = new Date();
      if (reference && !payin.snapshot().externalId) payin.bindGatewayReference(reference, null, now);
      if (status === 'APPROVED') {
        payin.approve('refunded', 0, now);
      } else if (payin.reject(error ?? 'refund rejected', now)) {
        intent.releaseRefund(Money.ofMinor(payin.snapshot().amount, payin.snapshot().currency), now);
        await this.intents.save(manager, intent);
      }
      await this.ledger.save(manager, payin);
    });
  }

  /**
   * Operation 23. MANUAL_REFUND_PENDING reserves the amount (a refund made
   * outside the gateways, not yet confirmed); MANUAL_REFUND_CONFIRMED confirms
   * the pending one (of that amount, when one is given), or records and
   * confirms a manual refund at once when none is pending. `operationId`
   * (derived from the request's Idempotency-Key, when it has one) names the
   * record the request creates or confirms, so a retry recognises it and
   * changes nothing.
   */
  async manualRefund(
    caller: Caller,
    paymentIntentId: PaymentIntentId,
    status: ManualRefundStatus,
    requestedAmount?: Money,
    operationId?: string,
  ): Promise<PaymentIntent> {
    const intent = await inTransaction(this.dataSource, async (manager) => {
      const intent = await this.intents.getVisible(manager, caller, paymentIntentId, true);
      if (operationId && (await this.ledger.recordedByOperation(manager, intent.id, operationId))) return intent;
      const recordId = operationId ?? crypto.randomUUID();
      const now = new Date();
      const requested = requestedAmount ?? null;
      // At a gateway that returns the money on confirmation (Mercado Pago), a confirmation is a refund there.
      const atGateway =
        status === ManualRefundStatus.MANUAL_REFUND_CONFIRMED && (await this.confirmationsRefundAtGateway(manager, intent.id));
      const confirm = (refund: Payin) =>
        atGateway
          ? refund.confirmManualRefundAtGateway(recordId, now, this.settings.gateway.reconcileAfterSeconds * 1000)
          : refund.confirmManualRefund(recordId, now);
      if (status === ManualRefundStatus.MANUAL_REFUND_CONFIRMED) {
        const pending = await this.ledger.pendingManualRefunds(manager, intent.id);
        const match = requested ? pending.find((p) => p.snapshot().amount === requested.minor) : pending[0];
        if (match) {
          confirm(match);
          await this.ledger.save(manager, match);
          return intent;
        }
        if (pending.length > 0) throw new DomainError('NO_PENDING_MANUAL_REFUND');
      }
      const amount = intent.reserveRefund(requested, now);
      const refund = await this.parties.newRefund(manager, intent, recordId, amount, 'MANUAL_REFUND', now);
      if (status === ManualRefundStatus.MANUAL_REFUND_CONFIRMED) confirm(refund);
      await this.ledger.insert(manager, refund);
      await this.intents.save(manager, intent);
      return intent;
    });
    // Confirmed refunds still waiting for their gateway (this one, or one a cut request left): sent now.
    // Sending again is safe: the refund's id is its idempotency key there.
    const waiting = await this.ledger.manualRefundsAtGateway(this.dataSource.manager, intent.id);
    if (waiting.length === 0) return intent;
    for (const refundId of waiting) await this.sendToGateway(refundId);
    return (await this.intents.findById(this.dataSource.manager, intent.id))!;
  }

  /** Whether the intent was collected at a gateway that returns the money itself when a manual refund is confirmed. */
  private async confirmationsRefundAtGateway(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<boolean> {
    const gateway = (await this.ledger.latestApprovedCharge(manager, paymentIntentId))?.snapshot().gateway;
    return gateway ? this.gateways.get(gateway).refundsManualConfirmations : false;
  }

  /** The gateway and charge a refund goes back through: those of the approved collection. */
  private async refundContext(paymentIntentId: PaymentIntentId, refundId: string) {
    const charge = (await this.ledger.latestApprovedCharge(this.dataSource.manager, paymentIntentId))?.snapshot();
    const [processor] = charge?.countryProcessorId ? await this.catalog.findCountryProcessors([charge.countryProcessorId]) : [];
    if (!charge?.gateway || !processor) throw new Error(`refund ${refundId}: the intent has no approved collection to refund`);
    return {
      gateway: this.gateways.get(charge.gateway),
      chargeId: charge.transactionId,
      chargeReference: charge.externalId,
      paymentMethod: processor.paymentMethod.name,
      merchantName: charge.merchantName,
    };
  }
}
