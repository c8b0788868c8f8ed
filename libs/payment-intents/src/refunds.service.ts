import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { GatewayRegistry } from '@pcs/gateways';
import { Caller, DomainError, InvalidRequestError, ManualRefundStatus, Money, MoneyError } from '@pcs/kernel';
import { PayinLedgerService } from '@pcs/payins';
import { CatalogService } from '@pcs/catalog';
import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { PaymentIntent } from './domain/payment-intent';
import { PaymentAttemptParties } from './payment-attempt-parties';
import { PaymentIntentRepository } from './payment-intent.repository';

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
  ) {}

  /** Operation 22: everything refundable when no amount is given. */
  async refund(caller: Caller, paymentIntentId: string, requestedAmount?: number): Promise<PaymentIntent> {
    const { refundId, amount } = await this.dataSource.transaction(async (manager) => {
      const intent = await this.intents.loadVisible(manager, caller, paymentIntentId, true);
      const now = new Date();
      const amount = intent.reserveRefund(this.requested(intent, requestedAmount), now);
      const refundId = crypto.randomUUID();
      await this.ledger.insert(manager, await this.parties.newRefund(manager, intent, refundId, amount.minor, 'REFUND', now));
      await this.intents.save(manager, intent);
      return { refundId, amount };
    });

    const { gateway, chargeReference, paymentMethod, merchantName } = await this.refundContext(paymentIntentId, refundId);
    let outcome: { status: 'APPROVED' | 'REJECTED'; reference: string; error?: string };
    try {
      outcome = await gateway.refund({ refundId, chargeReference, merchantName, paymentMethod, currency: amount.currency, amount: amount.minor });
    } catch (error) {
      // The reservation stays (PENDING): money may or may not have moved; reconciliation decides.
      this.logger.error(`refund ${refundId} could not reach the gateway: ${(error as Error).message}`);
      return (await this.intents.findById(this.dataSource.manager, paymentIntentId))!;
    }
    return this.dataSource.transaction(async (manager) => {
      const intent = (await this.intents.lockById(manager, paymentIntentId))!;
      const payin = (await this.ledger.get(manager, refundId, true))!;
      const now = new Date();
      payin.bindGatewayReference(outcome.reference, null, now);
      if (outcome.status === 'APPROVED') {
        payin.approve('refunded', 0, now);
      } else if (payin.reject(outcome.error ?? 'refund rejected', now)) {
        intent.releaseRefund(amount, now);
        await this.intents.save(manager, intent);
      }
      await this.ledger.save(manager, payin);
      return intent;
    });
  }

  /**
   * Operation 23. MANUAL_REFUND_PENDING reserves the amount (a refund made
   * outside the gateways, not yet confirmed); MANUAL_REFUND_CONFIRMED confirms
   * the pending one (of that amount, when one is given), or records and
   * confirms a manual refund at once when none is pending.
   */
  async manualRefund(caller: Caller, paymentIntentId: string, status: ManualRefundStatus, requestedAmount?: number): Promise<PaymentIntent> {
    return this.dataSource.transaction(async (manager) => {
      const intent = await this.intents.loadVisible(manager, caller, paymentIntentId, true);
      const now = new Date();
      const requested = this.requested(intent, requestedAmount);
      if (status === ManualRefundStatus.MANUAL_REFUND_CONFIRMED) {
        const pending = await this.ledger.pendingManualRefunds(manager, intent.id);
        const match = requested ? pending.find((p) => p.snapshot().amount === requested.minor) : pending[0];
        if (match) {
          match.approve('manually refunded', 0, now);
          await this.ledger.save(manager, match);
          return intent;
        }
        if (pending.length > 0) throw new DomainError('NO_PENDING_MANUAL_REFUND');
      }
      const amount = intent.reserveRefund(requested, now);
      const refund = await this.parties.newRefund(manager, intent, crypto.randomUUID(), amount.minor, 'MANUAL_REFUND', now);
      if (status === ManualRefundStatus.MANUAL_REFUND_CONFIRMED) refund.approve('manually refunded', 0, now);
      await this.ledger.insert(manager, refund);
      await this.intents.save(manager, intent);
      return intent;
    });
  }

  private requested(intent: PaymentIntent, amount: number | undefined): Money | null {
    if (amount === undefined) return null;
    try {
      return Money.fromWire(amount, intent.snapshot().currency);
    } catch (error) {
      if (error instanceof MoneyError) throw new InvalidRequestError(['requestedRefundAmount'], `requestedRefundAmount: ${error.message}`);
      throw error;
    }
  }

  /** The gateway and charge a refund goes back through: those of the approved collection. */
  private async refundContext(paymentIntentId: string, refundId: string) {
    const rows: { gateway: string | null; external_id: string | null; country_processor_id: string | null; merchant_name: string }[] = await this.dataSource.query(
      `SELECT gateway, external_id, country_processor_id, merchant_name FROM payin
       WHERE payment_intent_id = $1 AND transaction_type = 'PAYIN' AND status = 'APPROVED' ORDER BY created_at DESC LIMIT 1`,
      [paymentIntentId],
    );
    const charge = rows[0];
    const [processor] = charge?.country_processor_id ? await this.catalog.findCountryProcessors([charge.country_processor_id]) : [];
    if (!charge?.gateway || !processor) throw new Error(`refund ${refundId}: the intent has no approved collection to refund`);
    return { gateway: this.gateways.get(charge.gateway), chargeReference: charge.external_id, paymentMethod: processor.paymentMethod.name, merchantName: charge.merchant_name };
  }
}
