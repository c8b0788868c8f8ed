import { Injectable, Logger } from '@nestjs/common';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import { GatewayNotice } from '@pcs/gateways';
import { DomainError } from '@pcs/kernel';
import { mercadoPagoCredentials } from './mercado-pago-account';
import { disputeNotice } from './mercado-pago-disputes';
import { MercadoPagoClient, MercadoPagoPayment, MercadoPagoRequestError } from './mercado-pago.client';
import { MercadoPagoGateway } from './mercado-pago.gateway';
import { MercadoPagoRecords } from './persistence/mercado-pago-records.repository';
import { NotificationSignatureInput, verifyNotification } from './mercado-pago-signature';

/**
 * Mercado Pago's notifications (contract §16): verified with the merchant's
 * webhook secret exactly as Mercado Pago documents, then the payment is read
 * from Mercado Pago itself (the notification only names it) and read as news
 * of the attempt its `external_reference` names, when that is an attempt of
 * that merchant at Mercado Pago. The event id is the payment and its status:
 * the same news twice changes nothing twice. A chargeback notification
 * (topic `topic_chargebacks_wh`, or `chargebacks` from IPN-era settings;
 * contract §21) names the case by the query's `data.id` — an 18-digit id
 * that a JSON number cannot hold exactly, so the body's is never read — and
 * the case is read with `GET /v1/chargebacks/:id`.
 */
@Injectable()
export class MercadoPagoNotifications {
  private readonly logger = new Logger('MercadoPago');

  constructor(
    private readonly accounts: GatewayAccounts,
    private readonly gateway: MercadoPagoGateway,
    private readonly records: MercadoPagoRecords,
  ) {}

  async read(merchantId: string, topic: string | undefined, signature: NotificationSignatureInput): Promise<GatewayNotice> {
    const credentials = /^[0-9a-f-]{36}$/i.test(merchantId) ? await mercadoPagoCredentials(this.accounts, merchantId.toLowerCase()) : null;
    if (!credentials || !verifyNotification(credentials.webhookSecret, signature)) throw new DomainError('GATEWAY_CALLBACK_REJECTED');
    const dataId = signature.dataId;
    if (!dataId || dataId.length > 64) return { kind: 'IGNORED' };
    const chargeback = topic === 'topic_chargebacks_wh' || topic === 'chargebacks';
    if (topic !== 'payment' && !chargeback) return { kind: 'IGNORED' };
    try {
      const client = await this.gateway.clientOf(credentials.merchantId);
      if (chargeback) return await this.chargebackNotice(client, credentials.merchantId, dataId);
      return await this.noticeOf(client, credentials.merchantId, await client.getPayment(dataId));
    } catch (error) {
      // Not answered 2xx: Mercado Pago sends the notification again later; reconciliation is the net under that.
      if (error instanceof MercadoPagoRequestError && error.status === 404) return { kind: 'UNKNOWN' };
      this.logger.warn(`${chargeback ? 'chargeback' : 'payment'} ${dataId}: ${(error as Error).message}`);
      throw new DomainError('GATEWAY_UNREACHABLE');
    }
  }

  /**
   * A chargeback as news of the collection it takes back: its payment (the
   * case's first) names our attempt in its external_reference, which must
   * be one of this merchant's at Mercado Pago.
   */
  private async chargebackNotice(client: MercadoPagoClient, merchantId: string, caseId: string): Promise<GatewayNotice> {
    const chargeback = await client.getChargeback(caseId);
    const paymentId = chargeback.payments?.[0];
    if (paymentId === undefined) return { kind: 'IGNORED' };
    const payment = await client.getPayment(String(paymentId));
    const payinId = payment.external_reference ?? '';
    const checkout = /^[0-9a-f-]{36}$/i.test(payinId) ? await this.records.checkoutOfPayin(payinId) : null;
    if (!checkout || checkout.merchantId !== merchantId) return { kind: 'UNKNOWN' };
    return disputeNotice(caseId, chargeback, checkout.payinId);
  }

  /**
   * A payment as news of the attempt it names, if that is one of this
   * merchant's at Mercado Pago: its outcome, its refunds (ours, and any made
   * at Mercado Pago), and the chargeback or claim it is under (contract §23).
   */
  private async noticeOf(client: MercadoPagoClient, merchantId: string, payment: MercadoPagoPayment): Promise<GatewayNotice> {
    const payinId = payment.external_reference ?? '';
    const checkout = /^[0-9a-f-]{36}$/i.test(payinId) ? await this.records.checkoutOfPayin(payinId) : null;
    // Another merchant's attempt, or no attempt of ours at all: nothing changes.
    if (!checkout || checkout.merchantId !== merchantId) return { kind: 'UNKNOWN' };
    return this.gateway.newsOf(client, checkout.payinId, payment);
  }
}
