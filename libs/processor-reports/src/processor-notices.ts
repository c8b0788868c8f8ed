import { Injectable } from '@nestjs/common';
import { DisputeReports } from '@pcs/disputes';
import { GatewayNotice } from '@pcs/gateways';
import { GatewayNotifications, NotificationResult, PixSetupService } from '@pcs/payments';

/**
 * Where what a processor tells goes, whether it arrived by a verified
 * notification or was read by reconciliation (contracts §21, §23): news of a
 * collection or a refund to the payment intents, news of a chargeback or a
 * claim to the disputes, and the refunds the processor lists on a collection
 * to the payment intents again; news of a Pix Automático authorisation to
 * the setup that asked for it. In that order: an approval first (a dispute
 * needs a collected payment), then the dispute (a refund that ends a lost
 * claim must find it lost), then the refunds.
 */
@Injectable()
export class ProcessorNotices {
  constructor(
    private readonly payments: GatewayNotifications,
    private readonly disputes: DisputeReports,
    private readonly pixSetups: PixSetupService,
  ) {}

  async apply(merchantId: string, gateway: string, notice: GatewayNotice): Promise<NotificationResult> {
    if (notice.kind === 'DISPUTE') return this.disputes.apply(merchantId, gateway, notice.dispute);
    // A Pix Automático authorisation (contract §31): its setup, which keeps it as the payer's instrument once active.
    if (notice.kind === 'PIX_AUTHORISATION') return this.pixSetups.noticed(merchantId, gateway, notice);
    if (notice.kind !== 'CHARGE') return this.payments.apply(merchantId, gateway, notice);
    const results = [await this.payments.apply(merchantId, gateway, notice)];
    if (results[0] === 'unknown') return 'unknown';
    if (notice.dispute) results.push(await this.disputes.apply(merchantId, gateway, notice.dispute));
    if (notice.refunds?.length)
      results.push(await this.payments.applyProcessorRefunds(merchantId, gateway, notice.payinId, notice.refunds));
    return results.includes('applied') ? 'applied' : results[0];
  }
}
