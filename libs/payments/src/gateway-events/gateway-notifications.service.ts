import { Injectable } from '@nestjs/common';
import { PaymentNotice, ProcessorRefund } from '@pcs/gateways';
import { ProcessorRefunds } from '../refunds/processor-refunds.service';
import { RefundsService } from '../refunds/refunds.service';
import { GatewayEventsService } from './gateway-events.service';
import { PayinRepository } from '../ledger/payin.repository';
import { UnitOfWork } from '@pcs/kernel';

export type NotificationResult = 'applied' | 'replayed' | 'unknown' | 'ignored';

/**
 * A processor's verified notification, read by its adapter into a notice,
 * applied here whatever the processor (contracts §16, §20): news of an
 * attempt goes through the rules of every outcome, once per event; news of a
 * refund settles it as any gateway answer does. Either must name a record of
 * that merchant at that gateway, or nothing changes.
 */
@Injectable()
export class GatewayNotifications {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly ledger: PayinRepository,
    private readonly events: GatewayEventsService,
    private readonly refunds: RefundsService,
    private readonly processorRefunds: ProcessorRefunds,
  ) {}

  async apply(merchantId: string, gateway: string, notice: PaymentNotice): Promise<NotificationResult> {
    if (notice.kind === 'IGNORED') return 'ignored';
    if (notice.kind === 'UNKNOWN') return 'unknown';
    const id = notice.kind === 'CHARGE' ? notice.payinId : notice.refundId;
    const record = await this.ledger.get(this.unitOfWork.outside, id);
    const r = record?.snapshot();
    if (!record || !r || r.merchantId !== merchantId) return 'unknown';
    if (notice.kind === 'CHARGE') {
      if (r.gateway !== gateway || r.transactionType !== 'PAYIN') return 'unknown';
      return this.events.applyTo(record, notice.event);
    }
    if (r.transactionType !== 'REFUND') return 'unknown';
    return this.refunds.settleFromGateway(record, gateway, notice);
  }

  /**
   * The refunds a processor lists on the payment of our attempt `payinId`
   * (contracts §23, §28): those of ours still waiting on its word are settled
   * as it lists them, first; then those made at the processor itself are
   * recorded once.
   */
  async applyProcessorRefunds(
    merchantId: string,
    gateway: string,
    payinId: string,
    refunds: readonly ProcessorRefund[],
  ): Promise<NotificationResult> {
    const settled = await this.refunds.settleListed(merchantId, gateway, payinId, refunds);
    const recorded = await this.processorRefunds.apply(merchantId, gateway, payinId, refunds);
    return settled > 0 ? 'applied' : recorded;
  }
}
