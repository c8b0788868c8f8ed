import { Injectable } from '@nestjs/common';
import { DisputeReports } from '@pcs/disputes';
import { GatewayNotice } from '@pcs/gateways';
import { GatewayNotifications, NotificationResult } from '@pcs/payment-intents';

/**
 * Where a processor's verified notice goes: news of a collection or a refund
 * to the payment intents, news of a chargeback to the disputes (contract §21).
 */
@Injectable()
export class ProcessorNotices {
  constructor(
    private readonly payments: GatewayNotifications,
    private readonly disputes: DisputeReports,
  ) {}

  apply(merchantId: string, gateway: string, notice: GatewayNotice): Promise<NotificationResult> {
    if (notice.kind === 'DISPUTE') return this.disputes.apply(merchantId, gateway, notice.dispute);
    return this.payments.apply(merchantId, gateway, notice);
  }
}
